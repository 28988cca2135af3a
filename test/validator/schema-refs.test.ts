// The refs a document's schemas may hold, as the validator compiles them: a ref into a component's inside becomes
// that component's id plus a fragment, other local refs are inlined; recursive non-component, dangling and external
// refs are refused, named.
import { describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import { rewriteSchemaRefs, SCHEMA_ID_BASE } from "../../src/contract/schemas.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";
import { smallSpec } from "./support/fixtures.js";

const spec = smallSpec();

describe("the refs the schemas may hold", () => {
  it("rewrites a ref into a component's inside to its id plus a fragment, and inlines other local refs", () => {
    expect(rewriteSchemaRefs(spec, { items: { $ref: "#/components/schemas/Kinds/properties/k" } })).toEqual({
      items: { $ref: `${SCHEMA_ID_BASE}Kinds#/properties/k` },
    });
    expect(rewriteSchemaRefs(spec, { $ref: "#/components/schemas/Thing" })).toEqual({ $ref: `${SCHEMA_ID_BASE}Thing` });
    expect(rewriteSchemaRefs(spec, { allOf: [{ $ref: "#/components/x-shared/Count", minimum: 1 }] })).toEqual({
      allOf: [{ type: "integer", minimum: 1 }],
    });
    expect(rewriteSchemaRefs(spec, [{ $ref: 5 }, "x"])).toEqual([{ $ref: 5 }, "x"]);
  });

  it("refuses a recursive non-component ref, a dangling one and an external one, naming it", () => {
    const withComponents = (extra: Record<string, unknown>) =>
      ({ ...smallSpec(), components: { ...smallSpec().components, ...extra } }) as OpenApiDocument;
    const loop = withComponents({ "x-loop": { properties: { again: { $ref: "#/components/x-loop" } } } });
    expect(() => rewriteSchemaRefs(loop, { $ref: "#/components/x-loop" })).toThrow(
      /^contract: recursive non-component \$ref #\/components\/x-loop$/,
    );
    expect(() => rewriteSchemaRefs(spec, { $ref: "#/components/nothing" })).toThrow(
      /^contract: unresolvable \$ref #\/components\/nothing$/,
    );
    expect(() => rewriteSchemaRefs(spec, { $ref: "other.json#/x" })).toThrow(
      /^contract: external \$ref other\.json#\/x \(validate a bundled document\)$/,
    );
    const broken = withComponents({ schemas: { Bad: { $ref: "#/components/x-none" } } });
    expect(() => createContractValidator(broken)).toThrow(/^contract: unresolvable \$ref #\/components\/x-none$/);
  });
});
