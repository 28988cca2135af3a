// src/openapi on small documents of its own: the readers the build uses to derive generated/client-meta.ts (the
// local server, the API key, rate-limit and signing header names), JSON pointers and $refs, base paths, examples,
// path normalisation, the operation matcher's edges and the schema view's maps and tuple items. Each refusal is
// checked with its message, each reader with the values it must pick (and the ones it must not).
import { describe, expect, it } from "vitest";
import {
  apiKeyHeaderName,
  basePathOf,
  deref,
  firstExample,
  jsonMedia,
  listOperations,
  localServerUrl,
  namedExamples,
  normalizePath,
  type OpenApiDocument,
  OperationMatcher,
  pointerTokens,
  rateLimitHeaderNames,
  resolvePointer,
  schemaView,
  serverBasePaths,
  signingHeaderNames,
  viewOfSchemas,
} from "../../src/openapi/index.js";

const doc = (fields: Partial<OpenApiDocument>): OpenApiDocument => ({ openapi: "3.1.0", ...fields });

describe("JSON pointers and $refs", () => {
  it("pointerTokens: a JSON pointer is not URI-decoded, a local reference is; both unescape ~1 and ~0", () => {
    expect(pointerTokens("")).toEqual([]);
    expect(pointerTokens("#")).toEqual([]);
    expect(pointerTokens("/a~1b/c~0d/%25")).toEqual(["a/b", "c~d", "%25"]);
    expect(pointerTokens("#/a~1b/c%20d/%7E0")).toEqual(["a/b", "c d", "~"]);
    expect(pointerTokens("/")).toEqual([""]);
  });

  it("resolvePointer: only '', '#…' and '/…' are pointers; arrays by index; a missing or inherited key is undefined", () => {
    const document = { a: { b: [10, 20] }, "": { x: 1 } };
    expect(resolvePointer(document, "")).toBe(document);
    expect(resolvePointer(document, "/a/b/1")).toBe(20);
    expect(resolvePointer(document, "#/a/b/0")).toBe(10);
    expect(resolvePointer(document, "/")).toEqual({ x: 1 });
    expect(resolvePointer(document, "a/b")).toBeUndefined();
    expect(resolvePointer(document, "x/")).toBeUndefined();
    expect(resolvePointer(document, "/a/c")).toBeUndefined();
    expect(resolvePointer(document, "/a/b/0/deeper")).toBeUndefined();
    expect(resolvePointer(document, "/a/toString")).toBeUndefined();
  });

  it("deref follows a chain of local $refs (33 hops at most, the first included) and refuses a longer one, an external $ref and a dangling one, naming it", () => {
    const chain = (length: number): Record<string, unknown> => {
      const document: Record<string, unknown> = { end: { type: "string" } };
      for (let i = 0; i < length; i++) document[`r${i}`] = { $ref: i === length - 1 ? "#/end" : `#/r${i + 1}` };
      return document;
    };
    expect(deref(chain(32), { $ref: "#/r0" })).toEqual({ type: "string" });
    expect(() => deref(chain(33), { $ref: "#/r0" })).toThrow(/^openapi: \$ref chain too deep at #\/end$/);
    expect(() => deref({}, { $ref: "other.yaml#/a" })).toThrow(
      /^openapi: only local \$refs are supported, got other\.yaml#\/a \(use a bundled document\)$/,
    );
    expect(() => deref({}, { $ref: "#/missing" })).toThrow(/^openapi: unresolvable \$ref #\/missing$/);
    expect(deref({ a: [1] }, { $ref: "#/a" })).toBeUndefined(); // an array is not an object
    expect(deref({}, "text")).toBeUndefined();
    expect(deref({}, { $ref: 1, x: 2 })).toEqual({ $ref: 1, x: 2 });
  });
});

describe("servers and the header names the build reads", () => {
  it("serverBasePaths: every distinct non-root path, with a leading /, longest first; unparsable URLs name none", () => {
    const document = doc({
      servers: [
        { url: "https://a.example.com/v1/" },
        { url: "v1" },
        {
          url: "https://{region}.example.com/{version}",
          variables: { region: { default: "eu" }, version: { default: "api/v22" } },
        },
        { url: "http://[bad/x" },
        { url: "https://root.example.com/" },
        { url: "/" },
        { url: "/ab" },
      ],
    });
    expect(serverBasePaths(document)).toEqual(["/api/v22", "/v1", "/ab"]);
    expect(serverBasePaths(doc({}))).toEqual([]);
  });

  it("basePathOf: the one path all servers share, or an error listing what they say", () => {
    expect(
      basePathOf(doc({ servers: [{ url: "https://a.example.com/v1" }, { url: "http://127.0.0.1:4010/v1/" }] })),
    ).toBe("/v1");
    expect(() => basePathOf(doc({ servers: [{ url: "https://a.example.com/v1" }, { url: "/v2" }] }))).toThrow(
      'openapi: the servers must share one base path, found ["/v1","/v2"]',
    );
    expect(() => basePathOf(doc({}))).toThrow("openapi: the servers must share one base path, found []");
  });

  it("localServerUrl: exactly one server on 127.0.0.1 or localhost (not a host that only starts like one)", () => {
    const local = "http://127.0.0.1:4010/v1";
    expect(localServerUrl(doc({ servers: [{ url: "https://api.example.com/v1" }, { url: local }] }))).toBe(local);
    expect(localServerUrl(doc({ servers: [{ url: "http://localhost/v1" }] }))).toBe("http://localhost/v1");
    for (const servers of [
      [],
      [{ url: "http://localhostile.example/v1" }, { url: "https://127.0.0.1/v1" }, { url: "x http://localhost/" }],
    ]) {
      expect(() => localServerUrl(doc({ servers }))).toThrow(
        "openapi: expected exactly one local (loopback) server, found 0",
      );
    }
    expect(() => localServerUrl(doc({ servers: [{ url: local }, { url: "http://localhost:1/v1" }] }))).toThrow(
      "openapi: expected exactly one local (loopback) server, found 2",
    );
  });

  it("apiKeyHeaderName: the one apiKey scheme in a header, lower-cased", () => {
    const schemes = (securitySchemes: Record<string, unknown>) => doc({ components: { securitySchemes } });
    expect(
      apiKeyHeaderName(
        schemes({
          bearer: { type: "http", scheme: "bearer" },
          query: { type: "apiKey", in: "query", name: "key" },
          header: { type: "apiKey", in: "header", name: "X-Api-Key" },
          odd: "not an object",
        }),
      ),
    ).toBe("x-api-key");
    expect(() => apiKeyHeaderName(doc({}))).toThrow(
      "openapi: expected exactly one apiKey header security scheme, found 0",
    );
    expect(() =>
      apiKeyHeaderName(
        schemes({ a: { type: "apiKey", in: "header", name: "A" }, b: { type: "apiKey", in: "header", name: "B" } }),
      ),
    ).toThrow("openapi: expected exactly one apiKey header security scheme, found 2");
  });

  it("rateLimitHeaderNames: one …ratelimit…-limit, -remaining and -reset header each, lower-cased", () => {
    const headers = (names: string[]) =>
      doc({ components: { headers: Object.fromEntries(names.map((n) => [n, { schema: {} }])) } });
    expect(
      rateLimitHeaderNames(
        headers([
          "X-RateLimit-Limit",
          "X-RateLimit-Remaining",
          "X-RateLimit-Reset",
          "X-Other-Limit",
          "Ratelimit-Resets",
        ]),
      ),
    ).toEqual({
      limit: "x-ratelimit-limit",
      remaining: "x-ratelimit-remaining",
      reset: "x-ratelimit-reset",
    });
    expect(() => rateLimitHeaderNames(headers(["X-RateLimit-Limit", "X-RateLimit-Reset"]))).toThrow(
      "openapi: expected one rate-limit …-remaining header in components.headers, found []",
    );
    expect(() =>
      rateLimitHeaderNames(
        headers(["X-RateLimit-Limit", "RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]),
      ),
    ).toThrow(
      'openapi: expected one rate-limit …-limit header in components.headers, found ["x-ratelimit-limit","ratelimit-limit"]',
    );
    expect(() => rateLimitHeaderNames(doc({}))).toThrow(
      "openapi: expected one rate-limit …-limit header in components.headers, found []",
    );
  });

  it("signingHeaderNames: the header parameters marked x-signing timestamp and signature, lower-cased", () => {
    const parameters = (list: Record<string, unknown>) => doc({ components: { parameters: list } });
    const ts = { in: "header", name: "X-Api-Timestamp", "x-signing": "timestamp" };
    const sig = { in: "header", name: "X-Api-Signature", "x-signing": "signature" };
    expect(
      signingHeaderNames(
        parameters({
          ts,
          sig,
          query: { in: "query", name: "q", "x-signing": "timestamp" },
          plain: { in: "header", name: "P" },
        }),
      ),
    ).toEqual({
      timestamp: "x-api-timestamp",
      signature: "x-api-signature",
    });
    expect(() => signingHeaderNames(parameters({ ts }))).toThrow(
      "openapi: expected one header parameter with x-signing: signature, found 0",
    );
    expect(() => signingHeaderNames(parameters({ ts, ts2: { ...ts, name: "Other" }, sig }))).toThrow(
      "openapi: expected one header parameter with x-signing: timestamp, found 2",
    );
  });
});

describe("examples", () => {
  it("jsonMedia: application/json or a +json type, as an object", () => {
    expect(jsonMedia({ content: { "text/plain": {}, "application/problem+json": { schema: 1 } } })).toEqual({
      schema: 1,
    });
    expect(jsonMedia({ content: { "application/json": "not an object" } })).toBeUndefined();
    expect(jsonMedia({ content: { "application/jsonx": {}, "text/json+xml": {} } })).toBeUndefined();
    expect(jsonMedia(undefined)).toBeUndefined();
  });

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

  it("firstExample: example, first named example, then the schema's example, examples[0], const, enum[0]; else none", () => {
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

describe("finding the operation of a request", () => {
  it("normalizePath: no scheme or host, query, fragment or trailing slash; always a leading slash", () => {
    expect(normalizePath("https://api.example.com/v1/things/?a=1#x")).toBe("/v1/things");
    expect(normalizePath("things/1#frag")).toBe("/things/1");
    expect(normalizePath("/")).toBe("/");
    expect(normalizePath("")).toBe("/");
    expect(normalizePath("/a//")).toBe("/a/");
  });

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
});
