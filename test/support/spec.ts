// Reads generated/openapi.json for the tests: operations, examples, parameters, schemas.
// Nothing here repeats a value of the spec: everything is looked up.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createContractValidator, type ContractValidator, type OpenApiDocument } from "../../src/contract/index.js";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

let cachedSpec: OpenApiDocument | undefined;
export function loadSpec(): OpenApiDocument {
  cachedSpec ??= JSON.parse(readFileSync(path.join(repoRoot, "generated", "openapi.json"), "utf8")) as OpenApiDocument;
  return cachedSpec;
}

let cachedValidator: ContractValidator | undefined;
export function sharedValidator(): ContractValidator {
  cachedValidator ??= createContractValidator(loadSpec());
  return cachedValidator;
}

/** Follows local $refs of any object of the document. */
export function deref(spec: OpenApiDocument, value: unknown, depth = 0): unknown {
  if (!isObject(value) || typeof value.$ref !== "string") return value;
  if (depth > 32) throw new Error(`ref chain too deep: ${value.$ref}`);
  const target = value.$ref
    .slice(2)
    .split("/")
    .map((t) => decodeURIComponent(t).replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, key) => (isObject(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined), spec);
  if (target === undefined) throw new Error(`unresolvable $ref ${value.$ref}`);
  return deref(spec, target, depth + 1);
}

export interface SpecOperation {
  operationId: string;
  method: string;
  /** Templated path, relative to the server base path. */
  path: string;
  operation: JsonObject;
  parameters: JsonObject[];
  requestBody: JsonObject | undefined;
  responses: Record<string, JsonObject>;
  security: "required" | "optional" | "none";
  /** Per-operation rate limit (x-rate-limits entry that names this operation), e.g. Create Quote's hourly quota. */
  hasOwnQuota: boolean;
}

const METHODS = ["get", "put", "post", "delete", "patch", "options", "head", "trace"];

export function listSpecOperations(spec: OpenApiDocument = loadSpec()): SpecOperation[] {
  const out: SpecOperation[] = [];
  for (const [p, rawItem] of Object.entries(spec.paths ?? {})) {
    const item = deref(spec, rawItem) as JsonObject;
    for (const method of METHODS) {
      const operation = deref(spec, item[method]);
      if (!isObject(operation)) continue;
      const parameters = [
        ...(Array.isArray(item.parameters) ? item.parameters : []),
        ...(Array.isArray(operation.parameters) ? operation.parameters : []),
      ].map((raw) => deref(spec, raw) as JsonObject);
      const requirements = (
        Array.isArray(operation.security) ? operation.security : Array.isArray(spec.security) ? spec.security : []
      ) as JsonObject[];
      const security =
        requirements.length === 0 || requirements.every((r) => Object.keys(r).length === 0)
          ? "none"
          : requirements.some((r) => Object.keys(r).length === 0)
            ? "optional"
            : "required";
      const limits = Array.isArray(operation["x-rate-limits"]) ? (operation["x-rate-limits"] as JsonObject[]) : [];
      out.push({
        operationId: String(operation.operationId),
        method: method.toUpperCase(),
        path: p,
        operation,
        parameters,
        requestBody: deref(spec, operation.requestBody) as JsonObject | undefined,
        responses: Object.fromEntries(Object.entries(operation.responses as JsonObject).map(([k, v]) => [k, deref(spec, v) as JsonObject])),
        security,
        hasOwnQuota: limits.some((limit) => String(limit.appliesTo ?? "").toUpperCase() === `${method.toUpperCase()} ${p}`.toUpperCase()),
      });
    }
  }
  return out;
}

/** The API-key header name of the document's apiKey-in-header scheme. */
export function apiKeyHeaderName(spec: OpenApiDocument = loadSpec()): string {
  const schemes = (spec.components?.securitySchemes ?? {}) as Record<string, JsonObject>;
  const scheme = Object.values(schemes).find((s) => s.type === "apiKey" && s.in === "header");
  if (!scheme) throw new Error("no apiKey header security scheme in the spec");
  return String(scheme.name);
}

/** Named examples of a media type object (resolved), in document order. */
export function mediaExamples(spec: OpenApiDocument, media: unknown): Array<{ name: string; value: unknown }> {
  if (!isObject(media)) return [];
  const out: Array<{ name: string; value: unknown }> = [];
  if (isObject(media.examples)) {
    for (const [name, raw] of Object.entries(media.examples)) {
      const example = deref(spec, raw) as JsonObject;
      if ("value" in example) out.push({ name, value: example.value });
    }
  }
  if ("example" in media) out.push({ name: "example", value: media.example });
  return out;
}

export function jsonMedia(container: JsonObject | undefined): JsonObject | undefined {
  const content = container && isObject(container.content) ? container.content : undefined;
  if (!content) return undefined;
  const key = Object.keys(content).find((k) => k === "application/json" || k.endsWith("+json"));
  return key ? (content[key] as JsonObject) : undefined;
}

/** The success (lowest 2xx) response key of an operation. */
export function successKey(op: SpecOperation): string {
  const key = Object.keys(op.responses)
    .filter((k) => /^2\d\d$/.test(k))
    .sort()[0];
  if (!key) throw new Error(`${op.operationId}: no 2xx response documented`);
  return key;
}

/** An example value for a parameter: its example(s), else its schema's example(s), const or first enum value. */
export function parameterExample(spec: OpenApiDocument, parameter: JsonObject): unknown {
  if ("example" in parameter) return parameter.example;
  if (isObject(parameter.examples)) {
    const first = Object.values(parameter.examples)[0];
    if (first !== undefined) return (deref(spec, first) as JsonObject).value;
  }
  const schema = deref(spec, parameter.schema) as JsonObject | undefined;
  if (schema) {
    if ("example" in schema) return schema.example;
    if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
    if ("const" in schema) return schema.const;
    if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  }
  return undefined;
}

export interface SampleRequest {
  method: string;
  /** Concrete path relative to the base URL, with query string. */
  path: string;
  headers: Record<string, string>;
  /** JSON text of the body, if any. */
  body: string | undefined;
  /** The example the body came from. */
  bodyExample: string | undefined;
}

/** A request built only from the spec's examples. Throws when the spec lacks an example it needs. */
export function buildSampleRequest(spec: OpenApiDocument, op: SpecOperation, options: { includeOptionalQuery?: boolean } = {}): SampleRequest {
  let concrete = op.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = { accept: "application/json" };
  for (const parameter of op.parameters) {
    const value = parameterExample(spec, parameter);
    if (parameter.in === "path") {
      if (value === undefined) throw new Error(`${op.operationId}: path parameter ${String(parameter.name)} has no example`);
      concrete = concrete.replace(`{${String(parameter.name)}}`, encodeURIComponent(String(value)));
    } else if (parameter.in === "query" && value !== undefined && (parameter.required === true || options.includeOptionalQuery)) {
      query.set(String(parameter.name), String(value));
    } else if (parameter.in === "query" && parameter.required === true) {
      throw new Error(`${op.operationId}: required query parameter ${String(parameter.name)} has no example`);
    }
  }
  let body: string | undefined;
  let bodyExample: string | undefined;
  if (op.requestBody) {
    const examples = mediaExamples(spec, jsonMedia(op.requestBody));
    const first = examples[0];
    if (!first) throw new Error(`${op.operationId}: request body has no example`);
    body = JSON.stringify(first.value);
    bodyExample = first.name;
    headers["content-type"] = "application/json";
  }
  const qs = query.toString();
  return { method: op.method, path: qs ? `${concrete}?${qs}` : concrete, headers, body, bodyExample };
}

/** Request body schema of an operation (JSON), if any. */
export function requestBodySchema(op: SpecOperation): unknown {
  const media = jsonMedia(op.requestBody);
  return media?.schema;
}
