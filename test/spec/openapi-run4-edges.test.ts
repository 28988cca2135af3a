// Edges of the one OpenAPI module (src/openapi) from mutation run 4, on fixture documents: pointers that are not
// pointers, security kinds, operations whose parts do not resolve, path segments, the lowest 2xx key, server
// paths, the matcher's base-path fallback and literal-over-template scoring, and the schema walk's depth bound.
import { describe, expect, it } from "vitest";
import {
  listOperations,
  normalizePath,
  type OpenApiDocument,
  OperationMatcher,
  resolvePointer,
  serverPath,
  successKey,
} from "../../src/openapi/index.js";
import { flattenSchema, viewOfSchemas } from "../../src/openapi/schema.js";

const ok = { responses: { "200": { description: "ok" } } };
const documentWith = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}): OpenApiDocument =>
  ({ openapi: "3.1.0", paths, ...extra }) as OpenApiDocument;

describe("resolvePointer", () => {
  it("follows JSON pointers and local refs, and nothing else", () => {
    const document = { a: { b: 1 } };
    expect(resolvePointer(document, "/a/b")).toBe(1);
    expect(resolvePointer(document, "#/a/b")).toBe(1);
    expect(resolvePointer(document, "a/b")).toBeUndefined();
    expect(resolvePointer(document, "other.yaml#/a/b")).toBeUndefined();
    // Not a pointer even where its tail would resolve (the first character is dropped as a pointer's "/").
    expect(resolvePointer({ "": { b: 1 } }, "x/b")).toBeUndefined();
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
});

describe("successKey", () => {
  it("is the lowest key of exactly three digits starting with 2", () => {
    const keys = (...names: string[]) => ({ responses: Object.fromEntries(names.map((n) => [n, {}])) });
    expect(successKey(keys("default", "204", "200"))).toBe("200");
    expect(successKey(keys("1XX", "204"))).toBe("204");
    expect(successKey(keys("1200", "204"))).toBe("204");
    expect(successKey(keys("2000", "204"))).toBe("204");
    expect(successKey(keys("4XX"))).toBeUndefined();
  });
});

describe("paths of servers and requests", () => {
  it("serverPath takes a URL's path without any trailing slash, and a relative URL as it is", () => {
    expect(serverPath({ url: "http://h/v1//" })).toBe("/v1");
    expect(serverPath({ url: "/p/http://h" })).toBe("/p/http://h");
  });

  it("normalizePath parses only a URL that starts with a scheme", () => {
    expect(normalizePath("/a/http://b")).toBe("/a/http://b");
    expect(normalizePath("http://h/a/b?x#y")).toBe("/a/b");
  });
});

describe("OperationMatcher", () => {
  const matcher = (paths: string[], basePaths: string[] = []) =>
    new OperationMatcher(
      listOperations(documentWith(Object.fromEntries(paths.map((p) => [p, { get: ok }])))),
      basePaths,
    );

  it("finds nothing for a path no template fits", () => {
    expect(matcher(["/{id}"]).find("GET", "/a/b")).toBeUndefined();
  });

  it("tries the path with the base path when the path without it fits nothing", () => {
    expect(matcher(["/v1/{id}"], ["/v1"]).find("GET", "/v1/a")?.path).toBe("/v1/{id}");
  });

  it("prefers a literal at the first differing segment, whatever the order; the first on a tie", () => {
    expect(matcher(["/c/me/{y}", "/c/{id}/x"]).find("GET", "/c/me/x")?.path).toBe("/c/me/{y}");
    expect(matcher(["/c/{id}/x", "/c/me/{y}"]).find("GET", "/c/me/x")?.path).toBe("/c/me/{y}");
    expect(matcher(["/t/{a}", "/t/{b}"]).find("GET", "/t/1")?.path).toBe("/t/{a}");
  });
});

describe("schema walk", () => {
  it("flattens allOf down to 64 levels", () => {
    let schema: Record<string, unknown> = { title: "leaf" };
    for (let i = 0; i < 70; i++) schema = { allOf: [schema] };
    expect(flattenSchema(documentWith({}), schema)).toHaveLength(65);
  });

  it("a view is closed by additionalProperties false alone, and has no items without items", () => {
    expect(viewOfSchemas([{ additionalProperties: false }]).closed).toBe(true);
    expect(viewOfSchemas([{ additionalProperties: true }]).closed).toBe(false);
    expect(viewOfSchemas([{ type: "object" }]).items).toEqual([]);
  });
});
