// A response's headers against the ones its status documents: reading a header from a fetch Headers or a plain map
// without copying it, converting the header's text to the JSON type its schema declares before validating it, and the
// one rule across headers (a documented …-Remaining count never above its …-Limit sibling's).
import { deref, isObject, type JsonObject, type OpenApiDocument } from "../openapi/document.js";
import { schemaTypes } from "../openapi/schema.js";
import type { ResponseCheck } from "./response-check.js";
import { type CompiledPair, type SchemaCompiler, schemaErrors } from "./schemas.js";
import type { HeadersLike } from "./types.js";

/** The JSON types a schema declares, which decide how a header's or a parameter's text is converted. */
export interface DeclaredTypes {
  integer: boolean;
  number: boolean;
  string: boolean;
  boolean: boolean;
  array: boolean;
}

/** A documented response header, resolved once per response key. */
export interface ResolvedHeader extends DeclaredTypes {
  /** Lower case. */
  name: string;
  required: boolean;
  schema: unknown;
  cacheKey: string;
  /** Compiled on first use. */
  compiled?: CompiledPair;
}

/** The types `schema` declares (src/openapi's reading: `$ref`s followed, `allOf` parts together). */
export function declaredTypes(document: OpenApiDocument, schema: unknown): DeclaredTypes {
  const types = schemaTypes(document, schema, { declaredOnly: true }) ?? new Set<string>();
  const has = (type: string) => types.has(type);
  return {
    integer: has("integer"),
    number: has("number"),
    string: has("string"),
    boolean: has("boolean"),
    array: has("array"),
  };
}

/** The headers a response object documents (Content-Type aside: the content check owns it), `$ref`s followed. */
export function documentedHeaders(document: OpenApiDocument, response: JsonObject, cacheKey: string): ResolvedHeader[] {
  return Object.entries(isObject(response.headers) ? response.headers : {}).flatMap(([name, raw]): ResolvedHeader[] => {
    const header = deref(document, raw);
    if (!header || name.toLowerCase() === "content-type") return [];
    return [
      {
        name: name.toLowerCase(),
        required: header.required === true,
        schema: header.schema,
        cacheKey: `${cacheKey} header ${name}`,
        ...declaredTypes(document, header.schema),
      },
    ];
  });
}

type FetchHeaders = { get(name: string): string | null; forEach(cb: (value: string, name: string) => void): void };

function isFetchHeaders(headers: HeadersLike): headers is FetchHeaders {
  return (
    typeof (headers as { get?: unknown }).get === "function" &&
    typeof (headers as { forEach?: unknown }).forEach === "function"
  );
}

function headerText(value: string | string[] | number | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(", ") : String(value);
}

/**
 * Case-insensitive header lookup over a fetch Headers or a plain map, without copying it.
 * `name` is lower case. A plain map is read directly by the lower-case name first; otherwise the
 * last key that matches case-insensitively wins.
 */
export function readHeader(headers: HeadersLike | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const record = headers as Record<string, string | string[] | number | undefined>;
  let value = record[name];
  // A plain map's field read at once (most reads); a Fetch Headers holds no field as a property of its own.
  if (value !== undefined && typeof value !== "function") return headerText(value);
  if (isFetchHeaders(headers)) return headers.get(name) ?? undefined;
  if (value === undefined) {
    for (const key in record) {
      // The length first: a header that is absent (most optional ones) compares no lower-cased copy of any key.
      if (key.length === name.length && Object.hasOwn(record, key) && key.toLowerCase() === name) value = record[key];
    }
  }
  return headerText(value);
}

const INTEGER_TEXT = /^-?\d+$/;
export const NOT_CONVERTIBLE: unique symbol = Symbol("not convertible");

/**
 * Header and parameter values are text; converts one to the JSON type its schema declares (integer, then
 * number, then boolean; otherwise the string itself). NOT_CONVERTIBLE when the schema allows
 * only numbers and the text is not one (see conversionError for the message).
 */
export function coerceText(raw: string, header: DeclaredTypes): unknown {
  if (!header.integer && !header.number && !header.boolean) return raw;
  const text = raw.trim();
  if (header.integer) {
    if (INTEGER_TEXT.test(text)) return Number(text);
    if (!header.number && !header.string) return NOT_CONVERTIBLE;
  }
  if (header.number) {
    if (text !== "" && Number.isFinite(Number(text))) return Number(text);
    if (!header.string) return NOT_CONVERTIBLE;
  }
  if (header.boolean && (text === "true" || text === "false")) return text === "true";
  return raw;
}

export function conversionError(raw: string, header: DeclaredTypes): string {
  return header.integer && !header.number && !header.string
    ? `must be an integer, got ${JSON.stringify(raw)}`
    : `must be a number, got ${JSON.stringify(raw)}`;
}

/** One documented header of the response: present when required, and valid by its schema once converted. */
function checkHeader(check: ResponseCheck, header: ResolvedHeader, compiler: SchemaCompiler): void {
  const raw = readHeader(check.input.headers, header.name);
  const pointer = `/${header.name}`;
  if (raw === undefined) {
    if (header.required) check.add("missing-header", "headers", pointer, `required header ${header.name} is missing`);
    return;
  }
  if (header.schema === undefined) return;
  const value = coerceText(raw, header);
  if (value === NOT_CONVERTIBLE) {
    check.add("invalid-header", "headers", pointer, `header ${header.name} ${conversionError(raw, header)}`);
    return;
  }
  header.compiled ??= compiler.compile(header.cacheKey, header.schema);
  if (header.compiled.fast(value)) return;
  for (const error of schemaErrors(header.compiled, value)) {
    const reason = error.message.replace(/^\(root\) /, "");
    check.add("invalid-header", "headers", pointer, `header ${header.name} ${reason}`);
  }
}

/** The count (an integer ≥ 0) a header holds; undefined when it holds something else (its schema reports that). */
const countOf = (raw: string | undefined): number | undefined =>
  raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw) : undefined;

/**
 * Each documented `…-Remaining` header whose count exceeds its documented `…-Limit` sibling's
 * (X-RateLimit-Remaining above X-RateLimit-Limit): as message tails, with the header's name.
 */
function remainingAboveLimit(
  documented: ResolvedHeader[],
  headers: HeadersLike | undefined,
): Array<{ name: string; tail: string }> {
  const found: Array<{ name: string; tail: string }> = [];
  for (const [name, limitName] of limitPairsOf(documented)) {
    const remaining = countOf(readHeader(headers, name));
    const limit = countOf(readHeader(headers, limitName));
    if (remaining !== undefined && limit !== undefined && remaining > limit)
      found.push({ name, tail: `header ${name} (${remaining}) exceeds ${limitName} (${limit})` });
  }
  return found;
}

/** The …-Remaining/…-Limit name pairs of a response's documented headers, worked out once per response. */
const limitPairs = new WeakMap<ResolvedHeader[], Array<[string, string]>>();
function limitPairsOf(documented: ResolvedHeader[]): Array<[string, string]> {
  let pairs = limitPairs.get(documented);
  if (!pairs) {
    const names = new Set(documented.map((header) => header.name));
    pairs = [...names]
      .map((name): [string, string] => [name, name.replace(/-remaining$/, "-limit")])
      .filter(([name, limitName]) => limitName !== name && names.has(limitName));
    limitPairs.set(documented, pairs);
  }
  return pairs;
}

/** Every documented header of the response, in document order, then the …-Remaining/…-Limit rule. */
export function checkHeaders(check: ResponseCheck, documented: ResolvedHeader[], compiler: SchemaCompiler): void {
  for (const header of documented) checkHeader(check, header, compiler);
  for (const { name, tail } of remainingAboveLimit(documented, check.input.headers)) {
    check.add("invalid-header", "headers", `/${name}`, tail);
  }
}
