// The check every error answer of the mock and of the ./msw handlers passes: its body is the error body the
// contract documents for its status (the published shape: message, errors with message and property), its
// message names the cause, and its findings are those of its sl-violations header, one item each.
import { expect } from "vitest";
import { SchemaCompiler } from "../../src/contract/schemas.js";
import { deref, jsonMedia, listOperations, responseKeyFor } from "../../src/openapi/index.js";
import { type JsonObject, loadSpec } from "./spec.js";

const spec = loadSpec();
const compiler = new SchemaCompiler(spec);

/** The schema of the error answer the contract's operations document for `status` (the first that does). */
function errorSchemaFor(status: number): unknown {
  for (const operation of listOperations(spec)) {
    const key = responseKeyFor(operation.responses, status);
    const schema = key === undefined ? undefined : jsonMedia(operation.responses[key])?.schema;
    if (schema !== undefined) return schema;
  }
  throw new Error(`the contract documents no JSON error answer for ${status}`);
}

interface PublishedErrorBody {
  message: string;
  errors: Array<{ message: string; property?: unknown }>;
}

/**
 * Checks `body` (parsed JSON) as the error answer of `status`: it matches the documented error body, its message
 * matches `cause`, it has at least one finding, and, when the answer's `sl-violations` header is given, one finding
 * per violation with the violation's message. Returns the body, typed.
 */
export function expectErrorBody(
  body: unknown,
  status: number,
  cause: RegExp,
  violationsHeader?: string | null,
): PublishedErrorBody {
  const errors = compiler.validate(`error answer ${status}`, errorSchemaFor(status), body);
  expect(errors, `the documented error body of ${status}: ${JSON.stringify(body)}`).toEqual([]);
  const published = body as PublishedErrorBody;
  expect(published.message).toMatch(cause);
  expect(published.errors?.length, "at least one finding").toBeGreaterThan(0);
  for (const finding of published.errors) expect(finding.message.length).toBeGreaterThan(0);
  if (violationsHeader !== undefined) {
    const violations = JSON.parse(violationsHeader ?? "[]") as JsonObject[];
    expect(published.errors.map((finding) => finding.message)).toEqual(violations.map((v) => v.message));
  }
  return published;
}

/** A request one of the fronts refuses, what it must answer, and where its findings are (`property`). */
interface ErrorCase {
  name: string;
  /**
   * Both fronts, or only the HTTP mock: what only a transport or Prism refuses, and a path or method no operation
   * has (no ./msw handler matches it: msw passes it on).
   */
  fronts: "both" | "mock";
  method: string;
  /** Relative to the base URL. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  status: number;
  cause: RegExp;
  /** The `property` of each finding, in order (undefined: none), when the case knows them. */
  properties?: Array<string | undefined>;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The query parameters of the contract whose schema `accepts` says takes a kind of value, with their operation. */
function queryParameters(accepts: (schema: JsonObject) => boolean) {
  return listOperations(spec).flatMap((operation) =>
    operation.parameters
      .filter((parameter) => parameter.in === "query" && accepts(deref(spec, parameter.schema) ?? {}))
      .map((parameter) => ({ operation, name: String(parameter.name) })),
  );
}

/**
 * One request for each refusal of the fronts, built from the contract (`keyHeader`: the API key's header name;
 * `maxBodyBytes`: the HTTP mock's body limit in the test).
 */
export function errorCases(keyHeader: string, maxBodyBytes: number): ErrorCase[] {
  const operations = listOperations(spec);
  const keyed = operations.find((o) => o.security === "required" && o.method === "GET" && !o.path.includes("{"))!;
  const withBody = operations.find((o) => o.requestBody?.required === true)!;
  const optionalBody = operations.find((o) => o.requestBody && o.requestBody.required !== true)!;
  const integer = queryParameters((schema) => schema.type === "integer")[0]!;
  const enumerated = queryParameters((schema) => Array.isArray(schema.enum))[0]!;
  const key = { [keyHeader]: "k" };
  const json = { ...key, "content-type": "application/json" };
  const concrete = (path: string) => path.replace(/\{[^}]+\}/g, "x");
  const post = (path: string, body: string, headers: Record<string, string> = json) => ({
    method: "POST",
    path: concrete(path),
    headers,
    body,
  });
  return [
    {
      name: "a keyed operation without its key: 401",
      fronts: "both",
      ...{ method: "GET", path: keyed.path, headers: {} },
      status: 401,
      cause: new RegExp(`^the operation requires the ${escaped(keyHeader)} header$`),
      properties: [keyHeader],
    },
    {
      name: `a query parameter of the wrong type (${integer.name}=x): 422`,
      fronts: "both",
      ...{ method: integer.operation.method, path: `${concrete(integer.operation.path)}?${integer.name}=x` },
      headers: key,
      status: 422,
      cause: new RegExp(`^query parameter ${escaped(integer.name)} must be an integer`),
      properties: [integer.name],
    },
    {
      name: `a query value outside its enum (${enumerated.name}=NOPE): 422`,
      fronts: "both",
      ...{
        method: enumerated.operation.method,
        path: `${concrete(enumerated.operation.path)}?${enumerated.name}=NOPE`,
      },
      headers: key,
      status: 422,
      cause: new RegExp(`^query parameter ${escaped(enumerated.name)} must be one of `),
      properties: [enumerated.name],
    },
    {
      name: "a body with a field its schema does not have: 422, at the field's pointer",
      fronts: "both",
      ...post(withBody.path, JSON.stringify({ unknownField: 1 })),
      status: 422,
      cause: /^request body: /,
    },
    {
      name: "a required body left out: 422",
      fronts: "both",
      ...{ method: withBody.method, path: concrete(withBody.path), headers: key },
      status: 422,
      cause: /^request body is required$/,
      properties: [undefined],
    },
    {
      name: "malformed JSON: 400",
      fronts: "both",
      ...post(withBody.path, "{"),
      status: 400,
      cause: /^the body is not valid JSON \(.+\)$/,
      properties: [undefined],
    },
    {
      name: "a whitespace-only JSON body: 400",
      fronts: "both",
      ...post(withBody.path, " \n "),
      status: 400,
      cause: /^the JSON body is only whitespace$/,
    },
    {
      name: "a falsy JSON body where the body is optional: 422",
      fronts: "both",
      ...post(optionalBody.path, "0"),
      status: 422,
      cause: /^a JSON body that is null, false, 0 or "" is not an absent body$/,
    },
    {
      name: "a path no operation has: 404",
      fronts: "mock",
      ...{ method: "GET", path: "/no/such/path", headers: key },
      status: 404,
      cause: /^no operation of the contract has the path .*\/no\/such\/path$/,
    },
    {
      name: "a method the path does not have: 405",
      fronts: "mock",
      ...{ method: "DELETE", path: keyed.path, headers: key },
      status: 405,
      cause: new RegExp(`^DELETE is not an operation of .*${escaped(keyed.path)}$`),
    },
    {
      name: "a malformed Prefer: 422",
      fronts: "both",
      ...{ method: "GET", path: keyed.path, headers: { ...key, prefer: "code=abc" } },
      status: 422,
      cause: /^Prefer: code must be a three-digit status, got "abc"$/,
    },
    {
      name: "Prefer: example=<a name the operation lacks>: 404",
      fronts: "both",
      ...{ method: "GET", path: keyed.path, headers: { ...key, prefer: "example=no-such-example" } },
      status: 404,
      cause: /NOT_FOUND|the contract documents no such answer/,
    },
    {
      name: "a body of a media type the operation does not take: 415",
      fronts: "both",
      ...post(withBody.path, "text", { ...key, "content-type": "text/plain" }),
      status: 415,
      cause: /^the body's content type text\/plain is not one of the operation's content types \(application\/json\)$/,
    },
    {
      name: "a body over the size limit: 413",
      fronts: "mock",
      ...post(withBody.path, JSON.stringify({ pad: "x".repeat(maxBodyBytes) })),
      status: 413,
      cause: new RegExp(`^the body is larger than ${maxBodyBytes} bytes$`),
    },
  ];
}

/** Checks a front's answer to `errorCase`: its status, the published body naming the cause, its findings' places. */
export async function expectErrorCase(response: Response, errorCase: ErrorCase): Promise<PublishedErrorBody> {
  expect(response.status, errorCase.name).toBe(errorCase.status);
  expect(response.headers.get("content-type"), errorCase.name).toMatch(/json/);
  const violations = response.headers.get("sl-violations");
  const body = expectErrorBody(await response.json(), errorCase.status, errorCase.cause, violations);
  if (errorCase.properties) expect(body.errors.map((finding) => finding.property)).toEqual(errorCase.properties);
  return body;
}
