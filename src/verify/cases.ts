// The cases of a contract verification, derived from the contract alone: one positive case per operation
// (a request built from the spec's examples, which must be answered 2xx with a conforming response) and
// negative cases (a missing key, bodies and queries that break one rule, malformed JSON), each of which
// must be refused with a 4xx that conforms to the contract.
import { firstExample, isObject, type JsonObject, jsonMedia, namedExamples, type OpenApiDocument, type Operation } from "../openapi/document.js";
import { flattenSchema, schemaView } from "../openapi/schema.js";

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
  /** Path parameters the request needs a real value for on a live target (their example is a placeholder). */
  pathParameters: string[];
}

/** Operations limited by a quota of their own (an x-rate-limits entry naming them), e.g. Create Quote's hourly one. */
export function hasOwnQuota(operation: Operation): boolean {
  const limits = Array.isArray(operation.operation["x-rate-limits"]) ? (operation.operation["x-rate-limits"] as JsonObject[]) : [];
  return limits.some((limit) => String(limit.appliesTo ?? "").toUpperCase() === operation.key.toUpperCase());
}

/**
 * A request built only from the spec's examples; `params` overrides path and query values. Throws when a
 * required input has neither a value nor an example.
 */
export function sampleRequest(
  spec: OpenApiDocument,
  operation: Operation,
  params: Record<string, string> = {},
  includeOptionalQuery = true,
): CaseRequest {
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
      if (value !== undefined && (parameter.required === true || includeOptionalQuery || name in params)) query.set(name, value);
      else if (parameter.required === true) throw new Error(`${label}: required query parameter ${name} has no example`);
    }
  }
  let body: string | undefined;
  if (operation.requestBody) {
    const [first] = namedExamples(spec, jsonMedia(operation.requestBody));
    if (first) {
      body = JSON.stringify(first.value);
      headers["content-type"] = "application/json";
    } else if (operation.requestBody.required === true) throw new Error(`${label}: the required request body has no example`);
  }
  const qs = query.toString();
  return { method: operation.method, path: qs ? `${concrete}?${qs}` : concrete, headers, body };
}

const pathParametersOf = (operation: Operation): string[] => operation.parameters.filter((p) => p.in === "path").map((p) => String(p.name));

export function positiveCases(spec: OpenApiDocument, operations: Operation[], params: Record<string, string> = {}): VerifyCase[] {
  return operations.map((operation) => ({
    name: `${operation.operationId ?? operation.key}: ${operation.method} ${operation.path}`,
    operation,
    kind: "positive",
    request: sampleRequest(spec, operation, params),
    withoutKey: false,
    pathParameters: pathParametersOf(operation),
  }));
}

interface ValueFacts {
  /** Declared JSON types (intersection); undefined when none is declared. */
  types: Set<string> | undefined;
  /** A closed enum (or const), if any. */
  closedEnum: unknown[] | undefined;
}

function factsOf(spec: OpenApiDocument, schema: unknown): ValueFacts {
  let types: Set<string> | undefined;
  let closedEnum: unknown[] | undefined;
  for (const part of flattenSchema(spec, schema)) {
    if (part.type !== undefined) {
      const declared = new Set((Array.isArray(part.type) ? part.type : [part.type]) as string[]);
      if (declared.has("number")) declared.add("integer");
      types = types ? new Set([...types].filter((t) => declared.has(t))) : declared;
    }
    if (Array.isArray(part.enum)) closedEnum = part.enum;
    if ("const" in part) closedEnum = [part.const];
  }
  return { types, closedEnum };
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

/** Requests that break one rule each: a missing key, a query outside its enum or type, an invalid or malformed body. */
export function negativeCases(spec: OpenApiDocument, operations: Operation[], params: Record<string, string> = {}): VerifyCase[] {
  const cases: VerifyCase[] = [];
  for (const operation of operations) {
    const label = operation.operationId ?? operation.key;
    const sample = sampleRequest(spec, operation, params, false);
    const add = (name: string, request: CaseRequest, extra: Partial<VerifyCase> = {}) =>
      cases.push({
        name: `${label}: ${name}`,
        operation,
        kind: "negative",
        request,
        withoutKey: false,
        pathParameters: pathParametersOf(operation),
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
      if (facts.types && !facts.types.has("string") && facts.types.has("integer")) withQuery("of the wrong type", "not-a-number");
    }
    const schema = jsonMedia(operation.requestBody)?.schema;
    if (schema === undefined || sample.body === undefined) continue;
    const valid = JSON.parse(sample.body) as JsonObject;
    const view = schemaView(spec, schema);
    const withBody = (name: string, body: unknown, text = JSON.stringify(body)) => add(name, { ...sample, body: text }, { invalidBody: body });
    for (const [property, schemas] of view.properties) {
      const facts = schemas
        .map((child) => factsOf(spec, child))
        .reduce<ValueFacts>((a, b) => ({ types: b.types ?? a.types, closedEnum: b.closedEnum ?? a.closedEnum }), {
          types: undefined,
          closedEnum: undefined,
        });
      if (facts.closedEnum) withBody(`${property} outside its enum`, { ...valid, [property]: outsideEnum(facts.closedEnum) });
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
