// The operations of a document (src/openapi): the HTTP methods a path item holds, what listOperations
// reads of each operation (security, parameters, responses, path segments), and the success and response
// keys of an operation (successKey, successKeys, isDocumentedSuccess, responseKeyFor).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  HTTP_METHODS,
  isDocumentedSuccess,
  isHttpMethod,
  listOperations,
  type OpenApiDocument,
  responseKeyFor,
  successKey,
  successKeys,
} from "../../src/openapi/index.js";

const ok = { responses: { "200": { description: "ok" } } };
const documentWith = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}): OpenApiDocument =>
  ({ openapi: "3.1.0", paths, ...extra }) as OpenApiDocument;
const keys = (...names: string[]) => ({ responses: Object.fromEntries(names.map((n) => [n, {}])) });

describe("HTTP methods", () => {
  it("HTTP_METHODS are the eight a path item can hold, lower case, in the order listOperations walks", () => {
    expect(HTTP_METHODS).toEqual(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
  });

  it("isHttpMethod: a lower-case method key, not another key of a path item nor an upper-case method", () => {
    for (const method of HTTP_METHODS) expect(isHttpMethod(method), method).toBe(true);
    for (const key of ["parameters", "summary", "description", "servers", "$ref", "GET", "Get", "connect", ""])
      expect(isHttpMethod(key), key).toBe(false);
  });
});

describe("listOperations", () => {
  it("tells required, optional and absent security apart, the document's as the default", () => {
    const document = documentWith(
      {
        "/none": { get: { ...ok, security: [] } },
        "/empty": { get: { ...ok, security: [{}] } },
        "/optional": { get: { ...ok, security: [{ key: [] }, {}] } },
        "/required": { get: { ...ok, security: [{ key: [] }] } },
        "/inherited": { get: ok },
        "/odd": { get: { ...ok, security: {} } },
      },
      { security: [{ key: [] }] },
    );
    expect(Object.fromEntries(listOperations(document).map((o) => [o.path, o.security]))).toEqual({
      "/none": "none",
      "/empty": "none",
      "/optional": "optional",
      "/required": "required",
      "/inherited": "required",
      "/odd": "none",
    });
  });

  it("skips empty path items, parameters and responses; keeps only a string operationId", () => {
    const document = documentWith({
      "/gone": null,
      "/a": {
        get: {
          operationId: 5,
          parameters: [null, { name: "q", in: "query" }],
          responses: { "200": null, "204": { description: "none" } },
        },
      },
    });
    const [operation, ...rest] = listOperations(document);
    expect(rest).toEqual([]);
    expect(operation!.operationId).toBeUndefined();
    expect(operation!.parameters).toEqual([{ name: "q", in: "query" }]);
    expect(Object.keys(operation!.responses)).toEqual(["204"]);
  });

  it("splits a path into literal and parameter segments; a brace inside a segment is literal", () => {
    const document = documentWith({ "/a/{id}/x{y}/{z}w/": { get: ok }, "/": { get: ok } });
    expect(listOperations(document).map((o) => o.segments)).toEqual([
      [{ literal: "a" }, { param: "id" }, { literal: "x{y}" }, { literal: "{z}w" }, { literal: "" }],
      [{ literal: "" }],
    ]);
  });

  it("takes the methods of a path item in HTTP_METHODS order and nothing else, keyed METHOD /path", () => {
    const document = documentWith({ "/a": { summary: "x", parameters: [], post: ok, get: ok, trace: ok } });
    expect(listOperations(document).map((o) => o.key)).toEqual(["GET /a", "POST /a", "TRACE /a"]);
  });
});

describe("success and response keys", () => {
  it("is the lowest key of exactly three digits starting with 2", () => {
    const keys = (...names: string[]) => ({ responses: Object.fromEntries(names.map((n) => [n, {}])) });
    expect(successKey(keys("default", "204", "200"))).toBe("200");
    expect(successKey(keys("1XX", "204"))).toBe("204");
    expect(successKey(keys("1200", "204"))).toBe("204");
    expect(successKey(keys("2000", "204"))).toBe("204");
    expect(successKey(keys("4XX"))).toBeUndefined();
  });

  it("successKeys: the 2xx keys of three digits or the 2XX range in any case (in the object's key order)", () => {
    expect(successKeys(keys("default", "204", "200", "2XX", "2xx", "4XX", "1200", "2000", "20", "301"))).toEqual([
      "200",
      "204",
      "2XX",
      "2xx",
    ]);
    expect(successKeys(keys("4XX", "default"))).toEqual([]);
  });

  it("isDocumentedSuccess: the status itself, or any 200–299 under a 2XX key", () => {
    expect(isDocumentedSuccess(201, ["200", "201"])).toBe(true);
    expect(isDocumentedSuccess(202, ["200", "201"])).toBe(false);
    for (const status of [200, 250, 299]) expect(isDocumentedSuccess(status, ["2XX"]), String(status)).toBe(true);
    expect(isDocumentedSuccess(204, ["2xx"])).toBe(true);
    for (const status of [199, 300, 404]) expect(isDocumentedSuccess(status, ["2XX"]), String(status)).toBe(false);
    expect(isDocumentedSuccess(200, [])).toBe(false);
  });

  it("responseKeyFor: the status, else its range in any case, else default, whatever the keys' order", () => {
    const responses = { default: {}, "4xx": {}, "404": {}, "5XX": {}, "200": {} };
    expect(responseKeyFor(responses, 404)).toBe("404");
    expect(responseKeyFor(responses, 422)).toBe("4xx");
    expect(responseKeyFor(responses, 503)).toBe("5XX");
    expect(responseKeyFor(responses, 200)).toBe("200");
    expect(responseKeyFor(responses, 201)).toBe("default");
    expect(responseKeyFor({ "200": {} }, 201)).toBeUndefined();
    expect(responseKeyFor({}, 200)).toBeUndefined();
    expect(responseKeyFor({ "2XX": {}, "20": {} }, 200)).toBe("2XX");
  });

  it("property: the exact key if documented, else the range in either case, else default, else none", () => {
    const status = fc.integer({ min: 100, max: 599 });
    const key = fc.oneof(status.map(String), fc.constantFrom("1XX", "2XX", "3xx", "4XX", "5xx", "default"));
    fc.assert(
      fc.property(status, fc.uniqueArray(key, { maxLength: 8 }), (code, keys) => {
        const range = keys.find((k) => k.toUpperCase() === `${String(code)[0]}XX`);
        const expected = keys.includes(String(code))
          ? String(code)
          : (range ?? (keys.includes("default") ? "default" : undefined));
        expect(responseKeyFor(Object.fromEntries(keys.map((k) => [k, {}])), code)).toBe(expected);
      }),
    );
  });
});
