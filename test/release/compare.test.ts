// The classifier (scripts/release/compare.ts), one small fixture per kind of change (fixtures/changes/):
// each names the verdict (breaking, non-breaking, annotation), the rule, the operation and place, the
// field path and every line the gate prints for it, and the bump the change needs follows from the verdict.
import { describe, expect, it } from "vitest";
import { CHANGE_RULES, compareContracts, formatChange, summarizeChanges } from "../../scripts/release/compare.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";
import { applyPatch, baseContract, changeFixtures, expectChangeFixture, withCopiesOfGetItem } from "./support.js";

const fixtures = changeFixtures();

describe("compareContracts: one fixture per kind of change", () => {
  it.each(fixtures.map((f) => [f.name, f] as const))("%s", (_, fixture) => expectChangeFixture(fixture));

  it("has a fixture for every rule the comparer knows", () => {
    const covered = new Set(fixtures.flatMap((f) => [f.rule, ...(f.rules ?? [])]));
    expect(CHANGE_RULES.filter((rule) => !covered.has(rule))).toEqual([]);
  });

  it("finds nothing between a contract and itself, whatever its notices and version", () => {
    const doc = baseContract();
    expect(compareContracts(doc, structuredClone(doc))).toEqual([]);
    expect(compareContracts(doc, { ...doc, "x-generated": "notice", info: { ...doc.info, version: "2.0.0" } })).toEqual(
      [],
    );
    const { info: _info, ...noInfo } = doc;
    expect(compareContracts(noInfo as OpenApiDocument, structuredClone(noInfo) as OpenApiDocument)).toEqual([]);
  });

  it("reads the schemes of one requirement in any order as the same requirement", () => {
    const before = applyPatch(baseContract(), [
      { set: "/components/securitySchemes/Bearer", value: { type: "http", scheme: "bearer" } },
      { set: "/paths/~1items~1{id}/get/security", value: [{ ApiKey: [], Bearer: [] }] },
    ]);
    expect(
      compareContracts(
        before,
        applyPatch(before, [{ set: "/paths/~1items~1{id}/get/security", value: [{ Bearer: [], ApiKey: [] }] }]),
      ),
    ).toEqual([]);
  });

  it("gives each change its place apart from the message (what --json prints)", () => {
    const before = applyPatch(baseContract(), [{ set: "/paths/~1items~1{id}/get/security", value: [] }]);
    const after = applyPatch(before, [
      { set: "/paths/~1items~1{id}/get/operationId", value: "fetchItem" },
      { remove: "/paths/~1items~1{id}/get/security" },
      { remove: "/paths/~1items~1{id}/get/responses/404" },
      { set: "/paths/~1items/post/requestBody/required", value: false },
      { remove: "/paths/~1items~1{id}/get/responses/200/headers/X-RateLimit-Remaining" },
    ]);
    expect(compareContracts(before, after).map((c) => `${c.rule} @ ${c.location}`)).toEqual([
      "operation-id-renamed @ operationId",
      "security-requirement-added @ security",
      "response-header-removed @ response 200 header x-ratelimit-remaining",
      "response-status-removed @ response 404",
      "request-body-made-optional @ request body",
    ]);
    const placesIn = (...names: string[]) =>
      fixtures
        .filter((f) => names.includes(f.name))
        .flatMap((f) => {
          const from = applyPatch(baseContract(), f.before);
          return compareContracts(from, applyPatch(from, f.after)).map((c) => `${c.rule} @ ${c.location}`);
        });
    expect(
      placesIn(
        "request-body-removed",
        "required-request-body-added",
        "request-body-added",
        "request-body-made-required",
      ),
    ).toEqual([
      "request-body-added @ request body",
      "request-body-made-required @ request body",
      "request-body-removed @ request body",
      "required-request-body-added @ request body",
    ]);
    expect(placesIn("response-header-added", "response-status-added")).toEqual([
      "response-header-added @ response 200 header x-ratelimit-remaining",
      "response-status-added @ response 410",
    ]);
  });

  it("groups a removed status across operations under response *, and a change at a map's root by its own name", () => {
    const before = applyPatch(baseContract(), [
      { set: "/paths/~1items/post/responses/404", value: { description: "No such item." } },
      { set: "/components/schemas/ErrorBody", value: { type: "object", additionalProperties: { type: "string" } } },
    ]);
    const after = applyPatch(before, [
      { remove: "/paths/~1items/post/responses/404" },
      { remove: "/paths/~1items~1{id}/get/responses/404" },
    ]);
    expect(summarizeChanges(compareContracts(before, after))).toEqual([
      "BREAKING  response-status-removed  response * removed — 2 places: getItem, createItem",
    ]);
    const mapChanged = applyPatch(before, [
      { set: "/components/schemas/ErrorBody/additionalProperties/type", value: "integer" },
    ]);
    expect(summarizeChanges(compareContracts(before, mapChanged))).toEqual([
      "BREAKING  response-type-changed  GET /items/{id} (getItem), response 404 body: {*} changed type from string " +
        "to integer",
    ]);
  });

  it("lists breaking changes first, whatever order the comparer met them in", () => {
    const before = baseContract();
    const after = applyPatch(before, [
      {
        set: "/paths/~1items~1{id}/get/parameters/3",
        value: { name: "locale", in: "query", schema: { type: "string" } },
      },
      { remove: "/paths/~1items/post/requestBody" },
    ]);
    expect(compareContracts(before, after).map(formatChange)).toEqual([
      "BREAKING  request-body-removed  POST /items (createItem): request body removed",
      "NON-BREAKING  parameter-added  GET /items/{id} (getItem): optional query parameter locale added",
    ]);
    // Two different changes are two groups.
    expect(summarizeChanges(compareContracts(before, after))).toHaveLength(2);
  });

  it("names at most three places of a group, then how many operations it has", () => {
    const three = withCopiesOfGetItem(baseContract(), 1);
    expect(
      summarizeChanges(
        compareContracts(three, applyPatch(three, [{ remove: "/components/schemas/Item/properties/note" }])),
      ),
    ).toEqual([
      "BREAKING  response-field-removed  response * body: field note removed — 3 places: getItem, createItem, " +
        "getCopy1",
    ]);
    const before = withCopiesOfGetItem(baseContract(), 3);
    const after = applyPatch(before, [{ remove: "/components/schemas/Item/properties/note" }]);
    expect(summarizeChanges(compareContracts(before, after))).toEqual([
      "BREAKING  response-field-removed  response * body: field note removed — 5 places: getItem, createItem, " +
        "getCopy1, … (5 operations)",
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

describe("what the comparer reads of a schema (src/openapi: schemaTypes, closedValues, schemaView)", () => {
  /** The distinct rules and fields of the changes a patch of Item's `labels` property makes. */
  const labelsChange = (before: unknown, after: unknown) => {
    const was = applyPatch(baseContract(), [{ set: "/components/schemas/Item/properties/labels", value: before }]);
    const now = applyPatch(was, [{ set: "/components/schemas/Item/properties/labels", value: after }]);
    return [...new Set(compareContracts(was, now).map((c) => `${c.kind} ${c.rule} ${c.field ?? ""}`.trim()))];
  };

  it("names the type of a const without a type: an array is an array, not an object", () => {
    expect(labelsChange({ const: [1] }, { const: "x" })).toEqual([
      "breaking response-type-changed data.labels",
      "breaking response-enum-value-added data.labels",
      "non-breaking response-enum-value-removed data.labels",
    ]);
    const [line] = compareContracts(
      applyPatch(baseContract(), [{ set: "/components/schemas/Item/properties/labels", value: { const: [1] } }]),
      applyPatch(baseContract(), [{ set: "/components/schemas/Item/properties/labels", value: { const: "x" } }]),
    ).map(formatChange);
    expect(line).toContain("data.labels changed type from array to string");
  });

  it("keeps a field's own type when an anyOf branch allows any type", () => {
    const branches = [{ minLength: 1 }, { type: "null" }];
    expect(labelsChange({ type: "string", anyOf: branches }, { type: "integer", anyOf: branches })).toEqual([
      "breaking response-type-changed data.labels",
    ]);
  });

  it("reads additionalProperties {} as true (no values described to compare), patternProperties as a map", () => {
    expect(
      labelsChange(
        { type: "object", additionalProperties: {} },
        { type: "object", additionalProperties: { type: "string" } },
      ),
    ).toEqual(["annotation annotation"]);
    const map = (type: string) => ({ type: "object", patternProperties: { "^x-": { type } } });
    expect(labelsChange(map("string"), map("integer"))).toEqual(["breaking response-type-changed data.labels{*}"]);
  });
});
