// The client tests' view of generated/openapi.json (untyped, for terse lookups), on the shared test helpers.
import { apiKeyHeaderName, jsonMedia, listSpecOperations, loadSpec, mediaExamples, repoRoot, type JsonObject } from "../../support/spec.js";

export { repoRoot };

type Json = Record<string, any>;
export const spec: Json = loadSpec();

export function specOperations() {
  return listSpecOperations();
}

/** The first example value of an operation's 200 JSON response. */
export function successExample(operationId: string): Json {
  const op = listSpecOperations().find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  const [first] = mediaExamples(loadSpec(), jsonMedia(op.responses["200"] as JsonObject));
  if (!first) throw new Error(`no example for ${operationId}`);
  return first.value as Json;
}

/** operationId of `METHOD /path/template`, looked up in the spec. */
export function operationIdOf(method: string, path: string): string {
  const op = listSpecOperations().find((o) => o.method === method.toUpperCase() && o.path === path);
  if (!op) throw new Error(`no operation ${method} ${path}`);
  return op.operationId;
}

/** The API-key header name (lower-cased, as node:http shows request headers). */
export const apiKeyHeader = apiKeyHeaderName().toLowerCase();

/** The path all server URLs end with (the version segment). */
export const basePath: string = (() => {
  const paths = new Set((spec.servers as Array<{ url: string }>).map((s) => s.url.replace(/^[a-z]+:\/\/[^/]*/i, "").replace(/\/$/, "")));
  if (paths.size !== 1) throw new Error(`servers do not share one base path: ${[...paths].join(", ")}`);
  return [...paths][0]!;
})();

/** The rate-limit headers of components.headers (…-Limit, …-Remaining, …-Reset): lower-cased name and example. */
export const rateLimitHeaders = Object.fromEntries(
  (["limit", "remaining", "reset"] as const).map((kind) => {
    const entries = Object.entries(spec.components.headers as Record<string, { example?: unknown }>).filter(([name]) =>
      name.toLowerCase().endsWith(`-${kind}`),
    );
    if (entries.length !== 1) throw new Error(`expected one rate-limit ${kind} header in components.headers`);
    const [name, header] = entries[0]!;
    return [kind, { name: name.toLowerCase(), example: header.example as number }];
  }),
) as Record<"limit" | "remaining" | "reset", { name: string; example: number }>;

/** The first example of an operation's JSON request body. */
export function requestExample<T = Json>(operationId: string): T {
  const op = listSpecOperations().find((o) => o.operationId === operationId);
  const [first] = mediaExamples(loadSpec(), jsonMedia(op?.requestBody));
  if (!first) throw new Error(`no request example for ${operationId}`);
  return first.value as T;
}

/** The request-signing header names: header parameters of components.parameters marked `x-signing` (lower-cased). */
export const signingHeaders = Object.fromEntries(
  (["timestamp", "signature"] as const).map((role) => {
    const found = Object.values(spec.components.parameters as Record<string, Json>).filter((p) => p.in === "header" && p["x-signing"] === role);
    if (found.length !== 1) throw new Error(`expected one header parameter with x-signing: ${role}`);
    return [role, String(found[0]!.name).toLowerCase()];
  }),
) as Record<"timestamp" | "signature", string>;
