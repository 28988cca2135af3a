// Strict mode: finds body fields that no schema documents (drift of a live server).
// Runs only on bodies that already passed validation, so it only has to know which property
// names each object schema declares; allOf/anyOf/oneOf branches are merged (a union).
import { escapePointerToken, isObject, resolvePointer, type JsonObject } from "./document.js";
import type { ContractWarning, OpenApiDocument } from "./types.js";

interface ObjectView {
  /** Schemas declared per property name. */
  properties: Map<string, unknown[]>;
  /** Schemas of `additionalProperties`/`patternProperties` that document any key (maps). */
  mapSchemas: unknown[];
  /** Item schemas, for arrays. */
  items: unknown[];
  /** False when nothing about the object's keys is declared (an open, undescribed value). */
  describesKeys: boolean;
}

function gather(document: OpenApiDocument, schema: unknown, view: ObjectView, depth: number): void {
  if (depth > 64 || !isObject(schema)) return;
  if (typeof schema.$ref === "string") gather(document, resolvePointer(document, schema.$ref), view, depth + 1);
  if (isObject(schema.properties)) {
    view.describesKeys = true;
    for (const [name, child] of Object.entries(schema.properties)) {
      const list = view.properties.get(name) ?? [];
      list.push(child);
      view.properties.set(name, list);
    }
  }
  if (isObject(schema.additionalProperties) && Object.keys(schema.additionalProperties).length > 0) {
    view.describesKeys = true;
    view.mapSchemas.push(schema.additionalProperties);
  }
  if (isObject(schema.patternProperties)) {
    view.describesKeys = true;
    view.mapSchemas.push(...Object.values(schema.patternProperties));
  }
  if (schema.items !== undefined && typeof schema.items !== "boolean") view.items.push(schema.items);
  if (Array.isArray(schema.prefixItems)) view.items.push(...schema.prefixItems);
  for (const keyword of ["allOf", "anyOf", "oneOf"] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) for (const branch of branches) gather(document, branch, view, depth + 1);
  }
}

function viewOf(document: OpenApiDocument, schemas: unknown[]): ObjectView {
  const view: ObjectView = { properties: new Map(), mapSchemas: [], items: [], describesKeys: false };
  for (const schema of schemas) gather(document, schema, view, 0);
  return view;
}

export function findUndocumentedFields(
  document: OpenApiDocument,
  schema: unknown,
  data: unknown,
  pointer = "",
  out: ContractWarning[] = [],
): ContractWarning[] {
  walk(document, [schema], data, pointer, out);
  return out;
}

function walk(document: OpenApiDocument, schemas: unknown[], data: unknown, pointer: string, out: ContractWarning[]): void {
  if (Array.isArray(data)) {
    const { items } = viewOf(document, schemas);
    if (!items.length) return;
    data.forEach((item, index) => walk(document, items, item, `${pointer}/${index}`, out));
    return;
  }
  if (!isObject(data)) return;
  const view = viewOf(document, schemas);
  if (!view.describesKeys) return;
  for (const [key, value] of Object.entries(data as JsonObject)) {
    const childPointer = `${pointer}/${escapePointerToken(key)}`;
    const declared = view.properties.get(key);
    if (declared) walk(document, declared, value, childPointer, out);
    else if (view.mapSchemas.length) walk(document, view.mapSchemas, value, childPointer, out);
    else {
      out.push({
        kind: "undocumented-field",
        location: "body",
        pointer: childPointer,
        message: `${childPointer} is not documented by the spec`,
      });
    }
  }
}
