// The parts of the release tooling: versions and bumps, the pending changesets, the CHANGELOG section,
// info.version in openapi/openapi.yaml, and the released bundle's integrity.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseReleased, releasedText } from "../../scripts/build/steps/60-released.js";
import { addToEntry, contractChangesSection } from "../../scripts/release/changelog.js";
import { pendingChangesets } from "../../scripts/release/changesets.js";
import { compareContracts } from "../../scripts/release/compare.js";
import { setLockVersion, setSpecVersion } from "../../scripts/release/sync-version.js";
import { bumpBetween, compareVersions, parseVersion } from "../../scripts/release/versions.js";
import { applyPatch, baseContract, PACKAGE_NAME } from "./support.js";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "release-parts-"));
  dirs.push(dir);
  return dir;
}

describe("versions", () => {
  it("names the bump between two versions", () => {
    const v = parseVersion;
    expect(bumpBetween(v("1.0.0"), v("2.0.0"))).toBe("major");
    expect(bumpBetween(v("1.0.0"), v("2.0.0-next.0"))).toBe("major");
    expect(bumpBetween(v("1.0.0"), v("1.1.0"))).toBe("minor");
    expect(bumpBetween(v("1.0.0"), v("1.0.1"))).toBe("patch");
    expect(bumpBetween(v("1.0.0"), v("1.0.0"))).toBe("none");
    expect(bumpBetween(v("2.0.0"), v("1.9.0"))).toBe("none");
    expect(compareVersions(v("2.0.0-next.0"), v("2.0.0"))).toBeLessThan(0);
    expect(() => parseVersion("1.0")).toThrow(/not a semver version/);
  });
});

describe("pending changesets", () => {
  it("reads each one's bump for this package from its frontmatter, skipping the README and other packages", async () => {
    const root = await tempDir();
    await mkdir(path.join(root, ".changeset"));
    await writeFile(path.join(root, ".changeset", "README.md"), "# Changesets\n");
    await writeFile(path.join(root, ".changeset", "config.json"), "{}\n");
    await writeFile(path.join(root, ".changeset", "a.md"), `---\n"${PACKAGE_NAME}": major\n---\n\nRemoved a field.\n`);
    await writeFile(path.join(root, ".changeset", "b.md"), `---\n'other-package': minor\n---\n\nElsewhere.\n`);
    await writeFile(path.join(root, ".changeset", "c.md"), `---\n'${PACKAGE_NAME}': patch\n---\n`);
    expect(await pendingChangesets(root, PACKAGE_NAME)).toEqual([
      { file: ".changeset/a.md", bump: "major", summary: "Removed a field." },
      { file: ".changeset/c.md", bump: "patch", summary: "" },
    ]);
  });

  it("names a changeset whose frontmatter is broken", async () => {
    const root = await tempDir();
    await mkdir(path.join(root, ".changeset"));
    await writeFile(path.join(root, ".changeset", "bad.md"), `---\n"${PACKAGE_NAME}": huge\n---\n`);
    await expect(pendingChangesets(root, PACKAGE_NAME)).rejects.toThrow(/\.changeset\/bad\.md: .* "huge"/);
    await writeFile(path.join(root, ".changeset", "bad.md"), "no frontmatter\n");
    await expect(pendingChangesets(root, PACKAGE_NAME)).rejects.toThrow(/\.changeset\/bad\.md: no frontmatter/);
  });
});

describe("CHANGELOG section", () => {
  it("lists the contract changes by kind under the entry of the new version, before the older entries", () => {
    const before = baseContract();
    const after = applyPatch(before, [
      { remove: "/components/schemas/Item/properties/note" },
      { set: "/components/schemas/Item/properties/color", value: { type: "string" } },
    ]);
    const section = contractChangesSection(compareContracts(before, after), "1.0.0");
    const changelog = "# pkg\n\nIntro.\n\n## 2.0.0\n\n### Major Changes\n\n- Removed note.\n\n## 1.0.0\n\nFirst.\n";
    const updated = addToEntry(changelog, "2.0.0", section);
    expect(updated).toBe(
      "# pkg\n\nIntro.\n\n## 2.0.0\n\n### Major Changes\n\n- Removed note.\n\n" +
        "### Contract changes since 1.0.0\n\nClassified by `npm run check:breaking` (released bundle → this release's bundle).\n\n" +
        "#### Breaking\n\n- `response-field-removed` response \\* body: field note removed (2 places: getItem, createItem)\n\n" +
        "#### Non-breaking\n\n- `response-field-added` response \\* body: field color added (2 places: getItem, createItem)\n\n" +
        "## 1.0.0\n\nFirst.\n",
    );
    expect(() => addToEntry(changelog, "3.0.0", section)).toThrow(/no entry "## 3.0.0"/);
  });

  it("writes JSON values (patterns) as code, so Markdown leaves them alone", () => {
    const before = baseContract();
    const after = applyPatch(before, [{ set: "/components/schemas/CreateItemRequest/properties/name/pattern", value: "^[a-z_]+\\.x$" }]);
    expect(contractChangesSection(compareContracts(before, after), "1.0.0")).toContain(
      '- `request-constraint-tightened` POST /items (createItem), request body: name: pattern `"^[a-z_]+\\\\.x$"` added\n',
    );
  });
});

describe("the version in package-lock.json", () => {
  it("follows the package version, the rest of the lock byte for byte", async () => {
    const root = await tempDir();
    const lock = (v: string) =>
      `${JSON.stringify({ name: "p", version: v, lockfileVersion: 3, requires: true, packages: { "": { name: "p", version: v }, "node_modules/a": { version: "1.0.0" } } }, null, 2)}\n`;
    await writeFile(path.join(root, "package-lock.json"), lock("1.0.0"));
    await setLockVersion(root, "2.0.0");
    expect(await readFile(path.join(root, "package-lock.json"), "utf8")).toBe(lock("2.0.0"));
  });
});

describe("info.version in openapi/openapi.yaml", () => {
  it("is set in place: only that line changes, comments and x-description-version stay", async () => {
    const root = await tempDir();
    await mkdir(path.join(root, "openapi"));
    const text = "openapi: 3.1.0\ninfo:\n  title: T\n  # the package version\n  version: 1.0.0\n  x-description-version: 1.0.0\npaths: {}\n";
    await writeFile(path.join(root, "openapi", "openapi.yaml"), text);
    expect(await setSpecVersion(root, "2.0.0")).toBe("1.0.0");
    expect(await readFile(path.join(root, "openapi", "openapi.yaml"), "utf8")).toBe(text.replace("version: 1.0.0\n  x-", "version: 2.0.0\n  x-"));
  });
});

describe("the released bundle", () => {
  it("carries its notice and a digest, and a hand edit is caught", () => {
    const doc = { ...baseContract(), "x-generated": "the build's notice" } as Record<string, unknown>;
    const text = releasedText(doc, "1.0.0");
    const released = parseReleased(text);
    expect(released.version).toBe("1.0.0");
    expect(released.document["x-generated"]).toMatch(/^Copied by `npm run release:publish`.*do not edit by hand/);
    expect(() => parseReleased(text.replace('"maxLength": 100', '"maxLength": 101'))).toThrow(/edited by hand/);
    expect(() => parseReleased(text.replace(/"x-generated": ".*",/, '"x-generated": "mine",'))).toThrow(/no release notice/);
    expect(() => releasedText(doc, "2.0.0")).toThrow(/info.version is 1.0.0, not the released version 2.0.0/);
  });
});
