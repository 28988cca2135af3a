// The answers the mock writes itself, taken from the contract: an operation's documented error response
// (its example body and the examples of its headers, so the rate-limit headers are always there), and
// header values made safe to write (Node refuses a header value with control characters or characters
// above U+00FF, and Prism echoes request values into its `sl-violations` header).
import { deref, type JsonObject, listOperations, namedExamples, type OpenApiDocument, type Operation } from "../openapi/document.js";

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** JSON value; undefined for no body. */
  body: unknown;
}

/** The response key that documents `status`: the status itself, its range (`4XX`), else `default`. */
function responseKeyFor(responses: Record<string, JsonObject>, status: number): string | undefined {
  const keys = Object.keys(responses);
  return (
    keys.find((key) => key === String(status)) ??
    keys.find((key) => key.toUpperCase() === `${String(status)[0]}XX`) ??
    keys.find((key) => key === "default")
  );
}

/** The documented answer of `operation` for `status` (example body and header examples), or undefined when it documents none. */
export function documentedAnswer(spec: OpenApiDocument, operation: Pick<Operation, "responses">, status: number): Answer | undefined {
  const key = responseKeyFor(operation.responses, status);
  if (key === undefined) return undefined;
  const response = operation.responses[key]!;
  const headers: Record<string, string> = {};
  for (const [name, raw] of Object.entries((response.headers ?? {}) as JsonObject)) {
    const header = deref(spec, raw);
    const schema = deref(spec, header?.schema);
    const example = header?.example ?? schema?.example ?? (Array.isArray(schema?.examples) ? schema.examples[0] : undefined);
    if (example !== undefined) headers[name.toLowerCase()] = String(example);
  }
  const [mediaType, media] = Object.entries((response.content ?? {}) as JsonObject)[0] ?? [];
  if (!mediaType) return { status, headers, body: undefined };
  const [first] = namedExamples(spec, media);
  const body = first?.value ?? deref(spec, (media as JsonObject).schema)?.example;
  // No documented example: nothing to answer from the contract.
  if (body === undefined) return undefined;
  return { status, headers: { ...headers, "content-type": mediaType }, body };
}

/**
 * The documented error answer of `operation` for `status`; for a request that matches no operation, the
 * error response the contract's operations share (the first operation documenting one for `status`).
 */
export function errorAnswer(spec: OpenApiDocument, operation: Pick<Operation, "responses"> | undefined, status: number): Answer {
  const own = operation ? documentedAnswer(spec, operation, status) : undefined;
  if (own) return own;
  for (const candidate of listOperations(spec)) {
    const shared = documentedAnswer(spec, candidate, status);
    if (shared) return shared;
  }
  // A contract that documents no error response at all: a plain JSON problem, said to be the mock's own.
  return { status, headers: { "content-type": "application/problem+json" }, body: { title: "The contract documents no error response", status } };
}

/** `value` with every character a header value cannot carry written as `\uXXXX`. */
export function safeHeaderValue(value: string): string {
  return value.replace(/[^\t\x20-\x7e\x80-\xff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const MAX_HEADER_LENGTH = 8 * 1024 - 100;

/** Findings as the JSON text of an `sl-violations` header (Prism's name for it), safe and bounded. */
export function violationsHeader(findings: unknown[]): string {
  const text = safeHeaderValue(JSON.stringify(findings));
  return text.length > MAX_HEADER_LENGTH ? `Too many violations! ${text.slice(0, MAX_HEADER_LENGTH)}` : text;
}
