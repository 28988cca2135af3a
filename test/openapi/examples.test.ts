// The examples of a media type or parameter (src/openapi): named examples in order ($refs followed), and the
// first example a holder gives, down to its schema's example, const or enum.
import { describe, expect, it } from "vitest";
import { firstExample, namedExamples, type OpenApiDocument } from "../../src/openapi/index.js";

const doc = (fields: Partial<OpenApiDocument>): OpenApiDocument => ({ openapi: "3.1.0", ...fields });

describe("examples", () => {
  it("namedExamples: named ones in order ($refs followed, those without a value skipped), then `example`", () => {
    const document = doc({ components: { examples: { shared: { value: { n: 2 } } } } });
    expect(
      namedExamples(document, {
        examples: {
          first: { value: 1 },
          shared: { $ref: "#/components/examples/shared" },
          external: { externalValue: "x.json" },
        },
        example: "last",
      }),
    ).toEqual([
      { name: "first", value: 1 },
      { name: "shared", value: { n: 2 } },
      { name: "example", value: "last" },
    ]);
    expect(namedExamples(document, { example: undefined })).toEqual([{ name: "example", value: undefined }]);
    expect(namedExamples(document, "no holder")).toEqual([]);
  });

  it("firstExample: example, first named example, the schema's example, examples[0], const, enum[0]; else none", () => {
    const document = doc({ components: { schemas: { Kind: { enum: ["a", "b"] } } } });
    const first = (holder: unknown) => firstExample(document, holder);
    expect(first({ example: 0, examples: { n: { value: 1 } }, schema: { example: 2 } })).toEqual({
      found: true,
      value: 0,
    });
    expect(first({ examples: { n: { value: 1 } }, schema: { example: 2 } })).toEqual({ found: true, value: 1 });
    expect(first({ schema: { example: 2, examples: [3], const: 4, enum: [5] } })).toEqual({ found: true, value: 2 });
    expect(first({ schema: { examples: [3], const: 4, enum: [5] } })).toEqual({ found: true, value: 3 });
    expect(first({ schema: { examples: [], const: null, enum: [5] } })).toEqual({ found: true, value: null });
    expect(first({ schema: { examples: [], enum: [5] } })).toEqual({ found: true, value: 5 });
    expect(first({ schema: { $ref: "#/components/schemas/Kind" } })).toEqual({ found: true, value: "a" });
    expect(first({ schema: { enum: [] } })).toEqual({ found: false });
    expect(first({ schema: { type: "string" } })).toEqual({ found: false });
    expect(first({})).toEqual({ found: false });
    expect(first(null)).toEqual({ found: false });
  });
});
