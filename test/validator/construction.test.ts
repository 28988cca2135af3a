// Making a validator: the bundled document embedded and one validator shared per options; what is not an OpenAPI 3.1
// document refused with its own message; the schema formats the document uses (in paths, in arrays, not in
// examples) checked up front, unknown ones named together.
import { describe, expect, it } from "vitest";
import {
  createBundledContractValidator,
  createContractValidator,
  openApiDocument,
  type OpenApiDocument,
} from "../../src/contract/index.js";
import { loadSpec } from "../support/spec.js";

const documentWith = (schema: unknown, components: Record<string, unknown> = {}): OpenApiDocument => ({
  openapi: "3.1.0",
  paths: {
    "/a": { get: { responses: { "200": { description: "ok", content: { "application/json": { schema } } } } } },
  },
  components: { schemas: components },
});

describe("the bundled validator", () => {
  it("embeds the bundled document and shares one validator", () => {
    expect(openApiDocument).toEqual(loadSpec());
    expect(createBundledContractValidator()).toBe(createBundledContractValidator());
    expect(createBundledContractValidator({ strict: true })).not.toBe(createBundledContractValidator());
  });
});

describe("the documents a validator is made from", () => {
  it("rejects a document that is not OpenAPI 3.1 and a schema format it does not know", () => {
    expect(() => createContractValidator({ openapi: "3.0.3" } as OpenApiDocument)).toThrow(/3\.1/);
    const tiny: OpenApiDocument = {
      openapi: "3.1.0",
      paths: {},
      components: { schemas: { Odd: { type: "string", format: "no-such-format" } } },
    };
    expect(() => createContractValidator(tiny)).toThrow(/no-such-format/);
  });

  it("refuses what is not an OpenAPI 3.1 document with its own message", () => {
    const message = "contract: expected an OpenAPI 3.1 document";
    expect(() => createContractValidator(null as never)).toThrow(message);
    expect(() => createContractValidator({ openapi: 31 } as never)).toThrow(message);
    expect(() => createContractValidator({ openapi: "3.0.3" } as never)).toThrow(message);
  });

  it("refuses unknown formats wherever a schema uses them (paths, arrays), naming them together", () => {
    expect(() => createContractValidator(documentWith({ type: "string", format: "no-such" }))).toThrow(
      "contract: unknown schema format(s): no-such",
    );
    expect(() => createContractValidator(documentWith({ allOf: [{ format: "one" }, { format: "two" }] }))).toThrow(
      "contract: unknown schema format(s): one, two",
    );
  });

  it("does not take a format named inside an example for one the schemas use", () => {
    const withExample = documentWith({
      type: "object",
      example: { format: "no-such" },
      examples: [{ format: "other" }],
    });
    expect(() => createContractValidator(withExample)).not.toThrow();
    // A `format` key whose value is no string is not a format (a property named "format", say).
    expect(() =>
      createContractValidator(documentWith({ type: "object", properties: { format: { type: "string" } } })),
    ).not.toThrow();
  });
});
