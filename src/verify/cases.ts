// The cases of a contract verification, derived from the contract alone: one positive case per operation
// (a request built from the spec's examples, which must be answered 2xx with a conforming response) and
// negative cases (a missing key, bodies and queries that break one rule, malformed JSON), each of which
// must be refused with a 4xx that conforms to the contract.
import {
  firstExample,
  isObject,
  type JsonObject,
  jsonMedia,
  multipartMedia,
  namedExamples,
  type OpenApiDocument,
  type Operation,
} from "../openapi/document.js";
import { closedValues, schemaTypes, schemaView } from "../openapi/schema.js";

export interface CaseRequest {
  method: string;
  /** Concrete path relative to the base URL, with the query string. */
  path: string;
  headers: Record<string, string>;
  /** The body's text, if any. */
  body: string | undefined;
}

export interface VerifyCase {
  name: string;
  operation: Operation;
  kind: "positive" | "negative";
  request: CaseRequest;
  /** Sent without the API key: the request must be refused for that reason. */
  withoutKey: boolean;
  /** The parsed invalid body a negative case sends (JSON), for checking it really is invalid. */
  invalidBody?: unknown;
  /**
   * Path parameters the request needs a real value for on a deployment: those whose example is a placeholder
   * (an id), not a value the spec itself documents (see documentedValues).
   */
  pathParameters: string[];
}

/** The x-rate-limits entry that names `operation` itself (its own quota, e.g. Create Quote's hourly one), if any. */
export function ownQuotaOf(operation: Operation): JsonObject | undefined {
  const limits = Array.isArray(operation.operation["x-rate-limits"])
    ? (operation.operation["x-rate-limits"] as JsonObject[])
    : [];
  return limits.find((limit) => String(limit.appliesTo ?? "").toUpperCase() === operation.key.toUpperCase());
}

/** Operations limited by a quota of their own (an x-rate-limits entry naming them), e.g. Create Quote's hourly one. */
export const hasOwnQuota = (operation: Operation): boolean => ownQuotaOf(operation) !== undefined;

/** The boundary of the multipart/form-data bodies verify sends (fixed: a case sends the same bytes every run). */
const MULTIPART_BOUNDARY = "api-contract-verify-part";

/**
 * An example of a multipart/form-data body (an object: one part per field, its value as text) as the body's text.
 * A field that is not a string is sent as its JSON.
 */
function multipartText(example: unknown, boundary: string): string {
  const fields = isObject(example) ? Object.entries(example) : [];
  const parts = fields.map(([name, value]) => {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    const disposition = `Content-Disposition: form-data; name="${name.replace(/["\r\n]/g, "_")}"`;
    return `--${boundary}\r\n${disposition}\r\n\r\n${text}\r\n`;
  });
  return `${parts.join("")}--${boundary}--\r\n`;
}

/** Values a run gives in place of the spec's examples. */
export interface CaseInputs {
  /** Path and query values, by parameter name. */
  params?: Record<string, string>;
  /** Whole JSON request bodies, by operationId (what verify prepares on the package's sandbox). */
  bodies?: Record<string, unknown>;
}

/**
 * A request built only from the spec's examples; `inputs` overrides path and query values and JSON bodies. Throws
 * when a required input has neither a value nor an example.
 */
export function sampleRequest(
  spec: OpenApiDocument,
  operation: Operation,
  inputs: CaseInputs = {},
  includeOptionalQuery = true,
): CaseRequest {
  const params = inputs.params ?? {};
  let concrete = operation.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = { accept: "application/json" };
  const label = operation.operationId ?? operation.key;
  for (const parameter of operation.parameters) {
    const name = String(parameter.name);
    const example = firstExample(spec, parameter);
    const value = params[name] ?? (example.found ? String(example.value) : undefined);
    if (parameter.in === "path") {
      if (value === undefined) throw new Error(`${label}: path parameter ${name} has no example (pass a value)`);
      concrete = concrete.replace(`{${name}}`, encodeURIComponent(value));
    } else if (parameter.in === "query") {
      if (value !== undefined && (parameter.required === true || includeOptionalQuery || name in params))
        query.set(name, value);
      else if (parameter.required === true)
        throw new Error(`${label}: required query parameter ${name} has no example`);
    }
  }
  let body: string | undefined;
  if (operation.requestBody) {
    const json = jsonMedia(operation.requestBody);
    const multipart = json ? undefined : multipartMedia(operation.requestBody);
    const [first] = namedExamples(spec, json ?? multipart);
    const given = operation.operationId === undefined ? undefined : inputs.bodies?.[operation.operationId];
    if (json && given !== undefined) {
      body = JSON.stringify(given);
      headers["content-type"] = "application/json";
    } else if (first && multipart) {
      body = multipartText(first.value, MULTIPART_BOUNDARY);
      headers["content-type"] = `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`;
    } else if (first) {
      body = JSON.stringify(first.value);
      headers["content-type"] = "application/json";
    } else if (operation.requestBody.required === true)
      throw new Error(`${label}: the required request body has no example`);
  }
  const qs = query.toString();
  return { method: operation.method, path: qs ? `${concrete}?${qs}` : concrete, headers, body };
}

const documentedValuesOf = new WeakMap<OpenApiDocument, Set<string>>();

/**
 * The strings the spec lists as the allowed values of a schema (an enum member or a const): values the
 * description itself names, such as the currency codes USDT and NGNX, unlike the made-up ids of examples.
 * Examples are not read: they are what is in question.
 */
export function documentedValues(spec: OpenApiDocument): Set<string> {
  let values = documentedValuesOf.get(spec);
  if (values) return values;
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) visit(item);
    if (!isObject(node)) return;
    if (Array.isArray(node.enum)) for (const value of node.enum) if (typeof value === "string") found.add(value);
    if (typeof node.const === "string") found.add(node.const);
    for (const [key, value] of Object.entries(node)) if (key !== "example" && key !== "examples") visit(value);
  };
  visit(spec);
  values = found;
  documentedValuesOf.set(spec, values);
  return values;
}

/** The path parameters whose example may name nothing that exists on a deployment: it is no documented value. */
function placeholderPathParameters(spec: OpenApiDocument, operation: Operation): string[] {
  const documented = documentedValues(spec);
  return operation.parameters
    .filter((parameter) => parameter.in === "path")
    .filter((parameter) => {
      const example = firstExample(spec, parameter);
      return !(example.found && typeof example.value === "string" && documented.has(example.value));
    })
    .map((parameter) => String(parameter.name));
}

export function positiveCases(spec: OpenApiDocument, operations: Operation[], inputs: CaseInputs = {}): VerifyCase[] {
  return operations.map((operation) => ({
    name: `${operation.operationId ?? operation.key}: ${operation.method} ${operation.path}`,
    operation,
    kind: "positive",
    request: sampleRequest(spec, operation, inputs),
    withoutKey: false,
    pathParameters: placeholderPathParameters(spec, operation),
  }));
}

/** What a value's schema says (through src/openapi): the JSON types it allows and its closed values. */
interface ValueFacts {
  /** The declared JSON types; undefined when none is declared. */
  types: Set<string> | undefined;
  /** An enum (or const), if any. */
  closedEnum: unknown[] | undefined;
}

function factsOf(spec: OpenApiDocument, schema: unknown): ValueFacts {
  // Types as written (`type` only): a const alone gets the outside-enum case, not a wrong-type one too.
  return { types: schemaTypes(spec, schema, { declaredOnly: true }), closedEnum: closedValues(spec, schema) };
}

/** A value of a JSON type the declared types do not accept. */
function wrongTypeValue(types: Set<string>): unknown {
  if (!types.has("string")) return `not-a-${[...types].join("-or-")}`;
  if (!types.has("number") && !types.has("integer")) return 12345;
  return { unexpected: true };
}

function outsideEnum(values: unknown[]): string {
  let outside = "NOT_A_DOCUMENTED_VALUE";
  while (values.includes(outside)) outside += "_";
  return outside;
}

/** A multipart/form-data body's cases: its documented example without each required part (as sent, with its name). */
function multipartCases(spec: OpenApiDocument, operation: Operation): Array<[name: string, body: string]> {
  const media = jsonMedia(operation.requestBody) ? undefined : multipartMedia(operation.requestBody);
  const [first] = namedExamples(spec, media);
  if (!media || !first || !isObject(first.value)) return [];
  const example = first.value;
  return [...schemaView(spec, media.schema).required]
    .filter((part) => part in example)
    .map((part) => {
      const { [part]: _removed, ...rest } = example;
      return [`required part ${part} missing`, multipartText(rest, MULTIPART_BOUNDARY)];
    });
}

/** Requests that break one rule each: a missing key, a query outside its enum or type, an invalid or malformed body. */
export function negativeCases(spec: OpenApiDocument, operations: Operation[], inputs: CaseInputs = {}): VerifyCase[] {
  const cases: VerifyCase[] = [];
  for (const operation of operations) {
    const label = operation.operationId ?? operation.key;
    const sample = sampleRequest(spec, operation, inputs, false);
    const add = (name: string, request: CaseRequest, extra: Partial<VerifyCase> = {}) =>
      cases.push({
        name: `${label}: ${name}`,
        operation,
        kind: "negative",
        request,
        withoutKey: false,
        pathParameters: placeholderPathParameters(spec, operation),
        ...extra,
      });
    if (operation.security === "required") add("without API key", sample, { withoutKey: true });
    for (const parameter of operation.parameters.filter((p) => p.in === "query")) {
      const facts = factsOf(spec, parameter.schema);
      const withQuery = (why: string, value: string) => {
        const url = new URL(sample.path, "http://placeholder.invalid");
        url.searchParams.set(String(parameter.name), value);
        add(`query ${String(parameter.name)} ${why}`, { ...sample, path: `${url.pathname}${url.search}` });
      };
      if (facts.closedEnum) withQuery("outside its enum", outsideEnum(facts.closedEnum));
      if (facts.types && !facts.types.has("string") && facts.types.has("integer"))
        withQuery("of the wrong type", "not-a-number");
    }
    for (const [name, body] of multipartCases(spec, operation)) add(name, { ...sample, body });
    const schema = jsonMedia(operation.requestBody)?.schema;
    if (schema === undefined || sample.body === undefined) continue;
    const valid = JSON.parse(sample.body) as JsonObject;
    const view = schemaView(spec, schema);
    const withBody = (name: string, body: unknown, text = JSON.stringify(body)) =>
      add(name, { ...sample, body: text }, { invalidBody: body });
    for (const [property, schemas] of view.properties) {
      // A property declared by several parts is all of them at once.
      const facts = factsOf(spec, schemas.length === 1 ? schemas[0] : { allOf: schemas });
      if (facts.closedEnum)
        withBody(`${property} outside its enum`, { ...valid, [property]: outsideEnum(facts.closedEnum) });
      if (facts.types) withBody(`${property} of the wrong type`, { ...valid, [property]: wrongTypeValue(facts.types) });
    }
    for (const property of view.required) {
      if (!isObject(valid) || !(property in valid)) continue;
      const { [property]: _removed, ...rest } = valid;
      withBody(`required ${property} missing`, rest);
    }
    if (view.closed) withBody("an unknown field", { ...valid, unknownField: "x" });
    withBody("malformed JSON", undefined, `${sample.body.slice(0, Math.max(1, sample.body.length - 1))},`);
  }
  return cases;
}
