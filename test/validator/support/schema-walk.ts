// Walks a JSON value together with its schema, so tests can find (rather than hard-code) a
// required field, a number, a non-nullable field, a closed enum, a date-time … in any example.
import type { OpenApiDocument } from "../../../src/contract/index.js";
import { deref, isObject, type JsonObject } from "../../support/spec.js";

/** The schemas whose constraints all apply to one value: $refs followed, allOf flattened. */
export function flatten(spec: OpenApiDocument, schema: unknown, out: JsonObject[] = [], depth = 0): JsonObject[] {
  const resolved = deref(spec, schema);
  if (!isObject(resolved) || depth > 64) return out;
  out.push(resolved);
  if (Array.isArray(resolved.allOf)) for (const part of resolved.allOf) flatten(spec, part, out, depth + 1);
  return out;
}

export interface Facts {
  /** Declared JSON types (intersection over the schemas); undefined when none is declared. */
  types: Set<string> | undefined;
  /** A closed enum (or const), if any. */
  closedEnum: unknown[] | undefined;
  format: string | undefined;
  /** True when null is accepted (or nothing constrains the type). */
  nullable: boolean;
}

export function factsOf(schemas: JsonObject[]): Facts {
  let types: Set<string> | undefined;
  let closedEnum: unknown[] | undefined;
  let format: string | undefined;
  for (const schema of schemas) {
    if (schema.type !== undefined) {
      const declared = new Set((Array.isArray(schema.type) ? schema.type : [schema.type]) as string[]);
      if (declared.has("number")) declared.add("integer");
      types = types
        ? new Set([...types].filter((t) => declared.has(t) || (t === "integer" && declared.has("number"))))
        : declared;
    }
    if (Array.isArray(schema.enum)) closedEnum = schema.enum;
    if ("const" in schema) closedEnum = [schema.const];
    if (typeof schema.format === "string") format = schema.format;
  }
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

function escapeToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Every value of `data` (pre-order) with the schemas that describe it. */
export function walk(spec: OpenApiDocument, schema: unknown, data: unknown): FieldEntry[] {
  const out: FieldEntry[] = [];
  visit(spec, flatten(spec, schema), data, "", false, undefined, out);
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
  out.push({ pointer, value: data, schemas, facts: factsOf(schemas), required, key });
  if (Array.isArray(data)) {
    const items = schemas.flatMap((s) => (s.items !== undefined ? flatten(spec, s.items) : []));
    data.forEach((item, index) => {
      visit(spec, items, item, `${pointer}/${index}`, false, undefined, out);
    });
    return;
  }
  if (!isObject(data)) return;
  const requiredNames = new Set(schemas.flatMap((s) => (Array.isArray(s.required) ? (s.required as string[]) : [])));
  for (const [name, value] of Object.entries(data)) {
    const childSchemas = schemas.flatMap((s) => {
      if (isObject(s.properties) && name in s.properties) return flatten(spec, s.properties[name]);
      if (isObject(s.additionalProperties)) return flatten(spec, s.additionalProperties);
      return [];
    });
    visit(spec, childSchemas, value, `${pointer}/${escapeToken(name)}`, requiredNames.has(name), name, out);
  }
}

/** Properties an object schema declares, and what it says of others. */
export function objectShape(spec: OpenApiDocument, schema: unknown) {
  const schemas = flatten(spec, schema);
  const properties = new Map<string, JsonObject[]>();
  for (const s of schemas) {
    if (isObject(s.properties))
      for (const [name, child] of Object.entries(s.properties))
        properties.set(name, [...(properties.get(name) ?? []), ...flatten(spec, child)]);
  }
  return {
    properties,
    required: new Set(schemas.flatMap((s) => (Array.isArray(s.required) ? (s.required as string[]) : []))),
    closed: schemas.some((s) => s.additionalProperties === false || s.unevaluatedProperties === false),
  };
}

function tokens(pointer: string): string[] {
  return pointer === ""
    ? []
    : pointer
        .slice(1)
        .split("/")
        .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The value at `pointer` in `data`, or undefined when there is none. */
export function valueAt(data: unknown, pointer: string): unknown {
  let current = data;
  for (const token of tokens(pointer)) {
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isObject(current) && Object.hasOwn(current, token)) current = current[token];
    else return undefined;
  }
  return current;
}

/** Returns a copy of `data` with the value at `pointer` replaced (or removed when `remove`). */
export function setAt(data: unknown, pointer: string, value: unknown, remove = false): unknown {
  const copy = structuredClone(data);
  const path = tokens(pointer);
  if (path.length === 0) return value;
  let parent: unknown = copy;
  for (const token of path.slice(0, -1))
    parent = Array.isArray(parent) ? parent[Number(token)] : (parent as JsonObject)[token];
  const last = path[path.length - 1]!;
  if (Array.isArray(parent)) {
    if (remove) parent.splice(Number(last), 1);
    else parent[Number(last)] = value;
  } else if (isObject(parent)) {
    if (remove) delete parent[last];
    else parent[last] = value;
  }
  return copy;
}
