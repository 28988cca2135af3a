// Flattening schemas and the view of what they say about an object's keys and an array's items
// (src/openapi: flattenSchema, schemaView, viewOfSchemas): every schema a property has, maps, tuple items,
// closed objects, and the depth bound of flattening.
import { describe, expect, it } from "vitest";
import { flattenSchema, type OpenApiDocument, schemaView, viewOfSchemas } from "../../src/openapi/index.js";

const doc = (fields: Partial<OpenApiDocument>): OpenApiDocument => ({ openapi: "3.1.0", ...fields });
const documentWith = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}): OpenApiDocument =>
  ({ openapi: "3.1.0", paths, ...extra }) as OpenApiDocument;

describe("flattenSchema", () => {
  it("flattens allOf down to 64 levels", () => {
    let schema: Record<string, unknown> = { title: "leaf" };
    for (let i = 0; i < 70; i++) schema = { allOf: [schema] };
    expect(flattenSchema(documentWith({}), schema)).toHaveLength(65);
  });

  it("follows $refs and allOf; anyOf/oneOf branches only in the union view", () => {
    const document = doc({ components: { schemas: { A: { allOf: [{ title: "a1" }] } } } });
    const schema = { allOf: [{ $ref: "#/components/schemas/A" }], anyOf: [{ title: "b" }], oneOf: [{ title: "c" }] };
    expect(flattenSchema(document, schema).map((s) => s.title)).toEqual([undefined, undefined, "a1"]);
    expect(flattenSchema(document, schema, { alternatives: true }).map((s) => s.title)).toEqual([
      undefined,
      undefined,
      "a1",
      "b",
      "c",
    ]);
    expect(flattenSchema(document, true)).toEqual([]);
  });
});

describe("the schema view", () => {
  it("collects every schema a property has, the maps of patternProperties, and tuple items", () => {
    const document = doc({
      components: { schemas: { Base: { type: "object", properties: { id: { type: "string" } } } } },
    });
    const view = schemaView(document, {
      allOf: [
        { $ref: "#/components/schemas/Base" },
        { properties: { id: { minLength: 1 }, n: {} }, patternProperties: { "^x-": { type: "string" } } },
      ],
    });
    expect(view.properties.get("id")).toEqual([{ type: "string" }, { minLength: 1 }]);
    expect([...view.properties.keys()]).toEqual(["id", "n"]);
    expect(view.maps).toEqual([{ type: "string" }]);
    expect(view.describesKeys).toBe(true);
    const patternOnly = viewOfSchemas([{ patternProperties: { a: { type: "integer" }, b: { type: "string" } } }]);
    expect(patternOnly).toMatchObject({
      describesKeys: true,
      maps: [{ type: "integer" }, { type: "string" }],
      closed: false,
    });
    const tuple = viewOfSchemas([
      { prefixItems: [{ type: "string" }, { type: "number" }], items: false },
      { items: { type: "boolean" } },
    ]);
    expect(tuple.items).toEqual([{ type: "string" }, { type: "number" }, { type: "boolean" }]);
    expect(tuple.describesKeys).toBe(false);
    expect(viewOfSchemas([{ additionalProperties: {} }, { unevaluatedProperties: false }])).toMatchObject({
      closed: true,
      maps: [],
      describesKeys: false,
    });
  });

  it("a view is closed by additionalProperties false alone, and has no items without items", () => {
    expect(viewOfSchemas([{ additionalProperties: false }]).closed).toBe(true);
    expect(viewOfSchemas([{ additionalProperties: true }]).closed).toBe(false);
    expect(viewOfSchemas([{ type: "object" }]).items).toEqual([]);
  });
});
