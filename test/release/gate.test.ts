// The gate's command line (`npm run check:breaking`, scripts/check-breaking.ts) on throwaway checkouts that
// hold only what it reads: package.json, generated/openapi.json, generated/released/openapi.json, .changeset/.
import { readFile, writeFile } from "node:fs/promises";
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
const REMOVED_LINE = "BREAKING  response-field-removed  GET /items/{id} (getItem), response 200 body: field data.note removed";

describe("check:breaking", () => {
  it("passes when the contract is the released one", async () => {
    const repo = await released();
    const run = await repo.gate();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("check:breaking: released 1.0.0 → 1.0.0: 0 breaking, 0 non-breaking, 0 annotations; needs no bump, has none");
  });

  it("fails on a removed response field with a line naming the field and the operation; a major changeset or a major version lets it pass", async () => {
    const repo = await released();
    await repo.current(applyPatch(baseContract(), removeNote));
    const failed = await repo.gate();
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("2 breaking changes since the released 1.0.0 need a major version");
    expect(failed.stderr).toContain(REMOVED_LINE);
    expect(failed.stderr).toContain("POST /items (createItem), response 200 body: field data.note removed");
    expect(failed.stderr).toContain(`npx changeset add --major ${PACKAGE_NAME}`);

    await repo.changeset("small-note.md", changeset("minor", "Item: note removed."));
    const minor = await repo.gate();
    expect(minor.code).toBe(1);
    expect(minor.stderr).toContain(".changeset/small-note.md: minor");

    await repo.changeset("drop-note.md", changeset("major", "Item: note removed."));
    const major = await repo.gate();
    expect(major.code, major.stderr).toBe(0);
    expect(major.stdout).toContain(REMOVED_LINE);
    expect(major.stdout).toContain("needs a major bump, has major (.changeset/drop-note.md)");

    // After `changeset version`: no changeset left, the version says it.
    const versioned = await checkout("2.0.0");
    open.push(versioned);
    await versioned.released(baseContract(), "1.0.0");
    await versioned.current(applyPatch(baseContract(), removeNote));
    const bumped = await versioned.gate();
    expect(bumped.code, bumped.stderr).toBe(0);
    expect(bumped.stdout).toContain("released 1.0.0 → 2.0.0: 2 breaking");
    expect(bumped.stdout).toContain("has major (version 2.0.0)");
  });

  it("asks for a minor bump for an addition and a patch bump for an annotation", async () => {
    const repo = await released();
    await repo.current(applyPatch(baseContract(), [{ set: "/components/schemas/Item/properties/color", value: { type: "string" } }]));
    const addition = await repo.gate();
    expect(addition.code).toBe(1);
    expect(addition.stderr).toContain("need at least a minor bump");
    expect(addition.stderr).toContain("NON-BREAKING  response-field-added  response * body: field color added — 2 places: getItem, createItem");
    await repo.changeset("color.md", changeset("minor", "Item: color."));
    expect((await repo.gate()).code).toBe(0);

    const notes = await released();
    await notes.current(applyPatch(baseContract(), [{ set: "/info/description", value: "Now described." }]));
    const annotation = await notes.gate();
    expect(annotation.code).toBe(1);
    expect(annotation.stderr).toContain("need at least a patch bump");
    await notes.version("1.0.1");
    await notes.current(applyPatch(baseContract(), [{ set: "/info/description", value: "Now described." }]));
    expect((await notes.gate()).code).toBe(0);
  });

  it("fails when info.version is not the package version, naming both", async () => {
    const repo = await released();
    await repo.current(baseContract(), "1.0.1");
    const run = await repo.gate();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('info.version is "1.0.1", but package.json\'s version is 1.0.0');
  });

  it("fails without a released bundle, with a hand-edited one, and with a version below it", async () => {
    const repo = await checkout();
    open.push(repo);
    await repo.current(baseContract());
    const missing = await repo.gate();
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("generated/released/openapi.json is missing");

    const edited = await released();
    const file = path.join(edited.dir, "generated", "released", "openapi.json");
    await writeFile(file, (await readFile(file, "utf8")).replace('"maxLength": 100', '"maxLength": 150'));
    const hand = await edited.gate();
    expect(hand.code).toBe(1);
    expect(hand.stderr).toContain("edited by hand");

    const older = await released("1.2.0");
    await older.version("1.1.0");
    await older.current(baseContract());
    const below = await older.gate();
    expect(below.code).toBe(1);
    expect(below.stderr).toContain("package.json's version 1.1.0 is below the released 1.2.0");
  });

  it("prints its result as JSON with --json", async () => {
    const repo = await released();
    await repo.current(applyPatch(baseContract(), removeNote));
    const run = await repo.gate(["--json"]);
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as GateResult;
    expect(result).toMatchObject({ ok: false, required: "major", granted: "none", version: "1.0.0", releasedVersion: "1.0.0" });
    expect(result.changes[0]).toMatchObject({
      kind: "breaking",
      rule: "response-field-removed",
      operation: { method: "GET", path: "/items/{id}", operationId: "getItem" },
      location: "response 200 body",
      field: "data.note",
    });
  });
});
