// The request pipeline's own refusals (pipeline.ts): what an answer source (Prism's engine, the documented
// examples) would answer wrongly or not at all, decided from the contract before any source sees the request:
//   - a body that is malformed JSON or only whitespace (400), or a falsy JSON value (null, false, 0, "")
//     where the body is optional (422: Prism would take it for no body);
//   - an empty query or header value a parameter's schema refuses (422: Prism lets `?status=` and an empty
//     `x-api-signature` through);
//   - a JSON body over FULL_REPORT_MAX_BYTES that does not match its schema (422 with its first violation,
//     body-check.ts: Prism would spend seconds collecting every violation of a large one).
import { isJsonMediaType, type JsonObject, type OpenApiDocument, type Operation } from "../openapi/document.js";
import { closedValues, flattenSchema, schemaTypes } from "../openapi/schema.js";
import { type BodyCheck, FULL_REPORT_MAX_BYTES } from "./body-check.js";

/** Why a request is refused, and with which status. */
export interface Refusal {
  status: number;
  why: string;
}

/** A request body as the pipeline reads it: parsed JSON (`json`), the text of another media type, or none. */
type ParsedBody = { value: unknown; json: boolean } | Refusal;

/** Whether a query value of "" can satisfy the parameter's schema (enum, const, type, minLength, pattern). */
function acceptsEmpty(spec: OpenApiDocument, parameter: JsonObject): boolean {
  const values = closedValues(spec, parameter.schema);
  if (values && !values.includes("")) return false;
  const types = schemaTypes(spec, parameter.schema, { declaredOnly: true });
  if (types && !types.has("string")) return false;
  for (const part of flattenSchema(spec, parameter.schema)) {
    if (typeof part.minLength === "number" && part.minLength > 0) return false;
    if (typeof part.pattern === "string" && !new RegExp(part.pattern, "u").test("")) return false;
  }
  return true;
}

/** The names of `operation`'s parameters in `location` that cannot be empty (header names lower-cased). */
function nonEmptyParameters(spec: OpenApiDocument, operation: Operation, location: "query" | "header"): string[] {
  return operation.parameters
    .filter((parameter) => parameter.in === location && !acceptsEmpty(spec, parameter))
    .map((parameter) => (location === "header" ? String(parameter.name).toLowerCase() : String(parameter.name)));
}

/** `text` read as the body of a request with `contentType` to `operation`, or why it is refused. */
export function parseBody(operation: Operation, text: string, contentType: string | undefined): ParsedBody {
  if (text === "") return { value: undefined, json: false };
  if (!isJsonMediaType(contentType)) return { value: text, json: false };
  if (text.trim() === "") return { status: 400, why: "the JSON body is only whitespace" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { status: 400, why: `the body is not valid JSON (${(error as Error).message})` };
  }
  if (!value && operation.requestBody && operation.requestBody.required !== true)
    return { status: 422, why: 'a JSON body that is null, false, 0 or "" is not an absent body' };
  return { value, json: true };
}

/** UTF-8 length of `text`, exact up to `limit` (longer texts are over it either way). */
function utf8LengthUpTo(text: string, limit: number): number {
  return text.length > limit ? text.length : new TextEncoder().encode(text).length;
}

interface RequestChecks {
  /** Why the parameters or the (large) body of a request to `operation` are refused, or undefined. */
  refusalOf(
    operation: Operation,
    query: URLSearchParams,
    headers: (name: string) => string | undefined,
    body: { text: string; value: unknown },
  ): Refusal | undefined;
}

export function createRequestChecks(spec: OpenApiDocument, bodyCheck: BodyCheck): RequestChecks {
  const nonEmpty = new Map<Operation, { query: string[]; headers: string[] }>();
  const nonEmptyOf = (operation: Operation) => {
    let names = nonEmpty.get(operation);
    if (!names) {
      names = {
        query: nonEmptyParameters(spec, operation, "query"),
        headers: nonEmptyParameters(spec, operation, "header"),
      };
      nonEmpty.set(operation, names);
    }
    return names;
  };
  return {
    refusalOf(operation, query, headers, body) {
      const names = nonEmptyOf(operation);
      for (const name of names.query) {
        if (query.getAll(name).some((value) => value === ""))
          return { status: 422, why: `query parameter ${name} must not be empty` };
      }
      // Prism lets an empty value of these optional headers through; an empty value is a malformed one.
      for (const name of names.headers) {
        if (headers(name) === "") return { status: 422, why: `header ${name} must not be empty` };
      }
      const large = utf8LengthUpTo(body.text, FULL_REPORT_MAX_BYTES) > FULL_REPORT_MAX_BYTES;
      if (!large || body.value === undefined || typeof body.value === "string") return undefined;
      const first = bodyCheck.firstViolation(operation, body.value);
      if (!first) return undefined;
      return {
        status: 422,
        why: `${first} (the body is over ${FULL_REPORT_MAX_BYTES} bytes: its first violation only)`,
      };
    },
  };
}
