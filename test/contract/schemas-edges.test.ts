// Edges of the validator's schema side that survived mutation (see MUTATION.md): the quick date-time check on
// dates and times just outside their ranges (it must never accept one; the full check decides), the JSON media
// types, header lookups without headers or with both spellings, additional-property messages, and what strict
// mode calls undocumented inside arrays, maps, unions and values that are not objects.
import { fullFormats } from "ajv-formats/dist/formats.js";
import { describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import { isCanonicalDateTime } from "../../src/contract/schemas.js";
import { findUndocumentedFields } from "../../src/contract/undocumented.js";
import { isJsonMediaType } from "../../src/openapi/document.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";

const ajvDateTime = (fullFormats["date-time"] as { validate: (s: string) => boolean }).validate;

describe("the quick date-time check", () => {
  it.each([
    ["2026-11-22T10:00:24.907Z", true],
    ["2026-11-22T10:00:24z", true],
    ["2026-11-22T23:59:59+23:59", true],
    ["2026-11-22T10:00:24-00:00", true],
    ["2024-02-29T00:00:00Z", true], // leap year
    ["2000-02-29T00:00:00Z", true], // divisible by 400
    ["2026-01-31T00:00:00Z", true],
    ["2026-12-31T00:00:00Z", true],
    ["1900-02-29T00:00:00Z", false], // divisible by 100, not by 400
    ["2026-02-29T00:00:00Z", false],
    ["2026-04-31T00:00:00Z", false],
    ["2026-13-01T00:00:00Z", false],
    ["2026-00-10T00:00:00Z", false],
    ["2026-01-00T00:00:00Z", false],
    ["2026-01-32T00:00:00Z", false],
    ["2026-01-01T24:00:00Z", false],
    ["2026-01-01T00:60:00Z", false],
    ["2026-01-01T00:00:60Z", false],
    ["2026-01-01T00:00:00+24:00", false],
    ["2026-01-01T00:00:00+00:60", false],
  ])("%s: %s, as ajv-formats says", (text, expected) => {
    expect(isCanonicalDateTime(text)).toBe(expected);
    expect(ajvDateTime(text)).toBe(expected);
  });

  it("the validator accepts only real date-times in a date-time field, quick check or not", () => {
    const spec = {
      openapi: "3.1.0",
      paths: {
        "/t": {
          get: {
            responses: {
              "200": {
                description: "ok",
                content: {
                  "application/json": {
                    schema: {
                      type: "object",
                      properties: { at: { type: "string", format: "date-time" } },
                      additionalProperties: false,
                    },
                  },
                },
              },
            },
          },
        },
      },
    } as OpenApiDocument;
    const validator = createContractValidator(spec);
    const problems = (body: unknown) =>
      validator
        .validateResponse({
          method: "GET",
          path: "/t",
          status: 200,
          headers: { "content-type": "application/json" },
          body,
        })
        .violations.map((v) => `${v.pointer} ${v.message}`);
    expect(problems({ at: "2026-11-22T10:00:24.907Z" })).toEqual([]);
    expect(problems({ at: "2026-11-22t10:00:24Z" })).toEqual([]); // not canonical, still valid: the full check says so
    expect(problems({ at: "2026-13-22T10:00:24Z" })).toEqual(['/at GET /t 200: /at must match format "date-time"']);
    expect(problems({ at: "yesterday" })).toEqual(['/at GET /t 200: /at must match format "date-time"']);
    expect(problems({ at: "2026-11-22T10:00:24Z", extra: 1 })).toEqual([
      "/extra GET /t 200: /extra is not allowed (additional property)",
    ]);
  });
});

describe("media types and headers", () => {
  it("isJsonMediaType: application/json and type/subtype+json, nothing around them", () => {
    expect(isJsonMediaType("application/json")).toBe(true);
    expect(isJsonMediaType("application/problem+json")).toBe(true);
    expect(isJsonMediaType("foo bar/baz+json")).toBe(false);
    expect(isJsonMediaType("application/a+jsonx")).toBe(false);
    expect(isJsonMediaType("application/jsonp")).toBe(false);
  });

  const spec = {
    openapi: "3.1.0",
    paths: {
      "/h": {
        get: {
          responses: {
            "200": {
              description: "ok",
              headers: { "X-Count": { required: true, schema: { type: "integer" } } },
              content: { "application/json": { schema: { type: "object" } } },
            },
          },
        },
      },
    },
  } as OpenApiDocument;
  const validator = createContractValidator(spec);

  it("no headers at all: the required one is missing, the content type too", () => {
    expect(
      validator.validateResponse({ method: "GET", path: "/h", status: 200, body: {} }).violations.map((v) => v.kind),
    ).toEqual(["missing-header", "undocumented-content-type"]);
  });

  it("a plain map with both spellings: the lower-case name is read first; a content type with spaces before its parameters", () => {
    const result = validator.validateResponse({
      method: "GET",
      path: "/h",
      status: 200,
      headers: { "x-count": "2", "X-Count": "not a number", "Content-Type": "Application/JSON ; charset=utf-8" },
      bodyText: "{}",
    });
    expect(result.violations).toEqual([]);
  });
});

describe("undocumented fields (strict mode)", () => {
  const document = {
    openapi: "3.1.0",
    components: {
      schemas: {
        A: { type: "object", properties: { a: { type: "string" } } },
        B: { type: "object", properties: { b: { type: "string" } } },
      },
    },
  } as OpenApiDocument;
  const find = (schema: unknown, data: unknown) => findUndocumentedFields(document, schema, data).map((w) => w.pointer);

  it("walks array items, map values and every branch of a union; says nothing about undescribed or non-object values", () => {
    expect(find({ type: "array", items: { $ref: "#/components/schemas/A" } }, [{ a: "1" }, { a: "2", z: 1 }])).toEqual([
      "/1/z",
    ]);
    expect(find({ type: "array" }, [{ z: 1 }])).toEqual([]);
    expect(
      find(
        { type: "object", additionalProperties: { $ref: "#/components/schemas/A" } },
        { k1: { a: "x" }, k2: { y: 1 } },
      ),
    ).toEqual(["/k2/y"]);
    expect(
      find(
        { oneOf: [{ $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/B" }] },
        { a: "1", b: "2", c: 3 },
      ),
    ).toEqual(["/c"]);
    expect(find({ type: "object" }, { anything: { goes: 1 } })).toEqual([]);
    expect(find({ $ref: "#/components/schemas/A" }, "text")).toEqual([]);
    expect(find({ $ref: "#/components/schemas/A" }, null)).toEqual([]);
    expect(findUndocumentedFields(document, { $ref: "#/components/schemas/A" }, { z: 1 }, "/data")).toEqual([
      {
        kind: "undocumented-field",
        location: "body",
        pointer: "/data/z",
        message: "/data/z is not documented by the spec",
      },
    ]);
  });
});
