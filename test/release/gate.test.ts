// The gate's command line (`npm run check:breaking`, scripts/check-breaking.ts) on throwaway checkouts that
// hold only what it reads: package.json, generated/openapi.json, generated/released/openapi.json, .changeset/.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { GateResult } from "../../scripts/release/gate.js";
import { applyPatch, baseContract, type Checkout, checkout, PACKAGE_NAME } from "./support.js";

const open: Checkout[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.remove()));
});
async function released(version = "1.0.0"): Promise<Checkout> {
  const repo = await checkout(version);
  open.push(repo);
  await repo.released(baseContract(), version);
  await repo.current(baseContract());
  return repo;
}
const changeset = (bump: string, note: string) => `---\n"${PACKAGE_NAME}": ${bump}\n---\n\n${note}\n`;
const removeNote = [{ remove: "/components/schemas/Item/properties/note" }];
/** A non-breaking change besides (an optional field added): the major-version problem lists breaking changes only. */
const addColour = [{ set: "/components/schemas/Item/properties/colour", value: { type: "string" } }];
const REMOVED_LINE =
  "BREAKING  response-field-removed  GET /items/{id} (getItem), response 200 body: field data.note removed";

/** What the command line prints for a result: each problem, then the summary. */
const text = (result: GateResult) => [...result.problems, result.summary].join("\n");

describe("check:breaking", () => {
  it("passes when the contract is the released one", async () => {
    const repo = await released();
    const result = await repo.run();
    expect(result.ok, text(result)).toBe(true);
    expect(result.problems).toEqual([]);
    expect(result.summary).toBe(
      "check:breaking: released 1.0.0 → 1.0.0: 0 breaking, 0 non-breaking, 0 annotations; needs no bump, has none",
    );
  });

  it("fails on a removed response field naming it and its operation; a major changeset or version passes", async () => {
    const repo = await released();
    await repo.current(applyPatch(baseContract(), [...removeNote, ...addColour]));
    const failed = await repo.run();
    expect(failed.ok).toBe(false);
    expect(failed.problems).toHaveLength(1);
    expect(failed.problems[0]).toBe(
      [
        "2 breaking changes since the released 1.0.0 need a major version; neither the version (1.0.0, released " +
          "1.0.0) nor a pending changeset gives one:",
        `  ${REMOVED_LINE}`,
        "  BREAKING  response-field-removed  POST /items (createItem), response 200 body: field data.note removed",
        `Undo the change, or record a major bump: \`npx changeset add --major ${PACKAGE_NAME} -m "<what changed, ` +
          `for ` +
          `consumers>"\` (RELEASING.md).`,
      ].join("\n"),
    );
    expect(failed).toMatchObject({ required: "major", granted: "none", grantedBy: [] });

    await repo.changeset("small-note.md", changeset("minor", "Item: note removed."));
    const minor = await repo.run();
    expect(minor.ok).toBe(false);
    expect(minor.problems[0]).toContain("nor a pending changeset (.changeset/small-note.md: minor) gives one:");
    expect(minor.summary).toContain("needs a major bump, has minor (.changeset/small-note.md)");

    await repo.changeset("drop-note.md", changeset("major", "Item: note removed."));
    const major = await repo.run();
    expect(major.ok, text(major)).toBe(true);
    expect(major.summary).toBe(
      "check:breaking: released 1.0.0 → 1.0.0: 2 breaking, 2 non-breaking, 0 annotations; needs a major bump, " +
        "has " +
        "major (.changeset/drop-note.md)",
    );

    // After `changeset version`: no changeset left, the version says it.
    const versioned = await checkout("2.0.0");
    open.push(versioned);
    await versioned.released(baseContract(), "1.0.0");
    await versioned.current(applyPatch(baseContract(), removeNote));
    const bumped = await versioned.run();
    expect(bumped.ok, text(bumped)).toBe(true);
    expect(bumped.summary).toBe(
      "check:breaking: released 1.0.0 → 2.0.0: 2 breaking, 0 non-breaking, 0 annotations; needs a major bump, " +
        "has " +
        "major (version 2.0.0)",
    );
  });

  it("asks for a minor bump for an addition and a patch bump for an annotation", async () => {
    const repo = await released();
    await repo.current(
      applyPatch(baseContract(), [{ set: "/components/schemas/Item/properties/color", value: { type: "string" } }]),
    );
    const addition = await repo.run();
    expect(addition.ok).toBe(false);
    expect(addition.problems[0]).toBe(
      [
        "2 changes since the released 1.0.0 need at least a minor bump; neither the version (1.0.0, released 1.0.0) " +
          "nor a pending changeset gives one:",
        "  NON-BREAKING  response-field-added  response * body: field color added — 2 places: getItem, createItem",
        `Every change to the contract carries a note and a bump: \`npx changeset add --minor ${PACKAGE_NAME} -m ` +
          `"<what changed, for consumers>"\` (or \`npm run changeset\`; RELEASING.md).`,
      ].join("\n"),
    );
    await repo.changeset("color.md", changeset("minor", "Item: color."));
    const granted = await repo.run();
    expect(granted.ok, text(granted)).toBe(true);
    expect(granted.summary).toContain("needs a minor bump, has minor (.changeset/color.md)");

    const notes = await released();
    await notes.current(applyPatch(baseContract(), [{ set: "/info/description", value: "Now described." }]));
    const annotation = await notes.run();
    expect(annotation.ok).toBe(false);
    expect(annotation.problems[0]).toMatch(/^1 change since the released 1\.0\.0 need at least a patch bump/);
    expect(annotation.summary).toContain("0 breaking, 0 non-breaking, 1 annotation; needs a patch bump, has none");
    await notes.version("1.0.1");
    await notes.current(applyPatch(baseContract(), [{ set: "/info/description", value: "Now described." }]));
    const patched = await notes.run();
    expect(patched.ok, text(patched)).toBe(true);
    expect(patched.summary).toContain("has patch (version 1.0.1)");
  });

  it("fails when info.version is not the package version, naming both", async () => {
    const repo = await released();
    await repo.current(baseContract(), "1.0.1");
    const result = await repo.run();
    expect(result.ok).toBe(false);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toBe(
      'generated/openapi.json: info.version is "1.0.1", but package.json\'s version is 1.0.0; the package version is ' +
        "the one source: " +
        "`npm run release:version` sets info.version in openapi/openapi.yaml (or set it by hand), then `npm run build`",
    );
    // A bundle without info at all: the problem says so instead of failing to read it.
    await writeFile(
      path.join(repo.dir, "generated", "openapi.json"),
      JSON.stringify({ ...baseContract(), info: undefined }),
    );
    expect((await repo.run()).problems[0]).toMatch(
      /^generated\/openapi\.json: info\.version is undefined, but package\.json's version is 1\.0\.0; /,
    );
  });

  it("fails without a released bundle, with a hand-edited one, and with a version below it", async () => {
    const repo = await checkout();
    open.push(repo);
    await repo.current(baseContract());
    const missing = await repo.run();
    expect(missing.ok).toBe(false);
    expect(missing.problems).toEqual([
      "generated/released/openapi.json is missing: the gate compares the contract with the bundle of the last " +
        "release, which `npm run release:publish` writes (RELEASING.md)",
    ]);
    expect(missing.summary).toBe("check:breaking: nothing to compare with");
    expect(missing).toMatchObject({
      releasedVersion: undefined,
      changes: [],
      required: "none",
      granted: "none",
      grantedBy: [],
    });

    const edited = await released();
    const file = path.join(edited.dir, "generated", "released", "openapi.json");
    await writeFile(file, (await readFile(file, "utf8")).replace('"maxLength": 100', '"maxLength": 150'));
    const hand = await edited.run();
    expect(hand.ok).toBe(false);
    expect(hand.problems).toEqual([expect.stringContaining("edited by hand")]);
    expect(hand.summary).toBe("check:breaking: the released bundle cannot be read");

    const older = await released("1.2.0");
    await older.version("1.1.0");
    await older.current(baseContract());
    const below = await older.run();
    expect(below.ok).toBe(false);
    expect(below.problems).toEqual(["package.json's version 1.1.0 is below the released 1.2.0"]);
  });

  it("reads a prerelease's numbers by value: 2.0.0-next.10 is above the released 2.0.0-next.9", async () => {
    const repo = await released("2.0.0-next.9");
    await repo.version("2.0.0-next.10");
    await repo.current(baseContract());
    const result = await repo.run();
    expect(result.ok, text(result)).toBe(true);
    expect(result.summary).toBe(
      "check:breaking: released 2.0.0-next.9 → 2.0.0-next.10: 0 breaking, 0 non-breaking, 0 annotations; " +
        "needs no bump, has patch (version 2.0.0-next.10)",
    );
    await repo.version("2.0.0-next.8");
    await repo.current(baseContract());
    expect((await repo.run()).problems).toEqual([
      "package.json's version 2.0.0-next.8 is below the released 2.0.0-next.9",
    ]);
  });

  it("names every changeset it read and grants the biggest bump, by the version and changesets together", async () => {
    const repo = await released();
    await repo.current(applyPatch(baseContract(), removeNote));
    await repo.changeset("a.md", changeset("minor", "One."));
    await repo.changeset("b.md", changeset("patch", "Two."));
    await repo.changeset("c.md", changeset("none", "Three."));
    const failed = await repo.run();
    expect(failed.problems[0]).toContain(
      "nor a pending changeset (.changeset/a.md: minor, .changeset/b.md: patch, .changeset/c.md: none) gives one:",
    );
    expect(failed.summary).toBe(
      "check:breaking: released 1.0.0 → 1.0.0: 2 breaking, 0 non-breaking, 0 annotations; needs a major bump, has " +
        "minor (.changeset/a.md)",
    );
    await repo.version("1.0.1");
    await repo.current(applyPatch(baseContract(), removeNote));
    const both = await repo.run();
    expect(both.grantedBy).toEqual(["version 1.0.1", ".changeset/a.md"]);
    expect(both.summary).toContain("has minor (version 1.0.1, .changeset/a.md)");

    const quiet = await released();
    await quiet.version("1.0.1");
    await quiet.current(baseContract());
    await quiet.changeset("c.md", changeset("none", "Three."));
    const none = await quiet.run();
    expect(none.ok, text(none)).toBe(true);
    expect(none.grantedBy).toEqual(["version 1.0.1"]);
    expect(none.summary).toBe(
      "check:breaking: released 1.0.0 → 1.0.1: 0 breaking, 0 non-breaking, 0 annotations; needs no bump, has patch " +
        "(version 1.0.1)",
    );
  });

  it("counts non-breaking changes in its summary", async () => {
    const repo = await released();
    await repo.current(
      applyPatch(baseContract(), [{ set: "/components/schemas/Item/properties/color", value: { type: "string" } }]),
    );
    expect((await repo.run()).summary).toContain(
      "0 breaking, 2 non-breaking, 0 annotations; needs a minor bump, has none",
    );
  });

  it("reports a released bundle it cannot read for another reason than its absence", async () => {
    const repo = await released();
    const file = path.join(repo.dir, "generated", "released", "openapi.json");
    await rm(file);
    await mkdir(file);
    await expect(repo.run()).rejects.toThrow(/EISDIR/);
  });

  it("names a pending changeset whose frontmatter is broken, and still compares", async () => {
    const repo = await released();
    await repo.changeset("bad.md", "no frontmatter\n");
    const result = await repo.run();
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([expect.stringMatching(/^\.changeset\/bad\.md: no frontmatter/)]);
    expect(result.summary).toContain("released 1.0.0 → 1.0.0: 0 breaking");
    // With a change to grant as well: no changeset counts (the broken one is not read as one).
    await repo.current(applyPatch(baseContract(), removeNote));
    const both = await repo.run();
    expect(both.problems[1]).toMatch(
      new RegExp(
        "^2 breaking changes since the released 1\\.0\\.0 need a major version; " +
          "neither the version \\(1\\.0\\.0, released 1\\.0\\.0\\) nor a pending changeset gives one:\n",
      ),
    );
  });
});

// The command line around runGate: exit code, problems on stderr, the breaking lines and summary on stdout.
describe("check:breaking, the command", () => {
  it("exits 1 with the problems and summary on stderr; on a pass 0, with the breaking lines on stdout", async () => {
    const repo = await released();
    await repo.current(applyPatch(baseContract(), removeNote));
    const failed = await repo.gate();
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("check:breaking: 2 breaking changes since the released 1.0.0 need a major version");
    expect(failed.stderr).toContain(REMOVED_LINE);
    expect(failed.stderr).toContain("check:breaking: released 1.0.0 → 1.0.0: 2 breaking");
    await repo.changeset("drop-note.md", changeset("major", "Item: note removed."));
    const passed = await repo.gate();
    expect(passed.code, passed.stderr).toBe(0);
    expect(passed.stdout).toContain(`  ${REMOVED_LINE}`);
    expect(passed.stdout).toContain("needs a major bump, has major (.changeset/drop-note.md)");
  });

  it("prints its result as JSON with --json", async () => {
    const repo = await released();
    await repo.current(applyPatch(baseContract(), removeNote));
    const run = await repo.gate(["--json"]);
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as GateResult;
    expect(result).toMatchObject({
      ok: false,
      required: "major",
      granted: "none",
      version: "1.0.0",
      releasedVersion: "1.0.0",
    });
    expect(result.changes[0]).toMatchObject({
      kind: "breaking",
      rule: "response-field-removed",
      operation: { method: "GET", path: "/items/{id}", operationId: "getItem" },
      location: "response 200 body",
      field: "data.note",
    });
  });
});
