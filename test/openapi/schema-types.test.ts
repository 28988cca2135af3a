// What a schema says about a value's JSON types and its closed set of values (schemaTypes, closedValues):
// the one reading the release comparer, the verifier's negative cases and the schema walk of the tests share.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  closedValues,
  closedValuesOfSchemas,
  type OpenApiDocument,
  schemaTypes,
  typesOfSchemas,
} from "../../src/openapi/index.js";

const doc = (schemas: Record<string, unknown> = {}): OpenApiDocument => ({
  openapi: "3.1.0",
  components: { schemas },
});
const sorted = (types: Set<string> | undefined) => (types ? [...types].sort() : undefined);

describe("schemaTypes", () => {
  it("is undefined when nothing constrains the type", () => {
    expect(schemaTypes(doc(), {})).toBeUndefined();
    expect(schemaTypes(doc(), { description: "anything", minLength: 1 })).toBeUndefined();
    expect(schemaTypes(doc(), undefined)).toBeUndefined();
  });

  it("reads `type` as a word or a list, and adds integer wherever number is", () => {
    expect(sorted(schemaTypes(doc(), { type: "string" }))).toEqual(["string"]);
    expect(sorted(schemaTypes(doc(), { type: ["string", "null"] }))).toEqual(["null", "string"]);
    expect(sorted(schemaTypes(doc(), { type: "number" }))).toEqual(["integer", "number"]);
    expect(sorted(schemaTypes(doc(), { type: "integer" }))).toEqual(["integer"]);
  });

  it("takes the type of a `const` without a `type` (null, array and object told apart)", () => {
    expect(sorted(schemaTypes(doc(), { const: "x" }))).toEqual(["string"]);
    expect(sorted(schemaTypes(doc(), { const: 3 }))).toEqual(["integer", "number"]);
    expect(sorted(schemaTypes(doc(), { const: null }))).toEqual(["null"]);
    expect(sorted(schemaTypes(doc(), { const: [1] }))).toEqual(["array"]);
    expect(sorted(schemaTypes(doc(), { const: { a: 1 } }))).toEqual(["object"]);
    expect(sorted(schemaTypes(doc(), { type: "string", const: 3 }))).toEqual(["string"]);
  });

  it("intersects allOf parts and follows $refs; an integer part keeps integer from a number part", () => {
    const spec = doc({ Amount: { type: "number" }, Text: { type: ["string", "null"] } });
    expect(
      sorted(schemaTypes(spec, { allOf: [{ $ref: "#/components/schemas/Amount" }, { type: "integer" }] })),
    ).toEqual(["integer"]);
    // The keywords beside a $ref are not read (deref goes to the target), as everywhere in src/openapi.
    expect(sorted(schemaTypes(spec, { $ref: "#/components/schemas/Text", type: "string" }))).toEqual([
      "null",
      "string",
    ]);
    expect(sorted(schemaTypes(spec, { allOf: [{ type: "string" }, { type: "boolean" }] }))).toEqual([]);
  });

  it("lets anyOf/oneOf allow any branch's types, intersected with the schema's own", () => {
    expect(sorted(schemaTypes(doc(), { anyOf: [{ type: "string" }, { type: "null" }] }))).toEqual(["null", "string"]);
    expect(sorted(schemaTypes(doc(), { oneOf: [{ type: "integer" }, { const: true }] }))).toEqual([
      "boolean",
      "integer",
    ]);
    expect(
      sorted(schemaTypes(doc(), { type: ["string", "boolean"], anyOf: [{ type: "string" }, { type: "null" }] })),
    ).toEqual(["string"]);
  });

  it("a branch that allows any type constrains nothing: the schema's own type stays", () => {
    expect(schemaTypes(doc(), { anyOf: [{ type: "string" }, {}] })).toBeUndefined();
    expect(sorted(schemaTypes(doc(), { type: "string", anyOf: [{ minLength: 1 }, { type: "null" }] }))).toEqual([
      "string",
    ]);
  });

  it("stops at 32 levels of nested branches (a recursive schema ends as any type)", () => {
    const spec = doc({ Deep: { anyOf: [{ $ref: "#/components/schemas/Deep" }, { type: "string" }] } });
    expect(schemaTypes(spec, { $ref: "#/components/schemas/Deep" })).toBeUndefined();
    const nested = (levels: number): unknown => (levels === 0 ? { type: "string" } : { anyOf: [nested(levels - 1)] });
    expect(sorted(schemaTypes(doc(), nested(32)))).toEqual(["string"]);
    expect(schemaTypes(doc(), nested(34))).toBeUndefined();
  });

  it("declaredOnly reads the `type` keywords of the allOf parts alone: no const, no anyOf/oneOf branches", () => {
    const declaredOnly = { declaredOnly: true };
    expect(schemaTypes(doc(), { const: "x" }, declaredOnly)).toBeUndefined();
    expect(schemaTypes(doc(), { anyOf: [{ type: "string" }, { type: "null" }] }, declaredOnly)).toBeUndefined();
    const schema = { allOf: [{ type: "number" }, { type: ["integer", "string"], oneOf: [{ type: "string" }] }] };
    expect(sorted(schemaTypes(doc(), schema, declaredOnly))).toEqual(["integer"]);
    expect(sorted(schemaTypes(doc(), schema))).toEqual([]);
  });

  it("typesOfSchemas reads a list already flattened (no allOf followed again)", () => {
    expect(sorted(typesOfSchemas(doc(), [{ type: "number" }, { type: ["integer", "null"] }]))).toEqual(["integer"]);
    expect(typesOfSchemas(doc(), [])).toBeUndefined();
  });

  it("property: the types of a list of `type`s are their intersection, integer kept by number", () => {
    const type = fc.constantFrom("string", "number", "integer", "boolean", "null", "array", "object");
    fc.assert(
      fc.property(fc.array(fc.array(type, { minLength: 1 }), { minLength: 1, maxLength: 4 }), (parts) => {
        const allows = (part: string[], t: string) => part.includes(t) || (t === "integer" && part.includes("number"));
        const expected = ["string", "number", "integer", "boolean", "null", "array", "object"].filter((t) =>
          parts.every((part) => allows(part, t)),
        );
        expect(sorted(schemaTypes(doc(), { allOf: parts.map((part) => ({ type: part })) }))).toEqual(expected.sort());
      }),
    );
  });
});

describe("closedValues", () => {
  it("is an enum, or a const as a list of one; undefined when the values are open", () => {
    expect(closedValues(doc(), { type: "string" })).toBeUndefined();
    expect(closedValues(doc(), { enum: ["USDT", "NGNX"] })).toEqual(["USDT", "NGNX"]);
    expect(closedValues(doc(), { const: null })).toEqual([null]);
    expect(closedValues(doc(), { enum: [] })).toEqual([]);
  });

  it("follows $refs and allOf; the last part that closes the values wins, a const over an enum beside it", () => {
    const spec = doc({ Code: { enum: ["A", "B"] } });
    expect(closedValues(spec, { $ref: "#/components/schemas/Code" })).toEqual(["A", "B"]);
    expect(closedValues(spec, { allOf: [{ $ref: "#/components/schemas/Code" }, { enum: ["C"] }] })).toEqual(["C"]);
    expect(closedValues(spec, { allOf: [{ enum: ["C"] }, { type: "string" }] })).toEqual(["C"]);
    expect(closedValues(spec, { enum: ["A"], const: "B" })).toEqual(["B"]);
    expect(closedValuesOfSchemas([{ const: 1 }, { enum: [2, 3] }])).toEqual([2, 3]);
  });

  it("does not read anyOf/oneOf branches (they do not close the value)", () => {
    expect(closedValues(doc(), { anyOf: [{ const: "a" }, { const: "b" }] })).toBeUndefined();
  });
});
