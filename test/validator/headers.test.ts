// Response headers: read from a fetch Headers or a plain map (names in any case, arrays, numbers), converted to the
// types their schemas declare (integer, number, boolean, unions with string) and each validated by its own schema,
// with messages that name the header and not ajv's "(root)".
import { describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";
import { sharedValidator } from "../support/spec.js";
import { plainGet, successOf } from "./support/examples.js";
import { checkMediaTypes, OK_HEADERS, smallSpec } from "./support/fixtures.js";

const validator = createContractValidator(smallSpec());

const headerProblems = (headers: Record<string, string | string[] | number | undefined>): string[] =>
  validator
    .validateResponse({
      method: "GET",
      path: "/v1/h",
      status: 200,
      headers: { "content-type": "application/json", ...headers },
      body: {},
    })
    .violations.map((v) => `${v.kind} ${v.pointer}: ${v.message.replace("GET /h 200: ", "")}`);

describe("header values, converted to the types their schemas declare", () => {
  it("a missing required header and one not of its type are both located in the headers", () => {
    const locations = (headers: Record<string, string>) =>
      validator
        .validateResponse({ method: "GET", path: "/v1/h", status: 200, headers, body: {} })
        .violations.map((v) => `${v.kind} ${v.location}`);
    expect(locations({ "content-type": "application/json" })).toEqual(["missing-header headers"]);
    expect(locations({ "content-type": "application/json", "x-int": "x" })).toEqual(["invalid-header headers"]);
  });

  it("integer: digits (around spaces) only", () => {
    expect(headerProblems({ "x-int": " 12 " })).toEqual([]);
    expect(headerProblems({ "x-int": "-3" })).toEqual([]);
    expect(headerProblems({ "x-int": "1.5" })).toEqual([
      'invalid-header /x-int: header x-int must be an integer, got "1.5"',
    ]);
    expect(headerProblems({ "x-int": "" })).toEqual(['invalid-header /x-int: header x-int must be an integer, got ""']);
    expect(headerProblems({})).toEqual(["missing-header /x-int: required header x-int is missing"]);
  });

  it("number: any finite number, not an empty value", () => {
    expect(headerProblems({ ...OK_HEADERS, "x-num": "1.5e3" })).toEqual([]);
    expect(headerProblems({ ...OK_HEADERS, "x-num": " " })).toEqual([
      'invalid-header /x-num: header x-num must be a number, got " "',
    ]);
    expect(headerProblems({ ...OK_HEADERS, "x-num": "Infinity" })).toEqual([
      'invalid-header /x-num: header x-num must be a number, got "Infinity"',
    ]);
    expect(headerProblems({ ...OK_HEADERS, "x-int-or-num": "2.5" })).toEqual([]);
    expect(headerProblems({ ...OK_HEADERS, "x-int-or-num": "x" })).toEqual([
      'invalid-header /x-int-or-num: header x-int-or-num must be a number, got "x"',
    ]);
    expect(headerProblems({ ...OK_HEADERS, "x-int-or-num": "-1" })).toEqual([
      "invalid-header /x-int-or-num: header x-int-or-num must be >= 0",
    ]);
  });

  it("a union with string keeps a value that is not a number as text, and checks a number as a number", () => {
    expect(headerProblems({ ...OK_HEADERS, "x-int-or-string": "abc", "x-num-or-string": "abc" })).toEqual([]);
    expect(headerProblems({ ...OK_HEADERS, "x-int-or-string": "-5" })).toEqual([
      "invalid-header /x-int-or-string: header x-int-or-string must be >= 0",
    ]);
    expect(headerProblems({ ...OK_HEADERS, "x-int-or-string": "1.5" })).toEqual([]);
    expect(headerProblems({ ...OK_HEADERS, "x-num-or-string": "-0.5" })).toEqual([
      "invalid-header /x-num-or-string: header x-num-or-string must be >= 0",
    ]);
  });

  it("boolean: true or false only; a string schema gets the text as it came", () => {
    expect(headerProblems({ ...OK_HEADERS, "x-bool": "false" })).toEqual([]);
    expect(headerProblems({ ...OK_HEADERS, "x-bool": "true" })).toEqual([]);
    expect(headerProblems({ ...OK_HEADERS, "x-bool": "yes" })).toEqual([
      "invalid-header /x-bool: header x-bool must be boolean",
    ]);
    expect(headerProblems({ ...OK_HEADERS, "x-bool": " true " })).toEqual([]);
    expect(headerProblems({ ...OK_HEADERS, "x-bool-or-int": "7" })).toEqual([]);
    expect(headerProblems({ ...OK_HEADERS, "x-str": "123" })).toEqual([]);
    expect(headerProblems({ ...OK_HEADERS, "x-str": " ab" })).toEqual([]);
    expect(headerProblems({ ...OK_HEADERS, "x-str": "abcd" })).toEqual([
      "invalid-header /x-str: header x-str must NOT have more than 3 characters",
    ]);
    expect(headerProblems({ ...OK_HEADERS, "x-any": "anything", "x-no-schema": "anything" })).toEqual([]);
  });

  it("each is converted by its declared type and checked against its own schema", () => {
    const headers = (values: Record<string, string>) =>
      checkMediaTypes(200, { headers: { "content-type": "application/json", ...values }, bodyText: '{"n":1}' })
        .violations;
    expect(headers({ "x-int": "2", "x-bool": "true", "x-num": "1.5", "x-either": "abc" })).toEqual([]);
    expect(headers({ "x-bool": "false" }).map((v) => v.pointer)).toEqual(["/x-bool"]);
    expect(headers({ "x-either": "7" })).toEqual([]);
  });

  it("a schema violation is named without ajv's (root)", () => {
    const [violation, ...rest] = checkMediaTypes(200, {
      headers: { "content-type": "application/json", "x-int": "0" },
      bodyText: '{"n":1}',
    }).violations;
    expect(rest).toEqual([]);
    expect(violation).toMatchObject({ kind: "invalid-header", location: "headers", pointer: "/x-int" });
    expect(violation!.message).toMatch(/^GET \/a 200: header x-int (?!\(root\))\S/);
    expect(violation!.message).not.toContain("(root)");
  });
});

/** A contract whose one operation, GET /h, answers 200 with a JSON object and `headers`. */
const specDocumenting = (headers: Record<string, unknown>): OpenApiDocument =>
  ({
    openapi: "3.1.0",
    paths: {
      "/h": {
        get: {
          responses: {
            "200": {
              description: "ok",
              headers,
              content: { "application/json": { schema: { type: "object" } } },
            },
          },
        },
      },
    },
  }) as OpenApiDocument;

describe("reading headers", () => {
  it("a plain map: names in any case (the lower-case one first), arrays joined with ', ', numbers as text", () => {
    expect(headerProblems({ "X-INT": "1", "x-str": ["a", "b"] })).toEqual([
      "invalid-header /x-str: header x-str must NOT have more than 3 characters",
    ]);
    expect(headerProblems({ "X-Int": "x", "x-int": "2" })).toEqual([]);
    expect(headerProblems({ "x-int": 5, "x-str": ["abc"] })).toEqual([]);
    expect(headerProblems({ "x-int": undefined, "X-Int": "3" })).toEqual([]);
    const inherited = Object.assign(Object.create({ "X-Int": "1" }) as object, { "content-type": "application/json" });
    expect(
      validator
        .validateResponse({
          method: "GET",
          path: "/h",
          status: 200,
          headers: inherited as Record<string, string>,
          body: {},
        })
        .violations.map((v) => v.kind),
    ).toEqual(["missing-header"]);
  });

  it("accepts a fetch Headers object and header values with a charset and surrounding spaces", () => {
    const op = plainGet();
    const success = successOf(op);
    const headers = new Headers(success.headers);
    headers.set("content-type", `${success.headers["content-type"]}; charset=utf-8`);
    const name = Object.keys(success.headers).find((h) => h !== "content-type")!;
    headers.set(name, ` ${success.headers[name]} `);
    const result = sharedValidator().validateResponse({
      method: op.method,
      path: op.path,
      status: success.status,
      headers,
      body: success.examples[0]!.value,
    });
    expect(result.violations).toEqual([]);
  });

  it("a fetch Headers: a header named as one of its methods (get, keys) is read as the header", () => {
    const documented = { required: true, schema: { type: "integer" } };
    const spec = specDocumenting({ Get: documented, Keys: documented });
    const problems = (headers: Record<string, string>) =>
      createContractValidator(spec)
        .validateResponse({ method: "GET", path: "/h", status: 200, headers: new Headers(headers), body: {} })
        .violations.map((v) => v.message);
    expect(problems({ "content-type": "application/json", get: "2", keys: "3" })).toEqual([]);
    expect(problems({ "content-type": "application/json", get: "x", keys: "3" })).toEqual([
      'GET /h 200: header get must be an integer, got "x"',
    ]);
  });

  describe("one required integer header", () => {
    const counting = createContractValidator(
      specDocumenting({ "X-Count": { required: true, schema: { type: "integer" } } }),
    );

    it("no headers at all: the required one is missing, the content type too", () => {
      expect(
        counting.validateResponse({ method: "GET", path: "/h", status: 200, body: {} }).violations.map((v) => v.kind),
      ).toEqual(["missing-header", "undocumented-content-type"]);
    });

    it("a plain map with both spellings: the lower-case name is read first; a content type with spaces", () => {
      const result = counting.validateResponse({
        method: "GET",
        path: "/h",
        status: 200,
        headers: { "x-count": "2", "X-Count": "not a number", "Content-Type": "Application/JSON ; charset=utf-8" },
        bodyText: "{}",
      });
      expect(result.violations).toEqual([]);
    });
  });
});
