// The tests' view of the bundled contract (generated/openapi.json), on the one OpenAPI module (src/openapi).
// Nothing here repeats a value of the spec: everything is looked up, or imported from generated/.
import { readFileSync } from "node:fs";
import { type ContractValidator, createContractValidator } from "../../src/contract/index.js";
import {
  deref,
  firstExample,
  isObject,
  type JsonObject,
  jsonMedia,
  listOperations,
  multipartMedia,
  namedExamples,
  type OpenApiDocument,
  type Operation,
  successKey as successKeyOf,
} from "../../src/openapi/index.js";
import { BUNDLE_JSON, ROOT } from "../../scripts/lib/paths.js";
import { sampleRequest } from "../../src/verify/cases.js";

export {
  API_KEY_HEADER,
  BASE_PATH,
  RATE_LIMIT_HEADERS,
  SIGNING_HEADERS,
  WEBHOOK_SIGNATURE_HEADER,
} from "../../generated/client-meta.js";
export { deref, isObject, type JsonObject, jsonMedia, namedExamples as mediaExamples };
export const repoRoot = ROOT;

let cachedSpec: OpenApiDocument | undefined;
export function loadSpec(): OpenApiDocument {
  cachedSpec ??= JSON.parse(readFileSync(BUNDLE_JSON, "utf8")) as OpenApiDocument;
  return cachedSpec;
}

let cachedValidator: ContractValidator | undefined;
export function sharedValidator(): ContractValidator {
  cachedValidator ??= createContractValidator(loadSpec());
  return cachedValidator;
}

export interface SpecOperation extends Operation {
  operationId: string;
}

/** Every operation of the spec (each must have an operationId). */
export function listSpecOperations(spec: OpenApiDocument = loadSpec()): SpecOperation[] {
  return listOperations(spec).map((operation) => {
    if (operation.operationId === undefined) throw new Error(`${operation.key} has no operationId`);
    return { ...operation, operationId: operation.operationId };
  });
}

/** The success (lowest 2xx) response key of an operation. */
export function successKey(op: Pick<Operation, "responses" | "key">): string {
  const key = successKeyOf(op);
  if (key === undefined) throw new Error(`${op.key}: no 2xx response documented`);
  return key;
}

/** An example value for a parameter (its example, else its schema's example, const or first enum value), or none. */
export function parameterExample(spec: OpenApiDocument, parameter: JsonObject): unknown {
  const example = firstExample(spec, parameter);
  return example.found ? example.value : undefined;
}

export interface SampleRequest {
  method: string;
  /** Concrete path relative to the base URL, with query string. */
  path: string;
  headers: Record<string, string>;
  /** Text of the body, if any: JSON, or multipart/form-data (Upload Invoice Document) as verify sends it. */
  body: string | undefined;
  /** The example the body came from. */
  bodyExample: string | undefined;
  /** The example's value (a multipart body's fields), if any. */
  bodyValue?: unknown;
  /** Whether the body is multipart/form-data (its content-type header carries the boundary). */
  multipart?: boolean;
}

/** A request built only from the spec's examples. Throws when the spec lacks an example it needs. */
export function buildSampleRequest(
  spec: OpenApiDocument,
  op: SpecOperation,
  options: { includeOptionalQuery?: boolean } = {},
): SampleRequest {
  let concrete = op.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = { accept: "application/json" };
  for (const parameter of op.parameters) {
    const value = parameterExample(spec, parameter);
    if (parameter.in === "path") {
      if (value === undefined)
        throw new Error(`${op.operationId}: path parameter ${String(parameter.name)} has no example`);
      concrete = concrete.replace(`{${String(parameter.name)}}`, encodeURIComponent(String(value)));
    } else if (
      parameter.in === "query" &&
      value !== undefined &&
      (parameter.required === true || options.includeOptionalQuery)
    ) {
      query.set(String(parameter.name), String(value));
    } else if (parameter.in === "query" && parameter.required === true) {
      throw new Error(`${op.operationId}: required query parameter ${String(parameter.name)} has no example`);
    }
  }
  let body: string | undefined;
  let bodyExample: string | undefined;
  let bodyValue: unknown;
  const multipart = op.requestBody && !jsonMedia(op.requestBody) ? multipartMedia(op.requestBody) : undefined;
  if (op.requestBody) {
    const [first] = namedExamples(spec, multipart ?? jsonMedia(op.requestBody));
    if (!first) throw new Error(`${op.operationId}: request body has no example`);
    bodyExample = first.name;
    bodyValue = first.value;
    if (multipart) {
      // The multipart text and its boundary as verify sends them (one way to write one, src/verify/cases.ts).
      const sent = sampleRequest(spec, op);
      body = sent.body;
      headers["content-type"] = sent.headers["content-type"]!;
    } else {
      body = JSON.stringify(first.value);
      headers["content-type"] = "application/json";
    }
  }
  const qs = query.toString();
  const path = qs ? `${concrete}?${qs}` : concrete;
  return { method: op.method, path, headers, body, bodyExample, bodyValue, multipart: multipart !== undefined };
}

/** Request body schema of an operation (JSON), if any. */
export function requestBodySchema(op: Pick<Operation, "requestBody">): unknown {
  return jsonMedia(op.requestBody)?.schema;
}

/** The first example of an operation's 200 JSON response. */
export function successExample(operationId: string): Record<string, unknown> {
  const op = listSpecOperations().find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  const [first] = namedExamples(loadSpec(), jsonMedia(op.responses[successKey(op)]));
  if (!first) throw new Error(`no example for ${operationId}`);
  return first.value as Record<string, unknown>;
}

/** The first example of an operation's JSON request body. */
export function requestExample<T = Record<string, unknown>>(operationId: string): T {
  const op = listSpecOperations().find((o) => o.operationId === operationId);
  const [first] = namedExamples(loadSpec(), jsonMedia(op?.requestBody) ?? multipartMedia(op?.requestBody));
  if (!first) throw new Error(`no request example for ${operationId}`);
  return first.value as T;
}

/** operationId of `METHOD /path/template`, looked up in the spec. */
export function operationIdOf(method: string, path: string): string {
  const op = listSpecOperations().find((o) => o.method === method.toUpperCase() && o.path === path);
  if (!op) throw new Error(`no operation ${method} ${path}`);
  return op.operationId;
}

/** The example of each rate-limit header of components.headers (limit, remaining, reset), by lower-cased name. */
export function rateLimitExamples(spec: OpenApiDocument = loadSpec()): Record<string, number> {
  const headers = (spec.components?.headers ?? {}) as Record<string, JsonObject>;
  return Object.fromEntries(
    Object.entries(headers).map(([name, header]) => [name.toLowerCase(), Number(header.example)]),
  );
}
