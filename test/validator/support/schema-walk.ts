// Walks a JSON value together with its schema, so tests can find (rather than hard-code) a
// required field, a number, a non-nullable field, a closed enum, a date-time … in any example. What a
// schema says (allOf flattened, types, closed values) and JSON pointers are read through src/openapi; values
// are written at a pointer by test/support/json-pointer.ts.
import {
  closedValuesOfSchemas,
  escapePointerToken,
  flattenSchema,
  isObject,
  type JsonObject,
  type OpenApiDocument,
  typesOfSchemas,
} from "../../../src/openapi/index.js";
import { removeAtPointer, setAtPointer } from "../../support/json-pointer.js";

/** The value at a JSON pointer of `data`, or undefined when there is none. */
export { resolvePointer as valueAt } from "../../../src/openapi/index.js";

export interface Facts {
  /** Declared JSON types (intersection over the schemas); undefined when none is declared. */
  types: Set<string> | undefined;
  /** A closed enum (or const), if any. */
  closedEnum: unknown[] | undefined;
  format: string | undefined;
  /** True when null is accepted (or nothing constrains the type). */
  nullable: boolean;
}

function factsOf(spec: OpenApiDocument, schemas: JsonObject[]): Facts {
  const types = typesOfSchemas(spec, schemas, { declaredOnly: true });
  const closedEnum = closedValuesOfSchemas(schemas);
  let format: string | undefined;
  for (const schema of schemas) if (typeof schema.format === "string") format = schema.format;
  const nullable =
    (types === undefined || types.has("null")) && (closedEnum === undefined || closedEnum.includes(null));
  return { types, closedEnum, format, nullable };
}

export interface FieldEntry {
  /** JSON pointer of the value. */
  pointer: string;
  value: unknown;
  schemas: JsonObject[];
  facts: Facts;
  /** Object member: whether the parent schema requires it. Array items: false. Root: false. */
  required: boolean;
  /** Object member name, or undefined for array items and the root. */
  key: string | undefined;
}

/** Every value of `data` (pre-order) with the schemas that describe it. */
export function walk(spec: OpenApiDocument, schema: unknown, data: unknown): FieldEntry[] {
  const out: FieldEntry[] = [];
  visit(spec, flattenSchema(spec, schema), data, "", false, undefined, out);
  return out;
}

function visit(
  spec: OpenApiDocument,
  schemas: JsonObject[],
  data: unknown,
  pointer: string,
  required: boolean,
  key: string | undefined,
  out: FieldEntry[],
): void {
  out.push({ pointer, value: data, schemas, facts: factsOf(spec, schemas), required, key });
  if (Array.isArray(data)) {
    const items = schemas.flatMap((s) => (s.items !== undefined ? flattenSchema(spec, s.items) : []));
    data.forEach((item, index) => {
      visit(spec, items, item, `${pointer}/${index}`, false, undefined, out);
    });
    return;
  }
  if (!isObject(data)) return;
  const requiredNames = new Set(schemas.flatMap((s) => (Array.isArray(s.required) ? (s.required as string[]) : [])));
  for (const [name, value] of Object.entries(data)) {
    const childSchemas = schemas.flatMap((s) => {
      if (isObject(s.properties) && name in s.properties) return flattenSchema(spec, s.properties[name]);
      if (isObject(s.additionalProperties)) return flattenSchema(spec, s.additionalProperties);
      return [];
    });
    visit(spec, childSchemas, value, `${pointer}/${escapePointerToken(name)}`, requiredNames.has(name), name, out);
  }
}

/** Returns a copy of `data` with the value at `pointer` replaced (or removed when `remove`). */
export function setAt(data: unknown, pointer: string, value: unknown, remove = false): unknown {
  if (pointer === "") return value;
  const copy = structuredClone(data);
  if (remove) removeAtPointer(copy, pointer);
  else setAtPointer(copy, pointer, value);
  return copy;
}
