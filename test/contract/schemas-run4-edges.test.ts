// Edges of the validator's schema side (src/contract/schemas.ts) from mutation run 4: the quick date-time check on
// days of long months in leap years and month 00, what ajv-formats alone accepts (a leap second) still accepted,
// every error of a body reported, and the formats a document uses (in paths, in arrays, not in examples) checked
// when a validator is made, unknown ones named together.
import { describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import { isCanonicalDateTime } from "../../src/contract/schemas.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";

const documentWith = (schema: unknown, components: Record<string, unknown> = {}): OpenApiDocument => ({
  openapi: "3.1.0",
  paths: {
    "/a": { get: { responses: { "200": { description: "ok", content: { "application/json": { schema } } } } } },
  },
  components: { schemas: components },
});
const validate = (document: OpenApiDocument, body: unknown) =>
  createContractValidator(document).validateResponse({
    method: "GET",
    path: "/a",
    status: 200,
    headers: new Headers({ "content-type": "application/json" }),
    bodyText: JSON.stringify(body),
  });

describe("the quick date-time check", () => {
  it("takes the 30th and 31st of long months in a leap year, and refuses month 00", () => {
    expect(isCanonicalDateTime("2024-01-30T00:00:00Z")).toBe(true);
    expect(isCanonicalDateTime("2024-03-31T00:00:00Z")).toBe(true);
    expect(isCanonicalDateTime("2020-00-10T00:00:00Z")).toBe(false);
  });

  it("leaves to ajv-formats what it does not take: a leap second is still a valid date-time", () => {
    expect(isCanonicalDateTime("2016-12-31T23:59:60Z")).toBe(false);
    const document = documentWith({ type: "string", format: "date-time" });
    expect(validate(document, "2016-12-31T23:59:60Z").violations).toEqual([]);
    expect(validate(document, "2016-12-31T23:59:61Z").violations).toHaveLength(1);
  });
});

describe("a validator made from a document", () => {
  it("reports every error of a body, not only the first", () => {
    const document = documentWith({ type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } } });
    expect(validate(document, { a: "x", b: "y" }).violations.map((v) => v.pointer)).toEqual(["/a", "/b"]);
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
