// Walking JSON Schemas of a bundled document: the schemas that apply to one value ($refs followed, allOf
// merged, and anyOf/oneOf too for a union view), and what they say about an object's keys and an array's items.
import { deref, isObject, type JsonObject, type OpenApiDocument } from "./document.js";

export interface FlattenOptions {
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
