// A request's query, header and path parameters against its operation's (validateRequestParameters): on the
// bundled contract (an integer query parameter, an enum query parameter, the signing headers, a path parameter:
// each found in generated/openapi.json, not named here), and on a small contract of its own for what the bundled
// one has none of (required parameters, an array query, a path pattern).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import { closedValues, isObject, type JsonObject, type OpenApiDocument } from "../../src/openapi/index.js";
import { createSigner } from "../../src/index.js";
import { BASE_PATH, listSpecOperations, loadSpec, SIGNING_HEADERS, sharedValidator } from "../support/spec.js";

const spec = loadSpec();
const validator = sharedValidator();
const operations = listSpecOperations(spec);

/** The first GET and its query parameter whose schema `holds`. */
function queryParameterWhere(holds: (schema: JsonObject) => boolean) {
  for (const operation of operations.filter((op) => op.method === "GET")) {
    const parameter = operation.parameters.find((p) => p.in === "query" && isObject(p.schema) && holds(p.schema));
    if (parameter)
      return { path: `${BASE_PATH}${operation.path}`, name: String(parameter.name), schema: parameter.schema };
  }
  throw new Error("no GET of the contract has such a query parameter");
}

const integerQuery = queryParameterWhere((schema) => schema.type === "integer");
const enumQuery = queryParameterWhere((schema) => closedValues(spec, schema) !== undefined);
const enumValues = (() => {
  const operation = operations.find((op) => `${BASE_PATH}${op.path}` === enumQuery.path)!;
  const parameter = operation.parameters.find((p) => p.name === enumQuery.name)!;
  return closedValues(spec, parameter.schema)!.map(String);
})();
const templated = operations.find((op) => op.method === "GET" && /\{[^}]+\}$/.test(op.path))!;
const concretePath = `${BASE_PATH}${templated.path.replace(/\{[^}]+\}$/, "c_1")}`;

/** The signing headers a real signer sends for a GET of `url`. */
async function signedHeaders(url: string): Promise<Record<string, string>> {
  const signature = await createSigner("secret", () => Date.UTC(2030, 0, 1))("GET", `http://x.test${url}`);
  return { [SIGNING_HEADERS.timestamp]: signature.timestamp, [SIGNING_HEADERS.signature]: signature.signature };
}

describe("on the bundled contract", () => {
  it("a valid request has no violations (query, signing headers, a path parameter, a templated path)", async () => {
    const withInteger = `${integerQuery.path}?${integerQuery.name}=2`;
    expect(validator.validateRequestParameters("GET", withInteger, await signedHeaders(withInteger))).toEqual([]);
    const withEnum = `${enumQuery.path}?${enumQuery.name}=${enumValues[0]}`;
    expect(validator.validateRequestParameters("GET", withEnum, new Headers(await signedHeaders(withEnum)))).toEqual(
      [],
    );
    expect(validator.validateRequestParameters("get", `http://x.test${concretePath}`)).toEqual([]);
    expect(validator.validateRequestParameters("GET", `${BASE_PATH}${templated.path}`)).toEqual([]);
  });

  it("an integer query parameter that is not one: invalid-parameter at its name, with the text", () => {
    expect(validator.validateRequestParameters("GET", `${integerQuery.path}?${integerQuery.name}=two`)).toEqual([
      {
        kind: "invalid-parameter",
        location: "query",
        pointer: `/${integerQuery.name}`,
        message: `query parameter ${integerQuery.name} must be an integer, got "two"`,
      },
    ]);
  });

  it("takes a URL object already parsed (or its pathname and searchParams) as it takes its text", () => {
    const wrong = `${integerQuery.path}?${integerQuery.name}=two`;
    const right = `${integerQuery.path}?${integerQuery.name}=2`;
    const parsed = (target: string) => new URL(target, "http://elsewhere.test");
    expect(validator.validateRequestParameters("GET", parsed(wrong))).toEqual(
      validator.validateRequestParameters("GET", wrong),
    );
    expect(validator.validateRequestParameters("GET", parsed(wrong))).toHaveLength(1);
    expect(validator.validateRequestParameters("GET", parsed(right))).toEqual([]);
    // Any object with the two fields it reads (RequestTarget) is taken as the URL is.
    const target = (text: string) => {
      const { pathname, searchParams } = parsed(text);
      return { pathname, searchParams };
    };
    expect(validator.validateRequestParameters("GET", target(wrong))).toEqual(
      validator.validateRequestParameters("GET", wrong),
    );
    expect(validator.validateRequestParameters("GET", target(right))).toEqual([]);
  });

  it("a query key given twice for a single value is refused, not judged by one of its values", () => {
    const twice = `${integerQuery.path}?${integerQuery.name}=1&${integerQuery.name}=1`;
    expect(validator.validateRequestParameters("GET", twice)).toEqual([
      {
        kind: "invalid-parameter",
        location: "query",
        pointer: `/${integerQuery.name}`,
        message: `query parameter ${integerQuery.name} is given 2 times; it takes one value`,
      },
    ]);
  });

  it("a value outside an enum, and a signing header against its schema, each reported by its schema", () => {
    const result = validator.validateRequestParameters("GET", `${enumQuery.path}?${enumQuery.name}=LOST`, {
      [SIGNING_HEADERS.signature.toUpperCase()]: "not-hex",
    });
    expect(result.map(({ kind, location, pointer }) => ({ kind, location, pointer }))).toEqual([
      { kind: "invalid-parameter", location: "query", pointer: `/${enumQuery.name}` },
      { kind: "invalid-parameter", location: "headers", pointer: `/${SIGNING_HEADERS.signature}` },
    ]);
    const listed = enumValues.map((value) => JSON.stringify(value)).join(", ");
    expect(result[0]!.message).toBe(`query parameter ${enumQuery.name} must be one of ${listed}`);
    expect(result[1]!.message).toMatch(new RegExp(`^header parameter ${SIGNING_HEADERS.signature} must match`));
  });

  it("an unknown operation is said so", () => {
    expect(validator.validateRequestParameters("GET", `${BASE_PATH}/nowhere`)).toEqual([
      {
        kind: "unknown-operation",
        location: "operation",
        pointer: "",
        message: `GET ${BASE_PATH}/nowhere is not an operation of the spec`,
      },
    ]);
  });

  it("any integer its schema allows passes and any text that is no integer is refused (property)", () => {
    const { minimum, maximum } = integerQuery.schema as { minimum?: number; maximum?: number };
    fc.assert(
      fc.property(fc.integer({ min: minimum, max: maximum }), (value) => {
        const url = `${integerQuery.path}?${integerQuery.name}=${value}`;
        expect(validator.validateRequestParameters("GET", url)).toEqual([]);
      }),
    );
    fc.assert(
      fc.property(
        fc.string().filter((text) => !/^-?\d+$/.test(text.trim())),
        (text) => {
          const url = `${integerQuery.path}?${new URLSearchParams({ [integerQuery.name]: text })}`;
          const [violation, ...rest] = validator.validateRequestParameters("GET", url);
          expect(rest).toEqual([]);
          expect(violation).toMatchObject({
            kind: "invalid-parameter",
            location: "query",
            pointer: `/${integerQuery.name}`,
          });
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
          { name: "raw", in: "query", schema: { type: "array" } },
          { name: "nums", in: "query", schema: { allOf: [{ type: "array" }, { items: { type: "integer" } }] } },
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

  it("names the first item that is not of the items' type, item 0 included", () => {
    expect(small.validateRequestParameters("GET", "/items/ABC?need=true&ids=x&ids=2", trace)).toEqual([
      {
        kind: "invalid-parameter",
        location: "query",
        pointer: "/ids",
        message: 'query parameter ids item 0 must be an integer, got "x"',
      },
    ]);
  });

  it("an array without items takes any texts; items declared in another allOf part still convert", () => {
    expect(small.validateRequestParameters("GET", "/items/ABC?need=true&raw=a&raw=1", trace)).toEqual([]);
    expect(small.validateRequestParameters("GET", "/items/ABC?need=true&nums=1&nums=2", trace)).toEqual([]);
    expect(small.validateRequestParameters("GET", "/items/ABC?need=true&nums=1&nums=x", trace)).toEqual([
      {
        kind: "invalid-parameter",
        location: "query",
        pointer: "/nums",
        message: 'query parameter nums item 1 must be an integer, got "x"',
      },
    ]);
  });

  it("a templated path names its parameter instead of giving it: not judged by the parameter's pattern", () => {
    expect(small.validateRequestParameters("GET", "/items/{code}?need=true", trace)).toEqual([]);
  });
});
