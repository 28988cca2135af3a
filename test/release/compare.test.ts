// The classifier (scripts/release/compare.ts), one small fixture per kind of change (fixtures/changes/):
// each names the verdict (breaking, non-breaking, annotation), the rule, the operation and place, the
// field path and every line the gate prints for it, and the bump the change needs follows from the verdict.
import { describe, expect, it } from "vitest";
import { CHANGE_RULES, compareContracts, formatChange, summarizeChanges } from "../../scripts/release/compare.js";
import { requiredBump } from "../../scripts/release/versions.js";
import { applyPatch, baseContract, changeFixtures } from "./support.js";

const BUMP = { breaking: "major", "non-breaking": "minor", annotation: "patch" } as const;
const fixtures = changeFixtures();

describe("compareContracts: one fixture per kind of change", () => {
  it.each(fixtures.map((f) => [f.name, f] as const))("%s", (_, fixture) => {
    const before = applyPatch(baseContract(), fixture.before);
    const after = applyPatch(before, fixture.after);
    const changes = compareContracts(before, after);
    expect([...new Set(changes.map((c) => c.rule))].sort(), changes.map(formatChange).join("\n")).toEqual(
      [...(fixture.rules ?? [fixture.rule])].sort(),
    );
    const change = changes.find((c) => c.rule === fixture.rule && c.where === fixture.where);
    expect(change, `no ${fixture.rule} at ${fixture.where} in:\n${changes.map(formatChange).join("\n")}`).toBeDefined();
    expect(change?.kind).toBe(fixture.verdict);
    if (fixture.field !== undefined) expect(change?.field).toBe(fixture.field);
    // The line names the kind, the rule, the operation and the field.
    const line = formatChange(change!);
    expect(line).toContain(fixture.verdict.toUpperCase());
    expect(line).toContain(fixture.where);
    if (fixture.field) expect(line).toContain(fixture.field);
    expect(requiredBump(changes)).toBe(BUMP[fixture.verdict]);
    expect(changes.map(formatChange)).toEqual(fixture.lines);
  });

  it("has a fixture for every rule the comparer knows", () => {
    const covered = new Set(fixtures.flatMap((f) => [f.rule, ...(f.rules ?? [])]));
    expect(CHANGE_RULES.filter((rule) => !covered.has(rule))).toEqual([]);
  });

  it("finds nothing between a contract and itself, whatever its notices and version", () => {
    const doc = baseContract();
    expect(compareContracts(doc, structuredClone(doc))).toEqual([]);
    expect(compareContracts(doc, { ...doc, "x-generated": "notice", info: { ...doc.info, version: "2.0.0" } })).toEqual([]);
  });

  it("lists breaking changes first, whatever order the comparer met them in", () => {
    const before = baseContract();
    const after = applyPatch(before, [
      { set: "/paths/~1items~1{id}/get/parameters/3", value: { name: "locale", in: "query", schema: { type: "string" } } },
      { remove: "/paths/~1items/post/requestBody" },
    ]);
    expect(compareContracts(before, after).map(formatChange)).toEqual([
      "BREAKING  request-body-removed  POST /items (createItem): request body removed",
      "NON-BREAKING  parameter-added  GET /items/{id} (getItem): optional query parameter locale added",
    ]);
  });

  it("names at most three places of a group, then how many operations it has", () => {
    const before = baseContract();
    const get = (before.paths?.["/items/{id}"] as { get: unknown }).get;
    for (const n of [1, 2, 3]) before.paths![`/copies/${n}`] = { get: { ...(get as object), operationId: `getCopy${n}` } };
    const after = applyPatch(before, [{ remove: "/components/schemas/Item/properties/note" }]);
    expect(summarizeChanges(compareContracts(before, after))).toEqual([
      "BREAKING  response-field-removed  response * body: field note removed — 5 places: getItem, createItem, getCopy1, … (5 operations)",
    ]);
  });

  it("groups the same change to a shared schema into one line with its places", () => {
    const before = baseContract();
    const after = applyPatch(before, [{ remove: "/components/schemas/Item/properties/note" }]);
    const changes = compareContracts(before, after);
    expect(changes.map(formatChange)).toEqual([
      "BREAKING  response-field-removed  GET /items/{id} (getItem), response 200 body: field data.note removed",
      "BREAKING  response-field-removed  POST /items (createItem), response 200 body: field data.note removed",
    ]);
    expect(summarizeChanges(changes)).toEqual([
      "BREAKING  response-field-removed  response * body: field note removed — 2 places: getItem, createItem",
    ]);
  });
});
