// Quotes the mock answers are valid at the moment of the answer, for as long as they say. The contract's
// example quote carries a fixed `expiryDate` that is soon in the past, so a client that checks it (the
// README's first example, `isQuoteExpired`) would never accept one. A quote's `expiresIn` is its validity in
// seconds (published on the service's Trading and Create Quote pages; 30 in the documented example). The
// request pipeline (pipeline.ts) of the mock and of the ./msw handlers writes every quote of an answer with
// `expiryDate` = the moment of the answer + the quote's own `expiresIn` seconds, in the spec's Timestamp
// convention (ISO 8601 UTC with milliseconds, as `Date.prototype.toISOString` writes it); every other field
// stays what the answer source gave. A quote whose `expiresIn` is not a number, or puts its expiry outside the
// years a Timestamp can write (0000-9999), keeps its `expiryDate`.
//
// Where quotes sit in an answer is read from the spec, not from an operation: the answer is walked along
// its response's schema (through $ref, allOf, anyOf, oneOf, properties, items and maps), and every value
// the Quote schema applies to is a quote. Responses whose schema cannot hold a quote are left untouched.
import type { components } from "../../generated/schema.js";
import {
  deref,
  isObject,
  type JsonObject,
  jsonMedia,
  type OpenApiDocument,
  type Operation,
  responseKeyFor,
} from "../openapi/document.js";
import { flattenSchema, type SchemaView, viewOfSchemas } from "../openapi/schema.js";

/**
 * The validity of the documented example's quote (its `expiresIn`, 30 s), in milliseconds.
 * @deprecated The mock no longer gives quotes a validity of its own: each quote expires its own `expiresIn`
 * seconds after its answer. Read the quote's `expiresIn` (or `expiryDate`) instead.
 */
export const MOCK_QUOTE_VALIDITY_MS = 30_000;

/** The schema of a quote, its expiry and its validity in seconds (names checked against the generated types). */
const QUOTE_SCHEMA = "Quote" satisfies keyof components["schemas"];
const EXPIRY_PROPERTY = "expiryDate" satisfies keyof components["schemas"]["Quote"];
const VALIDITY_PROPERTY = "expiresIn" satisfies keyof components["schemas"]["Quote"];

const MAX_DEPTH = 64;

/** The moments a Timestamp (four-digit years) can write. */
const FIRST_TIMESTAMP_MS = Date.parse("0000-01-01T00:00:00.000Z");
const LAST_TIMESTAMP_MS = Date.parse("9999-12-31T23:59:59.999Z");

/**
 * `now` + `seconds`, to the millisecond, as a Timestamp; undefined when `seconds` is no number or the moment has
 * no Timestamp (a year outside 0000-9999).
 */
function expiryOf(now: number, seconds: unknown): string | undefined {
  if (typeof seconds !== "number") return undefined;
  const expiry = Math.round(now + seconds * 1000);
  if (!(expiry >= FIRST_TIMESTAMP_MS && expiry <= LAST_TIMESTAMP_MS)) return undefined;
  return new Date(expiry).toISOString();
}

/** What the schemas that apply to one value say: whether it is a quote, and the schemas of its keys and items. */
interface SchemaNode {
  isQuote: boolean;
  view: SchemaView;
}

interface QuoteExpiry {
  /**
   * The body of an answer of `operation` with `status`, every quote in it expiring its own `expiresIn` seconds
   * after `now` (default: this moment). `body` itself is not changed; a body with no quote is returned as is.
   */
  refresh(operation: Pick<Operation, "responses">, status: number, body: unknown, now?: number): unknown;
}

/**
 * Finds the quotes of `spec`'s answers (none when the spec has no Quote schema with a date-time expiryDate).
 * A value is taken for a quote when the Quote schema applies to it (a union's branches included: a value in
 * a oneOf of Quote and something else is treated as a quote when it has an expiryDate).
 */
export function quoteExpiry(spec: OpenApiDocument): QuoteExpiry {
  const quote = deref(spec, spec.components?.schemas?.[QUOTE_SCHEMA]);
  const expirySchemas = quote ? viewOfSchemas(flattenSchema(spec, quote)).properties.get(EXPIRY_PROPERTY) : undefined;
  const isTimestamp = (expirySchemas ?? []).some((schema) =>
    flattenSchema(spec, schema).some((part) => part.format === "date-time"),
  );

  const nodes = new WeakMap<object, SchemaNode>();
  const nodeOf = (schema: unknown): SchemaNode | undefined => {
    if (!isObject(schema)) return undefined;
    let node = nodes.get(schema);
    if (!node) {
      const schemas = flattenSchema(spec, schema, { alternatives: true });
      node = { isQuote: quote !== undefined && schemas.includes(quote), view: viewOfSchemas(schemas) };
      nodes.set(schema, node);
    }
    return node;
  };
  const children = (view: SchemaView): unknown[] => [
    ...[...view.properties.values()].flat(),
    ...view.items,
    ...view.maps,
  ];
  /** Whether a value of `schema` can hold a quote (depth-first, every schema visited once). */
  const reachesQuote = (schema: unknown, visited: Set<SchemaNode>): boolean => {
    const node = nodeOf(schema);
    if (!node || visited.has(node)) return false;
    visited.add(node);
    return node.isQuote || children(node.view).some((child) => reachesQuote(child, visited));
  };
  /** `value` (of `schema`) with every quote in it expiring `expiresIn` seconds after `now`; `value` is not changed. */
  const withExpiry = (value: unknown, schema: unknown, now: number, depth: number): unknown => {
    const node = nodeOf(schema);
    if (!node || depth > MAX_DEPTH) return value;
    const apply = (item: unknown, schemas: unknown[]) =>
      schemas.reduce((current, child) => withExpiry(current, child, now, depth + 1), item);
    if (Array.isArray(value)) return value.map((item) => apply(item, node.view.items));
    if (!isObject(value)) return value;
    const copy = Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, apply(item, node.view.properties.get(key) ?? node.view.maps)]),
    );
    if (node.isQuote && Object.hasOwn(copy, EXPIRY_PROPERTY)) {
      const expiry = expiryOf(now, copy[VALIDITY_PROPERTY]);
      if (expiry !== undefined) copy[EXPIRY_PROPERTY] = expiry;
    }
    return copy;
  };

  const quoteSchemaOf = new WeakMap<JsonObject, { schema: unknown } | null>();
  /** The JSON schema of `response` when its values can hold a quote, else null. */
  const schemaHoldingQuotes = (response: JsonObject): { schema: unknown } | null => {
    let found = quoteSchemaOf.get(response);
    if (found === undefined) {
      const schema = jsonMedia(response)?.schema;
      found = quote && isTimestamp && reachesQuote(schema, new Set()) ? { schema } : null;
      quoteSchemaOf.set(response, found);
    }
    return found;
  };
  return {
    refresh(operation, status, body, now = Date.now()) {
      const key = responseKeyFor(operation.responses, status);
      const holding = key === undefined ? null : schemaHoldingQuotes(operation.responses[key]!);
      if (!holding || body === undefined) return body;
      return withExpiry(body, holding.schema, now, 0);
    },
  };
}
