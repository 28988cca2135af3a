// Strict mode: finds body fields that no schema documents (drift of a live server).
// Runs only on bodies that already passed validation, so it only has to know which property
// names each object schema declares; allOf/anyOf/oneOf branches are merged (a union).
import { escapePointerToken, isObject, type JsonObject, type OpenApiDocument } from "../openapi/document.js";
import { flattenSchema, type SchemaView, viewOfSchemas } from "../openapi/schema.js";
import type { ContractWarning } from "./types.js";

function viewOf(document: OpenApiDocument, schemas: readonly unknown[]): SchemaView {
  return viewOfSchemas(schemas.flatMap((schema) => flattenSchema(document, schema, { alternatives: true })));
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

function walk(
  document: OpenApiDocument,
  schemas: readonly unknown[],
  data: unknown,
  pointer: string,
  out: ContractWarning[],
): void {
  if (Array.isArray(data)) {
    const { items } = viewOf(document, schemas);
    if (!items.length) return;
    data.forEach((item, index) => {
      walk(document, items, item, `${pointer}/${index}`, out);
    });
    return;
  }
  if (!isObject(data)) return;
  const view = viewOf(document, schemas);
  if (!view.describesKeys) return;
  for (const [key, value] of Object.entries(data as JsonObject)) {
    const childPointer = `${pointer}/${escapePointerToken(key)}`;
    const declared = view.properties.get(key);
    if (declared) walk(document, declared, value, childPointer, out);
    else if (view.maps.length) walk(document, view.maps, value, childPointer, out);
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
