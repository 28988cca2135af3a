// A request's parameters (query, header and path) against the ones its operation documents: present when required,
// and valid by their schemas once their text is converted to the JSON types the schemas declare (as response headers
// are, headers.ts). A query key given more than once is an array for an array schema and a refusal otherwise. Cookie
// parameters are not read (nothing in the contract has one).
import { type JsonObject, type OpenApiDocument, type Operation, isObject } from "../openapi/document.js";
import { flattenSchema } from "../openapi/schema.js";
import {
  coerceText,
  conversionError,
  type DeclaredTypes,
  declaredTypes,
  NOT_CONVERTIBLE,
  readHeader,
} from "./headers.js";
import type { SchemaCompiler } from "./schemas.js";
import type { ContractViolation, HeadersLike } from "./types.js";

/** The parts of a request its parameters are read from. */
interface RequestParts {
  query: URLSearchParams;
  headers: HeadersLike | undefined;
  /** The path parameters' values in the request's path (decoded). */
  path: Record<string, string>;
}

interface ParameterContext {
  document: OpenApiDocument;
  compiler: SchemaCompiler;
  /** Where compiled schemas are cached: the operation's key. */
  operationKey: string;
}

type Location = "query" | "headers" | "path";

const LOCATIONS: Record<string, Location | undefined> = { query: "query", header: "headers", path: "path" };

/** The texts a request gives for `parameter`; undefined when it gives none, null when a templated path names it. */
function textsOf(parameter: JsonObject, parts: RequestParts): string[] | undefined | null {
  const name = String(parameter.name);
  if (parameter.in === "query") {
    const texts = parts.query.getAll(name);
    return texts.length > 0 ? texts : undefined;
  }
  if (parameter.in === "header") {
    const text = readHeader(parts.headers, name.toLowerCase());
    return text === undefined ? undefined : [text];
  }
  const text = parts.path[name];
  // A templated path (`/quotes/{quoteId}`) names the parameter instead of giving it: nothing to judge.
  if (text === `{${name}}`) return null;
  return text === undefined ? undefined : [text];
}

/** The declared types of each schema of each document, worked out once: a parameter's are read per request. */
const typesCache = new WeakMap<OpenApiDocument, WeakMap<object, DeclaredTypes>>();
function typesOf(document: OpenApiDocument, schema: unknown): DeclaredTypes {
  if (!isObject(schema)) return declaredTypes(document, schema);
  let bySchema = typesCache.get(document);
  if (!bySchema) {
    bySchema = new WeakMap();
    typesCache.set(document, bySchema);
  }
  let types = bySchema.get(schema);
  if (!types) {
    types = declaredTypes(document, schema);
    bySchema.set(schema, types);
  }
  return types;
}

/** The schema of an array parameter's items (the first declared), or undefined. */
function itemsOf(document: OpenApiDocument, schema: unknown): unknown {
  return flattenSchema(document, schema).find((part) => part.items !== undefined)?.items;
}

/** The JSON value of a parameter's texts, or why they have none. */
function convertedValue(
  document: OpenApiDocument,
  schema: unknown,
  texts: string[],
): { value: unknown } | { why: string } {
  const types = typesOf(document, schema);
  if (types.array) {
    const itemTypes = typesOf(document, itemsOf(document, schema));
    const items = texts.map((text) => coerceText(text, itemTypes));
    const wrong = items.indexOf(NOT_CONVERTIBLE);
    return wrong < 0 ? { value: items } : { why: `item ${wrong} ${conversionError(texts[wrong]!, itemTypes)}` };
  }
  if (texts.length > 1) return { why: `is given ${texts.length} times; it takes one value` };
  const value = coerceText(texts[0]!, types);
  return value === NOT_CONVERTIBLE ? { why: conversionError(texts[0]!, types) } : { value };
}

/** One documented parameter of the request: present when required, valid by its schema once converted. */
function checkParameter(context: ParameterContext, parameter: JsonObject, parts: RequestParts): ContractViolation[] {
  const location = LOCATIONS[String(parameter.in)];
  if (!location) return [];
  const texts = textsOf(parameter, parts);
  // Most parameters are optional and absent (the signing headers): nothing more to work out for them.
  if (texts === null || (texts === undefined && parameter.required !== true)) return [];
  const name = parameter.in === "header" ? String(parameter.name).toLowerCase() : String(parameter.name);
  const violation = (kind: ContractViolation["kind"], tail: string): ContractViolation => ({
    kind,
    location,
    pointer: `/${name}`,
    message: `${parameter.in} parameter ${name} ${tail}`,
  });
  if (texts === undefined) return [violation("missing-parameter", "is required")];
  if (!isObject(parameter.schema)) return [];
  const converted = convertedValue(context.document, parameter.schema, texts);
  if ("why" in converted) return [violation("invalid-parameter", converted.why)];
  const cacheKey = `${context.operationKey} parameter ${parameter.in} ${name}`;
  return context.compiler
    .validate(cacheKey, parameter.schema, converted.value)
    .map((error) => violation("invalid-parameter", error.message.replace(/^\(root\) /, "")));
}

/** Every documented parameter of `operation` in the request, in document order. */
export function checkParameters(
  document: OpenApiDocument,
  compiler: SchemaCompiler,
  operation: Operation,
  parts: RequestParts,
): ContractViolation[] {
  const context = { document, compiler, operationKey: operation.key };
  const violations: ContractViolation[] = [];
  for (const parameter of operation.parameters) violations.push(...checkParameter(context, parameter, parts));
  return violations;
}
