// Edges of the contract validator (src/contract) on a small contract of its own: header values converted to the
// types their schemas declare (integer, number, boolean, unions with string), plain header maps (any case, arrays,
// numbers), request bodies (unknown operation, required or optional, no JSON media type, no schema), refs into a
// component's inside and to non-schema components, the refs it refuses, error messages for enum and const,
// undocumented fields, and what path the openapi-fetch middleware validates when the client's base URL does not help.
import { describe, expect, it } from "vitest";
import { type ContractResult, contractMiddleware, createContractValidator } from "../../src/contract/index.js";
import { rewriteSchemaRefs, SCHEMA_ID_BASE } from "../../src/contract/schemas.js";
import { findUndocumentedFields } from "../../src/contract/undocumented.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";

const HEADERS = {
  "X-Int": { required: true, schema: { type: "integer" } },
  "X-Num": { schema: { type: "number" } },
  "X-Bool": { schema: { type: "boolean" } },
  "X-Int-Or-String": { schema: { type: ["integer", "string"], minimum: 0 } },
  "X-Num-Or-String": { schema: { type: ["number", "string"], minimum: 0 } },
  "X-Int-Or-Num": { schema: { type: ["integer", "number"], minimum: 0 } },
  "X-Bool-Or-Int": { schema: { type: ["boolean", "integer"] } },
  "X-Str": { schema: { type: "string", maxLength: 3 } },
  "X-Any": { schema: {} },
  "X-No-Schema": { description: "not checked" },
  "Content-Type": { schema: { const: "never checked here" } },
};

function smallSpec(): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "Small", version: "1.0.0" },
    servers: [{ url: "https://small.example.com/v1" }],
    components: {
      schemas: {
        Thing: {
          type: "object",
          properties: {
            id: { type: "string" },
            kind: { $ref: "#/components/schemas/Kinds/properties/k" },
            version: { $ref: "#/components/schemas/Fixed" },
          },
        },
        Kinds: { type: "object", properties: { k: { enum: ["a", "b"] } } },
        Fixed: { const: "v1" },
      },
      "x-shared": { Count: { type: "integer" } },
    },
    paths: {
      "/h": {
        get: {
          operationId: "headers",
          responses: {
            "200": {
              description: "ok",
              headers: HEADERS,
              content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
            },
          },
        },
      },
      "/body": {
        post: {
          operationId: "body",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: { type: "object", required: ["n"], properties: { n: { $ref: "#/components/x-shared/Count" } } },
              },
            },
          },
          responses: { "204": { description: "ok" } },
        },
      },
      "/optional": {
        post: {
          operationId: "optional",
          requestBody: { content: { "application/json": { schema: { type: "object" } } } },
          responses: { "204": { description: "ok" } },
        },
      },
      "/text": {
        post: {
          operationId: "text",
          requestBody: { required: true, content: { "text/plain": { schema: { type: "string" } } } },
          responses: { "204": { description: "ok" } },
        },
      },
      "/any": {
        post: {
          operationId: "anySchema",
          requestBody: { required: true, content: { "application/json": {} } },
          responses: { "204": { description: "ok" } },
        },
      },
      "/none": { post: { operationId: "noBody", responses: { "204": { description: "ok" } } } },
    },
  } as OpenApiDocument;
}

const spec = smallSpec();
const validator = createContractValidator(spec);
const OK_HEADERS = { "x-int": "1" };

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
});

describe("bodies", () => {
  const bodyProblems = (body: unknown) =>
    validator
      .validateResponse({
        method: "GET",
        path: "/h",
        status: 200,
        headers: { ...OK_HEADERS, "content-type": "application/json; charset=utf-8" },
        body,
      })
      .violations.map((v) => `${v.pointer}: ${v.message.replace("GET /h 200: ", "")}`);

  it("follows a ref into a component's inside and names enum and const values in their messages", () => {
    expect(bodyProblems({ id: "1", kind: "a", version: "v1" })).toEqual([]);
    expect(bodyProblems({ kind: "c" })).toEqual(['/kind: /kind must be one of "a", "b"']);
    expect(bodyProblems({ version: "v2" })).toEqual(['/version: /version must be "v1"']);
    expect(bodyProblems(5)).toEqual([": (root) must be object"]);
  });

  it("validateResponse of an unknown operation: that one violation, whole-request, and nothing else", () => {
    expect(
      validator.validateResponse({ method: "get", path: "/nope", status: 200, headers: {}, bodyText: "{}" }),
    ).toEqual({
      ok: false,
      operation: undefined,
      responseKey: undefined,
      violations: [
        {
          kind: "unknown-operation",
          location: "operation",
          pointer: "",
          message: "GET /nope is not an operation of the spec",
        },
      ],
      warnings: [],
    });
  });

  it("validateRequestBody: unknown operations, required and optional bodies, no JSON media type, no schema", () => {
    expect(validator.validateRequestBody("get", "/nope", {})).toEqual([
      {
        kind: "unknown-operation",
        location: "operation",
        pointer: "",
        message: "GET /nope is not an operation of the spec",
      },
    ]);
    expect(validator.validateRequestBody("POST", "/v1/body", undefined)).toEqual([
      { kind: "body-schema", location: "body", pointer: "", message: "request body is required" },
    ]);
    expect(validator.validateRequestBody("POST", "/body", { n: "x" })).toEqual([
      { kind: "body-schema", location: "body", pointer: "/n", message: "request body: /n must be integer" },
    ]);
    expect(validator.validateRequestBody("POST", "/body", {})).toEqual([
      { kind: "body-schema", location: "body", pointer: "/n", message: "request body: /n is required but missing" },
    ]);
    expect(validator.validateRequestBody("POST", "/body", { n: 1 })).toEqual([]);
    expect(validator.validateRequestBody("POST", "/optional", undefined)).toEqual([]);
    expect(validator.validateRequestBody("POST", "/optional", [])).toEqual([
      { kind: "body-schema", location: "body", pointer: "", message: "request body: (root) must be object" },
    ]);
    expect(validator.validateRequestBody("POST", "/text", undefined)).toEqual([]);
    expect(validator.validateRequestBody("POST", "/any", 42)).toEqual([]);
    expect(validator.validateRequestBody("POST", "/none", { a: 1 })).toEqual([]);
  });

  it("strict mode lists undocumented fields; findUndocumentedFields defaults to the root and a fresh list", () => {
    const result = validator.validateResponse(
      {
        method: "GET",
        path: "/h",
        status: 200,
        headers: { ...OK_HEADERS, "content-type": "application/json" },
        body: { id: "1", extra: true },
      },
      { strict: true },
    );
    expect(result.warnings).toEqual([
      {
        kind: "undocumented-field",
        location: "body",
        pointer: "/extra",
        message: "/extra is not documented by the spec",
      },
    ]);
    expect(findUndocumentedFields(spec, { $ref: "#/components/schemas/Thing" }, { id: "1", "a/b": 1 })).toEqual([
      {
        kind: "undocumented-field",
        location: "body",
        pointer: "/a~1b",
        message: "/a~1b is not documented by the spec",
      },
    ]);
  });
});

describe("the refs the schemas may hold", () => {
  it("rewrites a ref into a component's inside to that component's id plus a fragment, and inlines other local refs", () => {
    expect(rewriteSchemaRefs(spec, { items: { $ref: "#/components/schemas/Kinds/properties/k" } })).toEqual({
      items: { $ref: `${SCHEMA_ID_BASE}Kinds#/properties/k` },
    });
    expect(rewriteSchemaRefs(spec, { $ref: "#/components/schemas/Thing" })).toEqual({ $ref: `${SCHEMA_ID_BASE}Thing` });
    expect(rewriteSchemaRefs(spec, { allOf: [{ $ref: "#/components/x-shared/Count", minimum: 1 }] })).toEqual({
      allOf: [{ type: "integer", minimum: 1 }],
    });
    expect(rewriteSchemaRefs(spec, [{ $ref: 5 }, "x"])).toEqual([{ $ref: 5 }, "x"]);
  });

  it("refuses a recursive non-component ref, a dangling one and an external one, naming it", () => {
    const withComponents = (extra: Record<string, unknown>) =>
      ({ ...smallSpec(), components: { ...smallSpec().components, ...extra } }) as OpenApiDocument;
    const loop = withComponents({ "x-loop": { properties: { again: { $ref: "#/components/x-loop" } } } });
    expect(() => rewriteSchemaRefs(loop, { $ref: "#/components/x-loop" })).toThrow(
      /^contract: recursive non-component \$ref #\/components\/x-loop$/,
    );
    expect(() => rewriteSchemaRefs(spec, { $ref: "#/components/nothing" })).toThrow(
      /^contract: unresolvable \$ref #\/components\/nothing$/,
    );
    expect(() => rewriteSchemaRefs(spec, { $ref: "other.json#/x" })).toThrow(
      /^contract: external \$ref other\.json#\/x \(validate a bundled document\)$/,
    );
    const broken = withComponents({ schemas: { Bad: { $ref: "#/components/x-none" } } });
    expect(() => createContractValidator(broken)).toThrow(/^contract: unresolvable \$ref #\/components\/x-none$/);
  });
});

describe("the middleware's path", () => {
  const middleware = (onViolation: (result: ContractResult) => void) =>
    contractMiddleware(validator, { mode: "report", onViolation });
  const respond = async (url: string, schemaPath: string, baseUrl: string | undefined) => {
    const found: ContractResult[] = [];
    const onResponse = middleware((result) => found.push(result)).onResponse!;
    const response = new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
    await onResponse({
      request: new Request(url),
      response,
      schemaPath,
      options: baseUrl === undefined ? undefined : { baseUrl },
      id: "1",
      params: {},
    } as unknown as Parameters<typeof onResponse>[0]);
    return found.map((r) => r.operation?.path ?? r.violations[0]!.message);
  };

  it("is the URL's path below the client's base URL; else the call's template; else the URL", async () => {
    expect(await respond("https://small.example.com/v1/h", "/nope", "https://small.example.com/v1/")).toEqual(["/h"]);
    expect(await respond("https://small.example.com/v1/h", "/h", "https://other.example.com/v1")).toEqual(["/h"]);
    expect(await respond("https://small.example.com/v1/h", "/h", "not a url")).toEqual(["/h"]);
    expect(await respond("https://small.example.com/v1/h", "/h", undefined)).toEqual(["/h"]);
    expect(await respond("https://small.example.com/v1/h", "", undefined)).toEqual(["/h"]);
    expect(await respond("https://small.example.com/v2/h", "", "https://small.example.com/v1")).toEqual([
      "GET https://small.example.com/v2/h is not an operation of the spec",
    ]);
    expect(await respond("https://small.example.com/v1h", "", "https://small.example.com/v1")).toEqual([
      "GET https://small.example.com/v1h is not an operation of the spec",
    ]);
  });
});
