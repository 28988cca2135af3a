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
import { bumpBetween, compareVersions, isBump, maxBump, parseVersion } from "../../scripts/release/versions.js";
import { applyPatch, baseContract, PACKAGE_NAME, withCopiesOfGetItem } from "./support.js";

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

  it("reads a version with a leading v, spaces, many digits, prerelease and build metadata, nothing around it", () => {
    expect(parseVersion(" v10.20.30-next.1+build.5 \n")).toEqual({
      major: 10,
      minor: 20,
      patch: 30,
      prerelease: "next.1",
    });
    for (const text of ["x1.0.0", "1.0.0 x", "1.0.0+", "1.0.0+a b", "1.0.0-a+b+c"])
      expect(() => parseVersion(text), text).toThrow(/not a semver version/);
  });

  it("orders prereleases below their release and among themselves, and bumps by the biggest part that grew", () => {
    const v = parseVersion;
    expect(compareVersions(v("2.0.0-next.0"), v("2.0.0-next.1"))).toBe(-1);
    expect(compareVersions(v("2.0.0-next.1"), v("2.0.0-next.0"))).toBe(1);
    expect(compareVersions(v("2.0.0"), v("2.0.0-next.0"))).toBe(1);
    expect(compareVersions(v("2.0.0-next.0"), v("2.0.0-next.0"))).toBe(0);
    expect(bumpBetween(v("1.2.0"), v("2.1.0"))).toBe("major");
    expect(bumpBetween(v("1.2.3"), v("1.3.0"))).toBe("minor");
    expect(bumpBetween(v("2.1.0"), v("3.0.1"))).toBe("major");
    expect(bumpBetween(v("1.9.0"), v("2.0.0-next.0"))).toBe("major");
    expect(bumpBetween(v("1.2.0"), v("1.2.1-next.0"))).toBe("patch");
  });

  it("orders prereleases by their dot-separated identifiers, numbers by value (semver 2.0.0, item 11)", () => {
    const v = parseVersion;
    expect(compareVersions(v("2.0.0-next.9"), v("2.0.0-next.10"))).toBe(-1);
    expect(compareVersions(v("2.0.0-next.10"), v("2.0.0-next.9"))).toBe(1);
    expect(compareVersions(v("1.0.0-next.2"), v("1.0.0"))).toBeLessThan(0);
    expect(compareVersions(v("1.0.0"), v("1.0.0-next.2"))).toBeGreaterThan(0);
    expect(bumpBetween(v("2.0.0-next.9"), v("2.0.0-next.10"))).toBe("patch");
    expect(bumpBetween(v("2.0.0-next.10"), v("2.0.0-next.9"))).toBe("none");
    // The example order of semver.org, item 11, each below the next.
    const order = [
      "1.0.0-alpha",
      "1.0.0-alpha.1",
      "1.0.0-alpha.beta",
      "1.0.0-beta",
      "1.0.0-beta.2",
      "1.0.0-beta.11",
      "1.0.0-rc.1",
      "1.0.0",
    ];
    for (let i = 1; i < order.length; i++) {
      expect(compareVersions(v(order[i - 1]!), v(order[i]!)), `${order[i - 1]} < ${order[i]}`).toBe(-1);
      expect(compareVersions(v(order[i]!), v(order[i - 1]!)), `${order[i]} > ${order[i - 1]}`).toBeGreaterThan(0);
    }
    expect(compareVersions(v("1.0.0-beta.11"), v("1.0.0-beta.11+build.2"))).toBe(0);
  });

  it("takes the biggest of several bumps, none of none, and knows only its four names", () => {
    expect(maxBump(["patch", "major", "minor"])).toBe("major");
    expect(maxBump(["minor", "minor"])).toBe("minor");
    expect(maxBump([])).toBe("none");
    expect(["none", "patch", "minor", "major"].every(isBump)).toBe(true);
    expect([undefined, 1, "MAJOR", "", ["major"]].some(isBump)).toBe(false);
  });
});

describe("pending changesets", () => {
  it("reads each one's bump for this package from its frontmatter, skipping the README and others", async () => {
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

  it("finds none without a .changeset folder, and says when .changeset is not a folder", async () => {
    const root = await tempDir();
    expect(await pendingChangesets(root, PACKAGE_NAME)).toEqual([]);
    await writeFile(path.join(root, ".changeset"), "a file\n");
    await expect(pendingChangesets(root, PACKAGE_NAME)).rejects.toThrow(/ENOTDIR/);
  });

  it("reads frontmatter with CRLF line ends, spaces after the dashes, and a body right after it", async () => {
    const root = await tempDir();
    await mkdir(path.join(root, ".changeset"));
    await writeFile(
      path.join(root, ".changeset", "crlf.md"),
      `--- \r\n"${PACKAGE_NAME}": minor\r\n---\t\r\nAdded.\r\n`,
    );
    await writeFile(path.join(root, ".changeset", "end.md"), `---\n"${PACKAGE_NAME}": patch\n---`);
    await writeFile(path.join(root, ".changeset", "notes.txt"), "not a changeset\n");
    expect(await pendingChangesets(root, PACKAGE_NAME)).toEqual([
      { file: ".changeset/crlf.md", bump: "minor", summary: "Added." },
      { file: ".changeset/end.md", bump: "patch", summary: "" },
    ]);
  });

  it("takes frontmatter only at the start, between lines of three dashes; empty one names no package", async () => {
    const root = await tempDir();
    await mkdir(path.join(root, ".changeset"));
    const file = path.join(root, ".changeset", "x.md");
    for (const text of [
      `Intro.\n---\n"${PACKAGE_NAME}": major\n---\n`,
      `---x\n"${PACKAGE_NAME}": major\n---\n`,
      `---\n"${PACKAGE_NAME}": major\n---x\n`,
    ]) {
      await writeFile(file, text);
      await expect(pendingChangesets(root, PACKAGE_NAME), text).rejects.toThrow(/^\.changeset\/x\.md: no frontmatter/);
    }
    await writeFile(file, "---\n---\nNothing declared.\n");
    expect(await pendingChangesets(root, PACKAGE_NAME)).toEqual([]);
  });

  it("names a changeset whose frontmatter is not YAML or not a map of packages", async () => {
    const root = await tempDir();
    await mkdir(path.join(root, ".changeset"));
    await writeFile(path.join(root, ".changeset", "bad.md"), '---\n"a: [\n---\n');
    await expect(pendingChangesets(root, PACKAGE_NAME)).rejects.toThrow(
      /^\.changeset\/bad\.md: frontmatter is not YAML \([^\n]{10,}\)$/,
    );
    for (const body of ["- major", "just text", "null"]) {
      await writeFile(path.join(root, ".changeset", "bad.md"), `---\n${body}\n---\n`);
      const expected = body === "null" ? [] : undefined;
      if (expected) expect(await pendingChangesets(root, PACKAGE_NAME)).toEqual(expected);
      else
        await expect(pendingChangesets(root, PACKAGE_NAME), body).rejects.toThrow(
          ".changeset/bad.md: frontmatter must map package names to bumps",
        );
    }
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
        "### Contract changes since 1.0.0\n\nClassified by `npm run check:breaking` (released bundle → this " +
        "release's bundle).\n\n" +
        "#### Breaking\n\n- `response-field-removed` response \\* body: field note removed (2 places: getItem, " +
        "createItem)\n\n" +
        "#### Non-breaking\n\n- `response-field-added` response \\* body: field color added (2 places: getItem, " +
        "createItem)\n\n" +
        "## 1.0.0\n\nFirst.\n",
    );
    expect(() => addToEntry(changelog, "3.0.0", section)).toThrow(/no entry "## 3.0.0"/);
    // The entry of the oldest version is the last: the section ends the file.
    expect(addToEntry("# pkg\n\n## 1.0.0\n\nFirst.\n", "1.0.0", "### Section\n")).toBe(
      "# pkg\n\n## 1.0.0\n\nFirst.\n\n### Section\n",
    );
  });

  it("says when the contract is unchanged, and names five places of a group, then an ellipsis", () => {
    expect(contractChangesSection([], "1.0.0")).toBe(
      "### Contract changes since 1.0.0\n\nClassified by `npm run check:breaking` (released bundle → this " +
        "release's " +
        "bundle).\n\nNone: the contract is unchanged.\n",
    );
    const before = withCopiesOfGetItem(baseContract(), 4);
    const five = applyPatch(before, [{ remove: "/paths/~1copies~14" }]);
    const bullet = (doc: typeof before) =>
      contractChangesSection(
        compareContracts(doc, applyPatch(doc, [{ remove: "/components/schemas/Item/properties/note" }])),
        "1.0.0",
      )
        .split("\n")
        .find((line) => line.startsWith("- "));
    expect(bullet(five)).toBe(
      "- `response-field-removed` response \\* body: field note removed (5 places: getItem, createItem, getCopy1, " +
        "getCopy2, getCopy3)",
    );
    expect(bullet(before)).toBe(
      "- `response-field-removed` response \\* body: field note removed (6 places: getItem, createItem, getCopy1, " +
        "getCopy2, getCopy3, …)",
    );
  });

  it("writes a JSON value holding a backtick as a code span with double backticks", () => {
    const before = baseContract();
    const after = applyPatch(before, [
      { set: "/components/schemas/CreateItemRequest/properties/name/pattern", value: "^[a-z`]+$" },
    ]);
    expect(contractChangesSection(compareContracts(before, after), "1.0.0")).toContain(
      '- `request-constraint-tightened` POST /items (createItem), request body: name: pattern `` "^[a-z`]+$" `` ' +
        "added\n",
    );
  });

  it("writes JSON values (patterns) as code, so Markdown leaves them alone", () => {
    const before = baseContract();
    const after = applyPatch(before, [
      { set: "/components/schemas/CreateItemRequest/properties/name/pattern", value: "^[a-z_]+\\.x$" },
    ]);
    expect(contractChangesSection(compareContracts(before, after), "1.0.0")).toContain(
      '- `request-constraint-tightened` POST /items (createItem), request body: name: pattern `"^[a-z_]+\\\\.x$"` ' +
        "added\n",
    );
  });
});

describe("the version in package-lock.json", () => {
  it("follows the package version, the rest of the lock byte for byte", async () => {
    const root = await tempDir();
    const lock = (v: string) =>
      `${JSON.stringify(
        {
          name: "p",
          version: v,
          lockfileVersion: 3,
          requires: true,
          packages: { "": { name: "p", version: v }, "node_modules/a": { version: "1.0.0" } },
        },
        null,
        2,
      )}\n`;
    await writeFile(path.join(root, "package-lock.json"), lock("1.0.0"));
    await setLockVersion(root, "2.0.0");
    expect(await readFile(path.join(root, "package-lock.json"), "utf8")).toBe(lock("2.0.0"));
  });
});

describe("the version in package-lock.json, edge cases", () => {
  it("leaves a repository without a lock alone, and a lock without packages gets its top-level version", async () => {
    const folder = await tempDir();
    await mkdir(path.join(folder, "package-lock.json"));
    await expect(setLockVersion(folder, "2.0.0")).rejects.toThrow(/EISDIR/);
    const root = await tempDir();
    await setLockVersion(root, "2.0.0");
    await expect(readFile(path.join(root, "package-lock.json"), "utf8")).rejects.toThrow(/ENOENT/);
    await writeFile(path.join(root, "package-lock.json"), '{"name":"p","version":"1.0.0"}');
    await setLockVersion(root, "2.0.0");
    expect(await readFile(path.join(root, "package-lock.json"), "utf8")).toBe(
      '{\n  "name": "p",\n  "version": "2.0.0"\n}\n',
    );
  });
});

describe("info.version in openapi/openapi.yaml", () => {
  it("refuses a spec without an info.version line, and one where the line it finds is not info's own", async () => {
    const root = await tempDir();
    await mkdir(path.join(root, "openapi"));
    const file = path.join(root, "openapi", "openapi.yaml");
    // The version of a later block is not info's.
    await writeFile(file, "openapi: 3.1.0\ninfo:\n  title: T\nx:\n  version: 0.0.1\npaths: {}\n");
    await expect(setSpecVersion(root, "2.0.0")).rejects.toThrow("openapi/openapi.yaml: no info.version line found");
    const nested = "openapi: 3.1.0\ninfo:\n  contact:\n    version: 9.9.9\n  version: 1.0.0\npaths: {}\n";
    await writeFile(file, nested);
    await expect(setSpecVersion(root, "2.0.0")).rejects.toThrow(
      "openapi/openapi.yaml: setting info.version to 2.0.0 did not take (is it quoted or computed?)",
    );
    expect(await readFile(file, "utf8")).toBe(nested);
  });

  // Each: the spec's text, and the line that must become version 2.0.0 (nothing else changes).
  it.each([
    [
      "finds info at the start of a line, its version line after a blank line, not in a comment",
      "x-meta:\n  info:\n    version: 0.0.1\ninfo:\n  title: T\n\n  # version: 0.9.0\n  version: 1.0.0\npaths: {}\n",
      "  version: 1.0.0",
    ],
    [
      "finds the line after blank lines and CRLF line ends in info, and only in info",
      "x:\r\n  version: 0.0.1\r\ninfo:  \r\n  title: T\r\n\r\n\t\r\n  version:   1.0.0\r\npaths: {}\r\n",
      "  version:   1.0.0",
    ],
    [
      "is set in place: only that line changes, comments and x-description-version stay",
      "openapi: 3.1.0\ninfo:\n  title: T\n  # the package version\n  version: 1.0.0\n  x-description-version: " +
        "1.0.0\npaths: {}\n",
      "  version: 1.0.0\n  x-",
    ],
  ])("%s", async (_, text, versionLine) => {
    const root = await tempDir();
    await mkdir(path.join(root, "openapi"));
    const file = path.join(root, "openapi", "openapi.yaml");
    await writeFile(file, text);
    expect(await setSpecVersion(root, "2.0.0")).toBe("1.0.0");
    expect(await readFile(file, "utf8")).toBe(
      text.replace(versionLine, versionLine.replace(/version: +1\.0\.0/, "version: 2.0.0")),
    );
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
    expect(() => parseReleased(text.replace(/"x-generated": ".*",/, '"x-generated": "mine",'))).toThrow(
      /no release notice/,
    );
    expect(() => releasedText(doc, "2.0.0")).toThrow(/info.version is 1.0.0, not the released version 2.0.0/);
  });
});
