// Shared test helper: the bundled spec (generated/openapi.json) and ONE ajv (draft 2020-12)
// instance that knows the whole document, so any schema inside it can be compiled by JSON pointer.
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import addFormatsPkg from "ajv-formats";

const addFormats = addFormatsPkg.default;

export type HttpMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";

export type SecurityRequirement = Record<string, string[]>;

export interface OpenApiOperation {
  operationId?: string;
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
  security?: SecurityRequirement[];
  [key: string]: unknown;
}

export interface OpenApiParameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  security?: SecurityRequirement[];
  [key: string]: unknown;
}

export const specUrl = new URL("../../generated/openapi.json", import.meta.url);

/** The parsed bundle. Loaded once per test file (module scope). */
export const spec: OpenApiDocument = JSON.parse(readFileSync(specUrl, "utf8")) as OpenApiDocument;

/** Absolute id under which the whole document is registered in ajv. */
const SPEC_ID = "https://contract.test/openapi.json";

// ---------------------------------------------------------------- JSON pointers

const escapeSegment = (segment: string): string => segment.replace(/~/g, "~0").replace(/\//g, "~1");
const unescapeSegment = (segment: string): string => decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~");

/** Builds a local JSON pointer (`#/a/b~1c`) from raw segments. */
export function jsonPointer(...segments: string[]): string {
  return `#${segments.map((segment) => `/${escapeSegment(segment)}`).join("")}`;
}

function segmentsOf(pointer: string): string[] {
  if (pointer === "#" || pointer === "") return [];
  if (!pointer.startsWith("#/")) throw new Error(`Not a local JSON pointer: ${pointer}`);
  return pointer.slice(2).split("/").map(unescapeSegment);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The value at a local JSON pointer, without following any `$ref`. */
export function at(pointer: string): unknown {
  let node: unknown = spec;
  for (const segment of segmentsOf(pointer)) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isObject(node)) node = node[segment];
    else node = undefined;
    if (node === undefined) throw new Error(`Nothing at ${pointer} (missing "${segment}")`);
  }
  return node;
}

/**
 * Rewrites a pointer so that it does not pass through a `$ref` object (e.g. a response given as
 * `$ref: '#/components/responses/X'`): each intermediate `$ref` is followed. The final node is left
 * as is (ajv resolves schema `$ref`s itself).
 */
export function canonicalPointer(pointer: string): string {
  let current: string[] = [];
  let node: unknown = spec;
  for (const segment of segmentsOf(pointer)) {
    let hops = 0;
    while (isObject(node) && typeof node.$ref === "string" && !(segment in node)) {
      if (++hops > 20) throw new Error(`$ref loop at ${pointer}`);
      current = segmentsOf(node.$ref);
      node = at(node.$ref);
    }
    node = Array.isArray(node) ? node[Number(segment)] : isObject(node) ? node[segment] : undefined;
    if (node === undefined) throw new Error(`Nothing at ${pointer} (missing "${segment}")`);
    current.push(segment);
  }
  return jsonPointer(...current);
}

/** Follows local `$ref`s of a response / parameter / requestBody / header object. */
export function resolveRef<T = Record<string, unknown>>(object: unknown): T {
  let node = object;
  for (let hops = 0; isObject(node) && typeof node.$ref === "string"; hops++) {
    if (hops > 20) throw new Error(`$ref loop at ${String(node.$ref)}`);
    node = at(node.$ref);
  }
  return node as T;
}

// ---------------------------------------------------------------- operations

export function operation(method: HttpMethod, path: string): OpenApiOperation {
  const pathItem = spec.paths[path];
  if (!pathItem) throw new Error(`No path ${path} in the spec`);
  const op = pathItem[method];
  if (!isObject(op)) throw new Error(`No ${method.toUpperCase()} ${path} in the spec`);
  return op as OpenApiOperation;
}

/** Path-level and operation-level parameters, resolved, operation-level ones winning. */
export function parametersOf(method: HttpMethod, path: string): OpenApiParameter[] {
  const pathItem = spec.paths[path] ?? {};
  const merged = new Map<string, OpenApiParameter>();
  const pathLevel = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
  for (const raw of [...pathLevel, ...(operation(method, path).parameters ?? [])]) {
    const parameter = resolveRef<OpenApiParameter>(raw);
    merged.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...merged.values()];
}

/** Effective security of an operation (its own, else the document's). */
export function securityOf(method: HttpMethod, path: string): SecurityRequirement[] | undefined {
  return operation(method, path).security ?? spec.security;
}

/** Pointer to the schema of a declared parameter (path-level or operation-level), through `$ref`s. */
export function parameterSchemaPointer(method: HttpMethod, path: string, location: string, name: string): string {
  const candidates: string[] = [];
  const operationParameters = operation(method, path).parameters ?? [];
  operationParameters.forEach((_, index) => candidates.push(jsonPointer("paths", path, method, "parameters", String(index))));
  const pathLevel = spec.paths[path]?.parameters;
  if (Array.isArray(pathLevel)) pathLevel.forEach((_, index) => candidates.push(jsonPointer("paths", path, "parameters", String(index))));
  for (const candidate of candidates) {
    const parameter = resolveRef<OpenApiParameter>(at(candidate));
    if (parameter.in === location && parameter.name === name) return canonicalPointer(`${candidate}/schema`);
  }
  throw new Error(`No ${location} parameter "${name}" on ${method.toUpperCase()} ${path}`);
}

export function responseSchemaPointer(method: HttpMethod, path: string, status = "200", mediaType = "application/json"): string {
  return canonicalPointer(jsonPointer("paths", path, method, "responses", status, "content", mediaType, "schema"));
}

export function requestBodySchemaPointer(method: HttpMethod, path: string, mediaType = "application/json"): string {
  return canonicalPointer(jsonPointer("paths", path, method, "requestBody", "content", mediaType, "schema"));
}

// ---------------------------------------------------------------- ajv

export const ajv = new Ajv2020({
  // The document mixes schema and non-schema keywords (openapi, paths, example, x-*): tolerate them.
  strict: false,
  allErrors: true,
  // Under strict: false ajv only warns about, and then ignores, an unknown format: make that an error
  // (thrown from compile, so ajv caches nothing and every later compile of that schema fails too).
  logger: {
    log: () => undefined,
    warn: (...args: unknown[]) => {
      throw new Error(`ajv: ${args.map(String).join(" ")}`);
    },
    error: (...args: unknown[]) => {
      throw new Error(`ajv: ${args.map(String).join(" ")}`);
    },
  },
});
addFormats(ajv);
// OpenAPI's own formats.
const isInt = (min: number, max: number) => (value: number) => Number.isInteger(value) && value >= min && value <= max;
ajv.addFormat("int32", { type: "number", validate: isInt(-(2 ** 31), 2 ** 31 - 1) });
ajv.addFormat("int64", { type: "number", validate: isInt(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER) });
ajv.addFormat("float", { type: "number", validate: (value: number) => Number.isFinite(value) });
ajv.addFormat("double", { type: "number", validate: (value: number) => Number.isFinite(value) });
ajv.addSchema(spec as object, SPEC_ID);

const validators = new Map<string, ValidateFunction>();

/** A compiled (and cached) validator for the schema at a JSON pointer into the document. */
export function validatorAt(pointer: string): ValidateFunction {
  const canonical = canonicalPointer(pointer);
  const cached = validators.get(canonical);
  if (cached) return cached;
  at(canonical); // fail early and clearly if nothing is there
  const uriFragment =
    "#" +
    segmentsOf(canonical)
      .map((segment) => `/${encodeURIComponent(escapeSegment(segment))}`)
      .join("");
  let validator: ValidateFunction;
  try {
    validator = ajv.compile({ $ref: SPEC_ID + uriFragment });
  } catch (error) {
    throw new Error(`Cannot compile the schema at ${canonical}: ${(error as Error).message}`, { cause: error });
  }
  validators.set(canonical, validator);
  return validator;
}

export interface ValidationResult {
  valid: boolean;
  errors: ErrorObject[];
}

export function validate(pointer: string, value: unknown): ValidationResult {
  const validator = validatorAt(pointer);
  const valid = validator(value);
  return { valid, errors: valid ? [] : [...(validator.errors ?? [])] };
}

/** One line per error, for assertion messages. */
export function formatErrors(errors: ErrorObject[]): string {
  return errors.map((error) => `${error.instancePath || "/"} ${error.message ?? error.keyword}`).join("; ");
}
