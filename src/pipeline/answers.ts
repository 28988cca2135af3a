// The answers the mock writes itself, taken from the contract: an operation's documented error response
// (its example body, the schema of that body, which error-body.ts fills with a refusal's findings, and the
// examples of its headers, so the rate-limit headers are always there), and
// header values made safe to write (Node refuses a header value with control characters or characters
// above U+00FF, and Prism echoes request values into its `sl-violations` header). The documented examples as an
// answer source of the request pipeline (./msw's) are documented-source.ts.
import {
  deref,
  type JsonObject,
  listOperations,
  namedExamples,
  type OpenApiDocument,
  type Operation,
  responseKeyFor,
} from "../openapi/document.js";

interface Answer {
  status: number;
  headers: Record<string, string>;
  /** JSON value; undefined for no body. */
  body: unknown;
  /** The schema of the documented body (undefined where the response documents none). */
  schema?: unknown;
}

/**
 * The documented answer of `operation` for `status` (its first example body, or the named one, and the
 * header examples), or undefined when it documents none.
 */
export function documentedAnswer(
  spec: OpenApiDocument,
  operation: Pick<Operation, "responses">,
  status: number,
  exampleName?: string,
): Answer | undefined {
  const key = responseKeyFor(operation.responses, status);
  if (key === undefined) return undefined;
  const response = operation.responses[key]!;
  const headers: Record<string, string> = {};
  for (const [name, raw] of Object.entries((response.headers ?? {}) as JsonObject)) {
    const header = deref(spec, raw);
    const schema = deref(spec, header?.schema);
    const example =
      header?.example ?? schema?.example ?? (Array.isArray(schema?.examples) ? schema.examples[0] : undefined);
    if (example !== undefined) headers[name.toLowerCase()] = String(example);
  }
  const [mediaType, media] = Object.entries((response.content ?? {}) as JsonObject)[0] ?? [];
  if (!mediaType) return { status, headers, body: undefined };
  const examples = namedExamples(spec, media);
  const chosen = exampleName === undefined ? examples[0] : examples.find((example) => example.name === exampleName);
  if (exampleName !== undefined && !chosen) return undefined;
  const body = chosen?.value ?? deref(spec, (media as JsonObject).schema)?.example;
  // No documented example: nothing to answer from the contract.
  if (body === undefined) return undefined;
  return { status, headers: { ...headers, "content-type": mediaType }, body, schema: (media as JsonObject).schema };
}

/**
 * The documented error answer of `operation` for `status`; for a request that matches no operation, the
 * error response the contract's operations share (the first operation documenting one for `status`).
 */
export function errorAnswer(
  spec: OpenApiDocument,
  operation: Pick<Operation, "responses"> | undefined,
  status: number,
): Answer {
  const operationAnswer = operation ? documentedAnswer(spec, operation, status) : undefined;
  if (operationAnswer) return operationAnswer;
  for (const candidate of listOperations(spec)) {
    const shared = documentedAnswer(spec, candidate, status);
    if (shared) return shared;
  }
  // A contract that documents no error response at all: a plain JSON problem, said to be the mock's own.
  return {
    status,
    headers: { "content-type": "application/problem+json" },
    body: { title: "The contract documents no error response", status },
  };
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

/** Which documented answer a request prefers (RFC 7240 `Prefer`, the preferences Prism understands). */
export interface Preferences {
  code?: number;
  example?: string;
  dynamic?: boolean;
  seed?: string;
}

/** `Prefer: code=429, example=empty` (RFC 7240 preferences Prism understands). */
export function parsePrefer(value: string | null | undefined): Preferences | { error: string } {
  const preferences: Preferences = {};
  if (!value) return preferences;
  for (const part of value.split(/[,;]/)) {
    const match = /^\s*([A-Za-z][\w-]*)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s]*)))?\s*$/.exec(part);
    if (!match) continue;
    const name = match[1]!.toLowerCase();
    const raw = match[2] ?? match[3] ?? "";
    if (name === "code") {
      if (!/^\d{3}$/.test(raw))
        return { error: `Prefer: code must be a three-digit status, got ${JSON.stringify(raw)}` };
      preferences.code = Number(raw);
    } else if (name === "example") preferences.example = raw;
    else if (name === "dynamic") {
      if (raw !== "true" && raw !== "false")
        return { error: `Prefer: dynamic must be true or false, got ${JSON.stringify(raw)}` };
      preferences.dynamic = raw === "true";
    } else if (name === "seed") preferences.seed = raw;
  }
  return preferences;
}
