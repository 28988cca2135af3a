// Walking JSON Schemas of a bundled document: the schemas that apply to one value ($refs followed, allOf
// merged, and anyOf/oneOf too for a union view), what they say about an object's keys and an array's items,
// the JSON types a value may have and the closed set of values it may take. The validator, the mock, the
// verifier, the release comparer and the tests all read schemas through here.
import { deref, isObject, type JsonObject, type OpenApiDocument } from "./document.js";

interface FlattenOptions {
  /** Also merge anyOf/oneOf branches (a union view: "which keys can any branch document?"). Default false. */
  alternatives?: boolean;
}

/** The schemas whose constraints apply to one value: `schema` itself, every `$ref` followed, `allOf` flattened. */
export function flattenSchema(
  document: OpenApiDocument,
  schema: unknown,
  options: FlattenOptions = {},
  out: JsonObject[] = [],
  depth = 0,
): JsonObject[] {
  const resolved = deref(document, schema);
  if (!resolved || depth > 64) return out;
  out.push(resolved);
  const keywords = options.alternatives ? (["allOf", "anyOf", "oneOf"] as const) : (["allOf"] as const);
  for (const keyword of keywords) {
    const branches = resolved[keyword];
    if (Array.isArray(branches))
      for (const branch of branches) flattenSchema(document, branch, options, out, depth + 1);
  }
  return out;
}

/** What flattened schemas say about a value's keys and items. Child schemas are raw (flatten them when needed). */
export interface SchemaView {
  /** Schemas declared per property name. */
  properties: Map<string, unknown[]>;
  /** Names some schema requires. */
  required: Set<string>;
  /** True when a schema forbids undeclared keys (`additionalProperties` or `unevaluatedProperties` false). */
  closed: boolean;
  /** Schemas of `additionalProperties`/`patternProperties` that document any key (maps). */
  maps: unknown[];
  /** Item schemas (`items`, `prefixItems`). */
  items: unknown[];
  /** False when nothing about the object's keys is declared (an open, undescribed value). */
  describesKeys: boolean;
}

/** The view of `schema` (flattened with `options`). */
export function schemaView(document: OpenApiDocument, schema: unknown, options: FlattenOptions = {}): SchemaView {
  return viewOfSchemas(flattenSchema(document, schema, options));
}

/** The view of schemas that are already flattened. */
export function viewOfSchemas(schemas: readonly JsonObject[]): SchemaView {
  const view: SchemaView = {
    properties: new Map(),
    required: new Set(),
    closed: false,
    maps: [],
    items: [],
    describesKeys: false,
  };
  for (const schema of schemas) {
    if (isObject(schema.properties)) {
      view.describesKeys = true;
      for (const [name, child] of Object.entries(schema.properties)) {
        const list = view.properties.get(name) ?? [];
        list.push(child);
        view.properties.set(name, list);
      }
    }
    if (Array.isArray(schema.required)) for (const name of schema.required) view.required.add(String(name));
    if (schema.additionalProperties === false || schema.unevaluatedProperties === false) view.closed = true;
    if (isObject(schema.additionalProperties) && Object.keys(schema.additionalProperties).length > 0) {
      view.describesKeys = true;
      view.maps.push(schema.additionalProperties);
    }
    if (isObject(schema.patternProperties)) {
      view.describesKeys = true;
      view.maps.push(...Object.values(schema.patternProperties));
    }
    if (schema.items !== undefined && typeof schema.items !== "boolean") view.items.push(schema.items);
    if (Array.isArray(schema.prefixItems)) view.items.push(...schema.prefixItems);
  }
  return view;
}

// ---------------------------------------------------------------- types and closed values

/** The JSON type of a value, as a schema's `type` names it ("integer" aside: see withIntegers). */
function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

/** A number type allows the integers: "integer" is added where "number" is, so an intersection keeps them. */
function withIntegers(types: Set<string>): Set<string> {
  if (types.has("number")) types.add("integer");
  return types;
}

function intersection(a: Set<string>, b: Set<string>): Set<string> {
  return new Set([...a].filter((type) => b.has(type)));
}

/** The types one schema declares itself: its `type`, else (unless only `type` counts) the type of its `const`. */
function declaredTypes(schema: JsonObject, options: TypeOptions): Set<string> | undefined {
  if (schema.type !== undefined)
    return withIntegers(new Set((Array.isArray(schema.type) ? schema.type : [schema.type]).map(String)));
  if ("const" in schema && !options.declaredOnly) return withIntegers(new Set([jsonTypeOf(schema.const)]));
  return undefined;
}

interface TypeOptions {
  /**
   * Read only the `type` keywords of the allOf parts: a `const` alone and anyOf/oneOf branches name no type.
   * The verifier's negative cases use this (a wrong-type case only where a type is written). Default false.
   */
  declaredOnly?: boolean;
}

/** The types any branch allows; undefined when a branch allows any type (the branches then constrain none). */
function branchTypes(
  document: OpenApiDocument,
  branches: unknown[],
  options: TypeOptions,
  depth: number,
): Set<string> | undefined {
  const union = new Set<string>();
  for (const branch of branches) {
    const types = typesAtDepth(document, flattenSchema(document, branch), options, depth + 1);
    if (!types) return undefined;
    for (const type of types) union.add(type);
  }
  return union;
}

function typesAtDepth(
  document: OpenApiDocument,
  schemas: readonly JsonObject[],
  options: TypeOptions,
  depth: number,
): Set<string> | undefined {
  if (depth > 32) return undefined;
  let types: Set<string> | undefined;
  for (const part of schemas) {
    let own = declaredTypes(part, options);
    for (const keyword of options.declaredOnly ? [] : (["anyOf", "oneOf"] as const)) {
      const branches = part[keyword];
      const union = Array.isArray(branches) ? branchTypes(document, branches, options, depth) : undefined;
      if (union) own = own ? intersection(own, union) : union;
    }
    if (own) types = types ? intersection(types, own) : own;
  }
  return types;
}

/**
 * The JSON types a value described by already flattened `schemas` may have: every part's `type` (or its
 * `const`'s type) intersected, anyOf/oneOf allowing any branch's; "integer" wherever "number" is.
 * Undefined when nothing constrains the type.
 */
export function typesOfSchemas(
  document: OpenApiDocument,
  schemas: readonly JsonObject[],
  options: TypeOptions = {},
): Set<string> | undefined {
  return typesAtDepth(document, schemas, options, 0);
}

/** The JSON types a value of `schema` may have (see typesOfSchemas), or undefined for any. */
export function schemaTypes(
  document: OpenApiDocument,
  schema: unknown,
  options: TypeOptions = {},
): Set<string> | undefined {
  return typesOfSchemas(document, flattenSchema(document, schema), options);
}

/** The closed set of values already flattened `schemas` allow (an `enum`, or a `const`; the last part's wins). */
export function closedValuesOfSchemas(schemas: readonly JsonObject[]): unknown[] | undefined {
  let values: unknown[] | undefined;
  for (const part of schemas) {
    if (Array.isArray(part.enum)) values = part.enum;
    if ("const" in part) values = [part.const];
  }
  return values;
}

/** The closed set of values `schema` allows (enum or const), or undefined when it is open. */
export function closedValues(document: OpenApiDocument, schema: unknown): unknown[] | undefined {
  return closedValuesOfSchemas(flattenSchema(document, schema));
}
