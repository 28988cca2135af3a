// Shared test helper: the bundled spec (generated/openapi.json) and ONE ajv (draft 2020-12) instance of
// its own that knows the whole document, so any schema inside it can be compiled by JSON pointer. The
// ajv instance is the tests' oracle on purpose: it does not rest on the product's validator. Reading
// the document (pointers, $refs, operations, parameters) is src/openapi's job, used here as is.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import addFormatsPkg from "ajv-formats";
import { BUNDLE_JSON, ROOT } from "../../scripts/lib/paths.js";
import {
  deref,
  escapePointerToken,
  type HTTP_METHODS,
  isObject,
  type JsonObject,
  listOperations,
  type OpenApiDocument,
  type Operation,
  pointerTokens,
  refOf,
  resolvePointer,
} from "../../src/openapi/index.js";

const addFormats = addFormatsPkg.default;

export type HttpMethod = (typeof HTTP_METHODS)[number];

export type SecurityRequirement = Record<string, string[]>;

/**
 * The file the tests read: generated/openapi.json, or under vitest only, the file named by the
 * environment variable SPEC_FILE (relative to the repository root), so that a test can be shown to
 * fail on a broken copy of the bundle without touching generated/.
 */
const specFile = process.env.VITEST && process.env.SPEC_FILE ? path.resolve(ROOT, process.env.SPEC_FILE) : BUNDLE_JSON;

/** The parsed bundle. Loaded once per test file (module scope). */
export const spec: OpenApiDocument = JSON.parse(readFileSync(specFile, "utf8")) as OpenApiDocument;

/** Absolute id under which the whole document is registered in ajv. */
const SPEC_ID = "https://contract.test/openapi.json";

// ---------------------------------------------------------------- JSON pointers

/** The value at a local JSON pointer, without following any `$ref`; throws when nothing is there. */
export function at(pointer: string): unknown {
  const value = resolvePointer(spec, pointer);
  if (value === undefined) throw new Error(`Nothing at ${pointer}`);
  return value;
}

/**
 * Rewrites a pointer so that it does not pass through a `$ref` object (e.g. a response given as
 * `$ref: '#/components/responses/X'`): each intermediate `$ref` is followed. The final node is left
 * as is (ajv resolves schema `$ref`s itself).
 */
export function canonicalPointer(pointer: string): string {
  let current: string[] = [];
  let node: unknown = spec;
  for (const token of pointerTokens(pointer)) {
    for (let hops = 0; isObject(node) && typeof node.$ref === "string" && !(token in node); hops++) {
      if (hops > 20) throw new Error(`$ref loop at ${pointer}`);
      current = pointerTokens(node.$ref);
      node = at(node.$ref);
    }
    node = Array.isArray(node)
      ? node[Number(token)]
      : isObject(node) && Object.hasOwn(node, token)
        ? node[token]
        : undefined;
    if (node === undefined) throw new Error(`Nothing at ${pointer} (missing "${token}")`);
    current.push(token);
  }
  return refOf(current);
}

/** Follows the local `$ref`s of a response / parameter / requestBody / header / security scheme object. */
export function resolved<T = JsonObject>(value: unknown): T | undefined {
  return deref<T>(spec, value);
}

// ---------------------------------------------------------------- operations

const operations = listOperations(spec);

/** The operation `METHOD path` (path-level and operation-level parameters merged, everything dereferenced). */
export function operation(method: HttpMethod, path: string): Operation {
  const found = operations.find((candidate) => candidate.key === `${method.toUpperCase()} ${path}`);
  if (!found) throw new Error(`No ${method.toUpperCase()} ${path} in the spec`);
  return found;
}

/** Every declared operation, as `METHOD /path`. */
export function operationKeys(): string[] {
  return operations.map((candidate) => candidate.key);
}

/** Effective security of an operation (its own, else the document's). */
export function securityOf(method: HttpMethod, path: string): SecurityRequirement[] | undefined {
  return (operation(method, path).operation.security ?? spec.security) as SecurityRequirement[] | undefined;
}

/** Pointer to the schema of a declared parameter (operation-level first, then path-level), through `$ref`s. */
export function parameterSchemaPointer(method: HttpMethod, path: string, location: string, name: string): string {
  for (const holder of [refOf(["paths", path, method]), refOf(["paths", path])]) {
    const list = resolvePointer(spec, `${holder}/parameters`);
    if (!Array.isArray(list)) continue;
    for (const [index, raw] of list.entries()) {
      const parameter = resolved(raw);
      if (parameter?.in === location && parameter.name === name)
        return canonicalPointer(`${holder}/parameters/${index}/schema`);
    }
  }
  throw new Error(`No ${location} parameter "${name}" on ${method.toUpperCase()} ${path}`);
}

export function responseSchemaPointer(
  method: HttpMethod,
  path: string,
  status = "200",
  mediaType = "application/json",
): string {
  return canonicalPointer(refOf(["paths", path, method, "responses", status, "content", mediaType, "schema"]));
}

export function requestBodySchemaPointer(method: HttpMethod, path: string, mediaType = "application/json"): string {
  return canonicalPointer(refOf(["paths", path, method, "requestBody", "content", mediaType, "schema"]));
}

/** Pointer to a component schema, by name. */
export function componentSchemaPointer(name: string): string {
  return refOf(["components", "schemas", name]);
}

// ---------------------------------------------------------------- ajv

const ajv = new Ajv2020({
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
function validatorAt(pointer: string): ValidateFunction {
  const canonical = canonicalPointer(pointer);
  const cached = validators.get(canonical);
  if (cached) return cached;
  at(canonical); // fail early and clearly if nothing is there
  // ajv takes the fragment URI-encoded.
  const uriFragment = `#${pointerTokens(canonical)
    .map((token) => `/${encodeURIComponent(escapePointerToken(token))}`)
    .join("")}`;
  let validator: ValidateFunction;
  try {
    validator = ajv.compile({ $ref: SPEC_ID + uriFragment });
  } catch (error) {
    throw new Error(`Cannot compile the schema at ${canonical}: ${(error as Error).message}`, { cause: error });
  }
  validators.set(canonical, validator);
  return validator;
}

interface ValidationResult {
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
