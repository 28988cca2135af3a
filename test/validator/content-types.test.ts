// The Content-Type of a response: a body only where the spec documents one, a documented media type (named in the
// message when it is missing), a documented media type without a schema taking any body, and what counts as JSON.
import { describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import { isJsonMediaType } from "../../src/openapi/document.js";
import { sharedValidator } from "../support/spec.js";
import { plainGet, successOf } from "./support/examples.js";
import { checkMediaTypes } from "./support/fixtures.js";

describe("content types", () => {
  it("reports an undocumented or missing content type", () => {
    const op = plainGet();
    const success = successOf(op);
    const base = { method: op.method, path: op.path, status: success.status, body: success.examples[0]!.value };
    const validator = sharedValidator();
    const html = validator.validateResponse({ ...base, headers: { ...success.headers, "content-type": "text/html" } });
    expect(html.violations.map((v) => v.kind)).toEqual(["undocumented-content-type"]);
    const { "content-type": _omitted, ...noType } = success.headers;
    const missing = validator.validateResponse({ ...base, headers: noType });
    expect(missing.violations.map((v) => v.kind)).toEqual(["undocumented-content-type"]);
  });

  it("a body where the spec documents none, as text or as a value; none without one", () => {
    const expected = {
      kind: "undocumented-content-type",
      location: "headers",
      pointer: "/content-type",
      message: "GET /a 204: the spec documents no body, but the response has one",
    };
    expect(checkMediaTypes(204, { bodyText: "x" }).violations).toEqual([expected]);
    expect(checkMediaTypes(204, { body: {} }).violations).toEqual([expected]);
    expect(checkMediaTypes(204, { bodyText: "" }).violations).toEqual([]);
    expect(checkMediaTypes(204, {}).violations).toEqual([]);
  });

  it("a missing Content-Type names every documented one", () => {
    expect(checkMediaTypes(200, { bodyText: '{"n":1}' }).violations).toEqual([
      {
        kind: "undocumented-content-type",
        location: "headers",
        pointer: "/content-type",
        message: "GET /a 200: Content-Type is missing (documented: application/json, text/plain, text/csv)",
      },
    ]);
  });

  it("an undocumented content type names itself and every documented one", () => {
    expect(checkMediaTypes(200, { headers: { "content-type": "Text/HTML; charset=utf-8" }, bodyText: "<p>" })).toEqual({
      ok: false,
      operation: { operationId: undefined, method: "GET", path: "/a" },
      responseKey: "200",
      violations: [
        {
          kind: "undocumented-content-type",
          location: "headers",
          pointer: "/content-type",
          message:
            "GET /a 200: content type text/html is not documented (documented: application/json, text/plain, text/csv)",
        },
      ],
      warnings: [],
    });
  });

  it("a documented media type without a schema takes any body", () => {
    expect(checkMediaTypes(200, { headers: { "content-type": "text/csv" }, bodyText: "a,b" }).violations).toEqual([]);
  });

  it("isJsonMediaType: application/json and type/subtype+json, nothing around them", () => {
    expect(isJsonMediaType("application/json")).toBe(true);
    expect(isJsonMediaType("application/problem+json")).toBe(true);
    expect(isJsonMediaType("foo bar/baz+json")).toBe(false);
    expect(isJsonMediaType("application/a+jsonx")).toBe(false);
    expect(isJsonMediaType("application/jsonp")).toBe(false);
  });
});

describe("media-type ranges", () => {
  // A response documented for `text/*` and `*/*`: the exact type wins, then the type's range, then the catch-all;
  // the schema of the entry that matched judges the body.
  const rangesValidator = createContractValidator({
    openapi: "3.1.0",
    info: { title: "ranges", version: "1" },
    paths: {
      "/r": {
        get: {
          responses: {
            "200": {
              description: "ok",
              content: {
                "TEXT/*": { schema: { type: "string", maxLength: 3 } },
                "*/*": { schema: { type: "string", maxLength: 1 } },
                "text/csv": { schema: { type: "string", maxLength: 5 } },
              },
            },
          },
        },
      },
    },
  });
  const check = (contentType: string, bodyText: string) =>
    rangesValidator
      .validateResponse({ method: "GET", path: "/r", status: 200, headers: { "content-type": contentType }, bodyText })
      .violations.map((v) => v.kind);

  it("takes the exact type, then its range (any case), then the catch-all, each with its own schema", () => {
    expect(check("text/csv", "12345")).toEqual([]);
    expect(check("text/plain", "abc")).toEqual([]);
    expect(check("text/plain", "abcd")).toEqual(["body-schema"]);
    expect(check("image/png", "a")).toEqual([]);
    expect(check("image/png", "ab")).toEqual(["body-schema"]);
  });
});
