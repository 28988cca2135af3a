// A request's query, header and path parameters against its operation's (validateRequestParameters): on the
// bundled contract (pagination integers, the invoice status enum, the signing headers' patterns), and on a small
// contract of its own for what the bundled one has none of (required parameters, an array query, a path pattern).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";
import { sharedValidator } from "../support/spec.js";

const validator = sharedValidator();
const SIGNATURE = "a".repeat(64);

describe("on the bundled contract", () => {
  it("a valid request has no violations (query, signing headers, a path parameter, a templated path)", () => {
    const headers = { "x-api-timestamp": "1732400000000", "x-api-signature": SIGNATURE };
    expect(validator.validateRequestParameters("GET", "/v1/transactions/me?page=2&pageSize=30", headers)).toEqual([]);
    expect(validator.validateRequestParameters("GET", "/v1/invoices/me?status=PENDING", new Headers(headers))).toEqual(
      [],
    );
    expect(validator.validateRequestParameters("get", "http://x.test/v1/collections/customers/c_1")).toEqual([]);
    expect(validator.validateRequestParameters("GET", "/v1/collections/customers/{id}")).toEqual([]);
  });

  it("an integer query parameter that is not one: invalid-parameter at its name, with the text", () => {
    expect(validator.validateRequestParameters("GET", "/v1/transactions/me?page=two")).toEqual([
      {
        kind: "invalid-parameter",
        location: "query",
        pointer: "/page",
        message: 'query parameter page must be an integer, got "two"',
      },
    ]);
  });

  it("a query key given twice for a single value is refused, not judged by one of its values", () => {
    expect(validator.validateRequestParameters("GET", "/v1/transactions/me?page=1&page=1")).toEqual([
      {
        kind: "invalid-parameter",
        location: "query",
        pointer: "/page",
        message: "query parameter page is given 2 times; it takes one value",
      },
    ]);
  });

  it("a value outside an enum, and a header against its pattern, each reported by its schema", () => {
    const result = validator.validateRequestParameters("GET", "/v1/invoices/me?status=LOST", {
      "X-Api-Signature": "not-hex",
    });
    expect(result.map(({ kind, location, pointer }) => ({ kind, location, pointer }))).toEqual([
      { kind: "invalid-parameter", location: "query", pointer: "/status" },
      { kind: "invalid-parameter", location: "headers", pointer: "/x-api-signature" },
    ]);
    expect(result[0]!.message).toMatch(/^query parameter status must be one of "PENDING", /);
    expect(result[1]!.message).toMatch(/^header parameter x-api-signature must match pattern/);
  });

  it("an unknown operation is said so", () => {
    expect(validator.validateRequestParameters("GET", "/v1/nowhere")).toEqual([
      {
        kind: "unknown-operation",
        location: "operation",
        pointer: "",
        message: "GET /v1/nowhere is not an operation of the spec",
      },
    ]);
  });

  it("any integer page passes and any text that is no integer is refused (property)", () => {
    fc.assert(
      fc.property(fc.integer(), (page) => {
        expect(validator.validateRequestParameters("GET", `/v1/transactions/me?page=${page}`)).toEqual([]);
      }),
    );
    fc.assert(
      fc.property(
        fc.string().filter((text) => !/^-?\d+$/.test(text.trim())),
        (text) => {
          const url = `/v1/transactions/me?${new URLSearchParams({ page: text })}`;
          const [violation, ...rest] = validator.validateRequestParameters("GET", url);
          expect(rest).toEqual([]);
          expect(violation).toMatchObject({ kind: "invalid-parameter", location: "query", pointer: "/page" });
        },
      ),
    );
  });
});

const parametersSpec: OpenApiDocument = {
  openapi: "3.1.0",
  info: { title: "parameters", version: "1" },
  paths: {
    "/items/{code}": {
      parameters: [{ name: "code", in: "path", required: true, schema: { type: "string", pattern: "^[A-Z]{3}$" } }],
      get: {
        operationId: "items",
        parameters: [
          { name: "ids", in: "query", schema: { type: "array", items: { type: "integer" } } },
          { name: "need", in: "query", required: true, schema: { type: "boolean" } },
          { name: "X-Trace", in: "header", required: true, schema: { type: "string" } },
          { name: "session", in: "cookie", required: true, schema: { type: "string" } },
          { name: "free", in: "query" },
        ],
        responses: { "204": { description: "ok" } },
      },
    },
  },
};
const small = createContractValidator(parametersSpec);
const trace = { "x-trace": "t" };

describe("on a small contract", () => {
  it("required query and header parameters that are missing: missing-parameter each (cookies are not read)", () => {
    expect(small.validateRequestParameters("GET", "/items/ABC")).toEqual([
      { kind: "missing-parameter", location: "query", pointer: "/need", message: "query parameter need is required" },
      {
        kind: "missing-parameter",
        location: "headers",
        pointer: "/x-trace",
        message: "header parameter x-trace is required",
      },
    ]);
  });

  it("an array query takes every value of its key, each converted to the items' type", () => {
    expect(small.validateRequestParameters("GET", "/items/ABC?need=true&ids=1&ids=2&free=x&free=y", trace)).toEqual([]);
    expect(small.validateRequestParameters("GET", "/items/ABC?need=false&ids=1&ids=x", trace)).toEqual([
      {
        kind: "invalid-parameter",
        location: "query",
        pointer: "/ids",
        message: 'query parameter ids item 1 must be an integer, got "x"',
      },
    ]);
  });

  it("a boolean query is converted from true/false only; a path parameter is judged decoded, by its pattern", () => {
    const [notBoolean] = small.validateRequestParameters("GET", "/items/ABC?need=yes", trace);
    expect(notBoolean).toMatchObject({ kind: "invalid-parameter", pointer: "/need" });
    expect(notBoolean!.message).toMatch(/^query parameter need must be boolean/);
    expect(small.validateRequestParameters("GET", "/items/%41BC?need=true", trace)).toEqual([]);
    const [badPath] = small.validateRequestParameters("GET", "/items/abcd?need=true", trace);
    expect(badPath).toMatchObject({ kind: "invalid-parameter", location: "path", pointer: "/code" });
    expect(badPath!.message).toMatch(/^path parameter code must match pattern/);
  });
});
