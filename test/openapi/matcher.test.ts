// Finding the operation of a request (src/openapi): normalizing a path, the OperationMatcher's base paths,
// literal-over-template choice and memo, and the path parameters match() returns (percent-decoded; a
// malformed escape kept as sent). A property checks that the parameters rebuild the concrete path.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { listOperations, normalizePath, type OpenApiDocument, OperationMatcher } from "../../src/openapi/index.js";

const doc = (fields: Partial<OpenApiDocument>): OpenApiDocument => ({ openapi: "3.1.0", ...fields });
const ok = { responses: { "200": { description: "ok" } } };
const documentWith = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}): OpenApiDocument =>
  ({ openapi: "3.1.0", paths, ...extra }) as OpenApiDocument;

describe("normalizePath", () => {
  it("normalizePath: no scheme or host, query, fragment or trailing slash; always a leading slash", () => {
    expect(normalizePath("https://api.example.com/v1/things/?a=1#x")).toBe("/v1/things");
    expect(normalizePath("things/1#frag")).toBe("/things/1");
    expect(normalizePath("/")).toBe("/");
    expect(normalizePath("")).toBe("/");
    expect(normalizePath("/a//")).toBe("/a/");
  });

  it("normalizePath parses only a URL that starts with a scheme", () => {
    expect(normalizePath("/a/http://b")).toBe("/a/http://b");
    expect(normalizePath("http://h/a/b?x#y")).toBe("/a/b");
  });
});

describe("OperationMatcher.find", () => {
  it("a base path alone is the root; a literal segment beats a template; an empty segment matches no template", () => {
    const document = doc({
      paths: {
        "/": { get: { operationId: "root", responses: {} } },
        "/things/{id}": { get: { operationId: "thing", responses: {} } },
        "/things/mine": { get: { operationId: "mine", responses: {} } },
        "/things/{id}/parts/{part}": { get: { operationId: "part", responses: {} } },
        "/things/{id}/parts/all": { get: { operationId: "allParts", responses: {} } },
      },
    });
    const matcher = new OperationMatcher(listOperations(document), ["/v1"]);
    const find = (path: string, method = "GET") => matcher.find(method, path)?.operationId ?? null;
    expect(find("/v1")).toBe("root");
    expect(find("/v1/")).toBe("root");
    expect(find("/v10/things/1")).toBeNull();
    expect(find("/v1/things/mine")).toBe("mine");
    expect(find("/v1/things/7")).toBe("thing");
    expect(find("/v1/things/7/parts/all")).toBe("allParts");
    expect(find("/v1/things/mine/parts/2")).toBe("part");
    expect(find("/v1/things//parts/2")).toBeNull();
    expect(find("/v1/things/7/parts/2", "get")).toBe("part");
    expect(find("/v1/things/7", "POST")).toBeNull();
  });

  it("stays right past its memo's bound (2000 paths)", () => {
    const document = doc({
      paths: {
        "/things/{id}": { get: { operationId: "thing", responses: {} } },
        "/other": { get: { operationId: "other", responses: {} } },
      },
    });
    const matcher = new OperationMatcher(listOperations(document), []);
    for (let i = 0; i < 2100; i++) expect(matcher.find("GET", `/things/${i}`)?.operationId).toBe("thing");
    expect(matcher.find("GET", "/other")?.operationId).toBe("other");
    expect(matcher.find("GET", "/nothing")).toBeUndefined();
    expect(matcher.find("GET", "/nothing")).toBeUndefined();
  });
});

describe("OperationMatcher: base paths and literal segments", () => {
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

describe("OperationMatcher.match: path parameters", () => {
  const document = doc({
    paths: {
      "/wallets/{currencyCode}": { get: ok },
      "/wallets/USDT": { get: ok },
      "/things/{id}/parts/{part}": { get: ok, delete: ok },
      "/v1/raw/{id}": { get: ok },
    },
  });
  const matcher = new OperationMatcher(listOperations(document), ["/v1"]);

  it("returns the operation and its parameters by name, with or without the base path, from a URL too", () => {
    for (const path of ["/things/7/parts/2", "/v1/things/7/parts/2", "https://api.example.com/v1/things/7/parts/2?x"])
      expect(matcher.match("GET", path), path).toMatchObject({
        operation: { key: "GET /things/{id}/parts/{part}" },
        params: { id: "7", part: "2" },
      });
    expect(matcher.match("delete", "/v1/things/a/parts/b")?.params).toEqual({ id: "a", part: "b" });
    expect(matcher.match("GET", "/v1/raw/5")).toMatchObject({ operation: { path: "/v1/raw/{id}" }, params: {} });
  });

  it("percent-decodes each parameter; a malformed escape is kept as sent", () => {
    expect(matcher.match("GET", "/wallets/a%20b%2Fc")?.params).toEqual({ currencyCode: "a b/c" });
    expect(matcher.match("GET", "/wallets/%E2%82%AC")?.params).toEqual({ currencyCode: "€" });
    expect(matcher.match("GET", "/things/%E0%A4%A/parts/%zz")?.params).toEqual({ id: "%E0%A4%A", part: "%zz" });
  });

  it("a literal path wins over the template and has no parameters; a template sent as is names its braces", () => {
    expect(matcher.match("GET", "/v1/wallets/USDT")).toMatchObject({
      operation: { path: "/wallets/USDT" },
      params: {},
    });
    expect(matcher.match("GET", "/v1/wallets/NGNX")?.params).toEqual({ currencyCode: "NGNX" });
    expect(matcher.match("GET", "/wallets/{currencyCode}")).toMatchObject({
      operation: { path: "/wallets/{currencyCode}" },
      params: { currencyCode: "{currencyCode}" },
    });
  });

  it("is undefined for another method, another shape or an empty parameter; the same answer when asked again", () => {
    expect(matcher.match("POST", "/wallets/USDT")).toBeUndefined();
    expect(matcher.match("GET", "/wallets")).toBeUndefined();
    expect(matcher.match("GET", "/things//parts/2")).toBeUndefined();
    const first = matcher.match("GET", "/v1/wallets/BTC");
    expect(matcher.match("GET", "/v1/wallets/BTC")).toEqual(first);
    expect(matcher.find("GET", "/v1/wallets/BTC")).toBe(first?.operation);
  });

  it("property: the parameters of a concrete path fill the template back into that path", () => {
    const templates = new OperationMatcher(
      listOperations(doc({ paths: { "/a/{x}/b/{y}": { get: ok }, "/c/{z}": { get: ok } } })),
      ["/v1"],
    );
    const value = fc.string({ minLength: 1, unit: "grapheme" });
    fc.assert(
      fc.property(fc.tuple(value, value), fc.boolean(), ([x, y], withBase) => {
        const path = `${withBase ? "/v1" : ""}/a/${encodeURIComponent(x)}/b/${encodeURIComponent(y)}`;
        const found = templates.match("GET", path);
        expect(found?.params).toEqual({ x, y });
        const rebuilt = found!.operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
          encodeURIComponent(found!.params[name]!),
        );
        expect(`${withBase ? "/v1" : ""}${rebuilt}`).toBe(path);
      }),
    );
  });
});
