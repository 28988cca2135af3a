// The answers the mock and the ./msw handlers build from the contract (src/pipeline/answers.ts), on fixture
// contracts: the response key of a status, the documented answer of a status (first or named example, header
// examples), the error answer shared by the operations, header values made safe, and the parsing of `Prefer`.
import { describe, expect, it } from "vitest";
import {
  documentedAnswer,
  errorAnswer,
  parsePrefer,
  safeHeaderValue,
  violationsHeader,
} from "../../src/pipeline/answers.js";
import { responseKeyFor } from "../../src/openapi/document.js";
import type { JsonObject, OpenApiDocument } from "../../src/openapi/index.js";

describe("the answers the mock builds from the contract", () => {
  const spec = {
    openapi: "3.1.0",
    components: {
      headers: { Limit: { schema: { type: "integer", examples: [200, 100] } } },
      examples: { Named: { value: { from: "named" } } },
    },
  } as OpenApiDocument;
  const responses: Record<string, JsonObject> = {
    "200": {
      headers: {
        "X-Limit": { $ref: "#/components/headers/Limit" },
        "X-Own": { example: "own", schema: { example: "schema's" } },
        "X-Schema": { schema: { example: 7 } },
        "X-None": { schema: { type: "string" } },
      },
      content: {
        "application/json": {
          examples: { first: { value: { from: "first" } }, named: { $ref: "#/components/examples/Named" } },
        },
        "text/plain": { example: "second media type" },
      },
    },
    "204": { description: "no body" },
    "4xx": { content: { "application/json": { schema: { example: { from: "schema" } } } } },
    "5XX": { content: { "application/json": { schema: { type: "object" } } } },
    default: { content: { "application/problem+json": { example: { from: "default" } } } },
  };

  it("responseKeyFor: the status, its range in any case, else default", () => {
    expect(responseKeyFor(responses, 200)).toBe("200");
    expect(responseKeyFor(responses, 404)).toBe("4xx");
    expect(responseKeyFor(responses, 302)).toBe("default");
    expect(responseKeyFor({ "200": {} }, 404)).toBeUndefined();
    expect(responseKeyFor({ defaults: {}, "200": {} }, 500)).toBeUndefined();
  });

  it("documentedAnswer: the first (or named) example of the first media type, header examples lower-cased", () => {
    expect(documentedAnswer(spec, { responses }, 200)).toEqual({
      status: 200,
      headers: { "x-limit": "200", "x-own": "own", "x-schema": "7", "content-type": "application/json" },
      body: { from: "first" },
    });
    expect(documentedAnswer(spec, { responses }, 200, "named")?.body).toEqual({ from: "named" });
    expect(documentedAnswer(spec, { responses }, 200, "nope")).toBeUndefined();
    expect(documentedAnswer(spec, { responses }, 404, "nope")).toBeUndefined(); // not the schema's example instead
    expect(documentedAnswer(spec, { responses }, 204)).toEqual({ status: 204, headers: {}, body: undefined });
    expect(documentedAnswer(spec, { responses }, 418)).toEqual({
      status: 418,
      headers: { "content-type": "application/json" },
      body: { from: "schema" },
      schema: { example: { from: "schema" } },
    });
    expect(documentedAnswer(spec, { responses }, 503)).toBeUndefined(); // no example anywhere
    expect(documentedAnswer(spec, { responses: { "200": {} } }, 404)).toBeUndefined();
  });

  it("errorAnswer: the operation's own, else the first that documents the status, else the mock's own problem", () => {
    const withErrors = {
      openapi: "3.1.0",
      paths: {
        "/a": { get: { responses: { "200": { description: "ok" } } } },
        "/b": { get: { responses: { "4XX": { content: { "application/json": { example: { shared: true } } } } } } },
      },
    } as OpenApiDocument;
    expect(errorAnswer(withErrors, { responses }, 404).body).toEqual({ from: "schema" });
    expect(errorAnswer(withErrors, { responses: {} }, 404)).toEqual({
      status: 404,
      headers: { "content-type": "application/json" },
      body: { shared: true },
    });
    expect(errorAnswer(withErrors, undefined, 400).body).toEqual({ shared: true });
    expect(errorAnswer(withErrors, undefined, 500)).toEqual({
      status: 500,
      headers: { "content-type": "application/problem+json" },
      body: { title: "The contract documents no error response", status: 500 },
    });
  });

  it("safeHeaderValue writes what a header cannot carry as \\uXXXX; violationsHeader stays under 8 KiB", () => {
    expect(safeHeaderValue("a\u0000b\tc é\u007f\u0100\u2028😀~")).toBe(
      "a\\u0000b\tc é\\u007f\\u0100\\u2028\\ud83d\\ude00~",
    );
    expect(violationsHeader([{ message: "é\n" }])).toBe('[{"message":"é\\n"}]');
    const long = violationsHeader([{ message: "x".repeat(9000) }]);
    expect(long.startsWith('Too many violations! [{"message":"xxx')).toBe(true);
    expect(long).toHaveLength("Too many violations! ".length + 8 * 1024 - 100);
    const exact = "y".repeat(8 * 1024 - 100 - '[{"m":""}]'.length);
    expect(violationsHeader([{ m: exact }])).toBe(`[{"m":"${exact}"}]`);
  });

  it("parsePrefer: code, example, dynamic, seed (names in any case, quoted values), and what is wrong", () => {
    expect(parsePrefer(undefined)).toEqual({});
    expect(parsePrefer("")).toEqual({});
    expect(
      parsePrefer(' Code = 429 ; example="an \\"odd\\" one", Dynamic=true, seed=abc, respond-async, wait=5, =x'),
    ).toEqual({
      code: 429,
      example: 'an \\"odd\\" one',
      dynamic: true,
      seed: "abc",
    });
    expect(parsePrefer("dynamic=false")).toEqual({ dynamic: false });
    expect(parsePrefer("example=")).toEqual({ example: "" });
    expect(parsePrefer("code=42")).toEqual({ error: 'Prefer: code must be a three-digit status, got "42"' });
    expect(parsePrefer("code=4000")).toEqual({ error: 'Prefer: code must be a three-digit status, got "4000"' });
    expect(parsePrefer("code")).toEqual({ error: 'Prefer: code must be a three-digit status, got ""' });
    expect(parsePrefer("dynamic=TRUE")).toEqual({ error: 'Prefer: dynamic must be true or false, got "TRUE"' });
    expect(parsePrefer("dynamic")).toEqual({ error: 'Prefer: dynamic must be true or false, got ""' });
    // A preference is the whole part: one with text before or after it is not understood, so ignored.
    expect(parsePrefer("1code=429, code=429 junk; x code=500")).toEqual({});
  });
});
