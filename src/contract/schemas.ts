// Compiles the document's schemas with ajv (draft 2020-12). Each component schema is registered
// under its own id with `#/components/schemas/…` refs rewritten to that id; validators are
// compiled once per schema and cached.
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ErrorObject, FormatDefinition, ValidateFunction } from "ajv/dist/2020.js";
import addFormatsPkg from "ajv-formats";
import {
  escapePointerToken,
  isObject,
  type JsonObject,
  type OpenApiDocument,
  resolvePointer,
} from "../openapi/document.js";

// ajv-formats is CommonJS: under NodeNext its default import is module.exports, whose `.default` is the plugin.
const addFormats = addFormatsPkg.default;

export const SCHEMA_ID_BASE = "https://contract.invalid/components/schemas/";
const COMPONENT_SCHEMA_REF = "#/components/schemas/";

interface SchemaError {
  pointer: string;
  message: string;
}

/** Two validators per schema: a fast first pass (stops at the first error) and an all-errors pass. */
export interface CompiledPair {
  fast: ValidateFunction;
  full: ValidateFunction;
}

const twoDigits = (text: string, at: number): number =>
  (text.charCodeAt(at) - 48) * 10 + (text.charCodeAt(at + 1) - 48);
const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** The canonical RFC 3339 shape, without captures (ASCII digits only, as in ajv-formats). */
const CANONICAL_DATE_TIME = /^\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d:\d\d)$/;

/**
 * True only for a canonical RFC 3339 date-time (`YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, no
 * leap second) that ajv-formats' "date-time" also accepts: a quick accept without regex captures
 * or allocations. Anything else (including every string it would reject) is left to ajv-formats.
 */
export function isCanonicalDateTime(text: string): boolean {
  if (!CANONICAL_DATE_TIME.test(text)) return false;
  const last = text.charCodeAt(text.length - 1);
  if (last !== 90 && last !== 122 && (twoDigits(text, text.length - 5) > 23 || twoDigits(text, text.length - 2) > 59))
    return false; // offset ±HH:MM
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month]!)) return false;
  return twoDigits(text, 11) <= 23 && twoDigits(text, 14) <= 59 && twoDigits(text, 17) <= 59;
}

function createAjv(allErrors: boolean): Ajv2020 {
  // strict: false because OpenAPI schemas carry keywords ajv does not know (example, x-*,
  // discriminator, xml, externalDocs). Unknown formats are checked separately below. strictNumbers, which strict:
  // false turns off: NaN and Infinity are no JSON number (JSON.stringify writes null), in a value given parsed.
  const ajv = new Ajv2020({ allErrors, strict: false, strictNumbers: true, validateFormats: true, logger: false });
  addFormats(ajv); // also registers the OpenAPI formats int32, int64, float, double, byte, binary, password
  // Same verdicts as ajv-formats' date-time (it decides every string the quick check does not accept),
  // without its regex captures and allocations on the common canonical form.
  const dateTime = ajv.formats["date-time"];
  if (dateTime && typeof dateTime === "object" && "validate" in dateTime && typeof dateTime.validate === "function") {
    const slow = dateTime.validate as (text: string) => boolean;
    const quick: FormatDefinition<string> = {
      ...(dateTime as FormatDefinition<string>),
      validate: (text: string) => isCanonicalDateTime(text) || slow(text),
    };
    ajv.addFormat("date-time", quick);
  }
  return ajv;
}

/** Copies a schema, rewriting refs to component schemas and inlining any other local ref. */
export function rewriteSchemaRefs(document: OpenApiDocument, schema: unknown, inlining: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((item) => rewriteSchemaRefs(document, item, inlining));
  if (!isObject(schema)) return schema;
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$ref" && typeof value === "string") {
      if (value.startsWith(COMPONENT_SCHEMA_REF)) {
        const rest = value.slice(COMPONENT_SCHEMA_REF.length);
        const slash = rest.indexOf("/");
        copy.$ref =
          slash === -1 ? SCHEMA_ID_BASE + rest : `${SCHEMA_ID_BASE}${rest.slice(0, slash)}#${rest.slice(slash)}`;
        continue;
      }
      if (value.startsWith("#")) {
        if (inlining.includes(value)) throw new Error(`contract: recursive non-component $ref ${value}`);
        const target = resolvePointer(document, value);
        if (target === undefined) throw new Error(`contract: unresolvable $ref ${value}`);
        Object.assign(copy, rewriteSchemaRefs(document, target, [...inlining, value]) as JsonObject);
        continue;
      }
      throw new Error(`contract: external $ref ${value} (validate a bundled document)`);
    }
    copy[key] = isObject(value) || Array.isArray(value) ? rewriteSchemaRefs(document, value, inlining) : value;
  }
  return copy;
}

/** Every `format` used anywhere in the document's schemas. */
function collectFormats(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) collectFormats(item, out);
  else if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "format" && typeof child === "string") out.add(child);
      else if (key !== "example" && key !== "examples") collectFormats(child, out);
    }
  }
}

export class SchemaCompiler {
  private readonly fastAjv = createAjv(false);
  private readonly fullAjv = createAjv(true);
  private readonly cache = new Map<string, CompiledPair>();
  /** The same pairs by schema object: a caller's key is text built per call, which a lookup would hash again. */
  private readonly bySchema = new WeakMap<object, CompiledPair>();

  constructor(private readonly document: OpenApiDocument) {
    const schemas = document.components?.schemas ?? {};
    for (const [name, schema] of Object.entries(schemas)) {
      const rewritten: JsonObject = {
        ...(rewriteSchemaRefs(document, schema) as JsonObject),
        $id: SCHEMA_ID_BASE + name,
      };
      delete rewritten.$schema;
      this.fastAjv.addSchema(rewritten);
      this.fullAjv.addSchema(structuredClone(rewritten));
    }
    const formats = new Set<string>();
    collectFormats(document.components ?? {}, formats);
    collectFormats(document.paths ?? {}, formats);
    const unknown = [...formats].filter((format) => !(format in this.fastAjv.formats));
    if (unknown.length) throw new Error(`contract: unknown schema format(s): ${unknown.join(", ")}`);
  }

  /** The validators of a schema found at `cacheKey`, compiled on first use and cached. */
  compile(cacheKey: string, schema: unknown): CompiledPair {
    const known = isObject(schema) ? this.bySchema.get(schema) : undefined;
    if (known) return known;
    let pair = this.cache.get(cacheKey);
    if (!pair) {
      const rewritten = rewriteSchemaRefs(this.document, schema) as JsonObject;
      pair = { fast: this.fastAjv.compile(rewritten), full: this.fullAjv.compile(structuredClone(rewritten)) };
      this.cache.set(cacheKey, pair);
    }
    if (isObject(schema)) this.bySchema.set(schema, pair);
    return pair;
  }

  /** Validates `data` against a schema found at `cacheKey`; compiles it on first use. */
  validate(cacheKey: string, schema: unknown, data: unknown): SchemaError[] {
    const pair = this.compile(cacheKey, schema);
    return pair.fast(data) ? [] : schemaErrors(pair, data);
  }
}

/** Every error of `data` (the all-errors pass); call it after the fast pass failed. */
export function schemaErrors(pair: CompiledPair, data: unknown): SchemaError[] {
  pair.full(data);
  return toSchemaErrors(pair.full.errors ?? []);
}

function toSchemaErrors(errors: ErrorObject[]): SchemaError[] {
  const reported = new Set<string>();
  const out: SchemaError[] = [];
  for (const error of errors) {
    let pointer = error.instancePath;
    let message = error.message ?? "is invalid";
    const params = error.params as Record<string, unknown>;
    if (error.keyword === "required" && typeof params.missingProperty === "string") {
      pointer = `${pointer}/${escapePointerToken(params.missingProperty)}`;
      message = "is required but missing";
    } else if (error.keyword === "enum" && Array.isArray(params.allowedValues)) {
      message = `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
    } else if (error.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
      pointer = `${pointer}/${escapePointerToken(params.additionalProperty)}`;
      message = "is not allowed (additional property)";
    } else if (error.keyword === "const") {
      message = `must be ${JSON.stringify(params.allowedValue)}`;
    }
    const text = `${pointer || "(root)"} ${message}`;
    if (reported.has(text)) continue;
    reported.add(text);
    out.push({ pointer, message: text });
  }
  return out;
}
