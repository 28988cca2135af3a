// The copy of the contract the mock serves (src/mock/spec.ts, deriveMockSpec): every path under the servers'
// base path (Prism ignores it), refs into paths rewritten (inside arrays too), data that only looks like a ref
// left alone, servers that disagree on the base path refused, and the bundled contract's base path served.
import { describe, expect, it } from "vitest";
import { deriveMockSpec } from "../../src/mock/spec.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";
import { loadSpec } from "../support/spec.js";

const spec = loadSpec();

describe("the mock-only copy of the spec", () => {
  it("prefixes every path (and refs into paths) with the servers' base path, leaving the input unchanged", () => {
    const fixture = {
      openapi: "3.1.0",
      servers: [
        { url: "https://{host}/v9", variables: { host: { default: "example.invalid" } } },
        { url: "http://127.0.0.1:9999/v9" },
      ],
      paths: { "/a/{id}": { get: { responses: {} } }, "/b": { get: { $ref: "#/paths/~1a~1{id}/get" } } },
    };
    const before = structuredClone(fixture);
    const derived = deriveMockSpec(fixture);
    expect(fixture).toEqual(before);
    expect(derived.basePath).toBe("/v9");
    expect(Object.keys(derived.spec.paths as object)).toEqual(["/v9/a/{id}", "/v9/b"]);
    expect((derived.spec.paths as Record<string, { get: unknown }>)["/v9/b"]!.get).toEqual({
      $ref: "#/paths/~1v9~1a~1{id}/get",
    });
    expect(derived.fixes).toHaveLength(1);
  });

  it("refuses a contract whose servers disagree on the base path, naming them", () => {
    const fixture = {
      openapi: "3.1.0",
      servers: [{ url: "https://example.invalid/api" }, { url: "http://127.0.0.1:9999/v9" }],
      paths: {},
    };
    expect(() => deriveMockSpec(fixture)).toThrow(/one base path, found \["\/api","\/v9"\]/);
  });

  it("serves the bundled contract's local server base path", () => {
    const local = spec.servers?.find((s) => s.url.startsWith("http://127.0.0.1"));
    expect(local).toBeDefined();
    expect(deriveMockSpec(spec).basePath).toBe(new URL(local!.url).pathname.replace(/\/$/, ""));
  });
});

describe("deriveMockSpec", () => {
  const base: OpenApiDocument = {
    openapi: "3.1.0",
    servers: [{ url: "http://127.0.0.1:4010/v1" }],
    paths: { "/a": { get: { responses: { "200": { description: "ok" } } } } },
  };

  it("prefixes with the base path, says so, and reduces the servers to /", () => {
    const { spec, basePath, fixes } = deriveMockSpec(base);
    expect(basePath).toBe("/v1");
    expect(Object.keys(spec.paths ?? {})).toEqual(["/v1/a"]);
    expect(fixes).toEqual(["every path is prefixed with /v1 (Prism ignores the base path of servers)"]);
    expect(spec.servers).toEqual([{ url: "/" }]);
  });

  it("changes nothing but the servers when there is no base path", () => {
    const { spec, basePath, fixes } = deriveMockSpec({ ...base, servers: [{ url: "http://127.0.0.1:4010" }] });
    expect(basePath).toBe("");
    expect(Object.keys(spec.paths ?? {})).toEqual(["/a"]);
    expect(fixes).toEqual([]);
    expect(spec.servers).toEqual([{ url: "/" }]);
  });

  it("rewrites refs into paths inside arrays, and leaves data that only looks like a ref", () => {
    const input = {
      ...base,
      components: {
        schemas: { Either: { oneOf: [{ $ref: "#/paths/~1a/get/responses/200" }] } },
        examples: { Data: { value: { $ref: { nested: "#/paths/~1a" }, note: "#/paths/~1a" } } },
      },
    } as OpenApiDocument;
    const { spec } = deriveMockSpec(input);
    const components = spec.components as {
      schemas: { Either: { oneOf: Array<{ $ref: string }> } };
      examples: { Data: { value: unknown } };
    };
    expect(components.schemas.Either.oneOf[0]!.$ref).toBe("#/paths/~1v1~1a/get/responses/200");
    expect(components.examples.Data.value).toEqual({ $ref: { nested: "#/paths/~1a" }, note: "#/paths/~1a" });
  });
});
