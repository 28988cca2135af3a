// Reading a bundled OpenAPI 3.1 document: JSON pointers, local $refs, operations, servers and their base
// path, the header names of the API key, the rate-limit, the signing and the webhook signature headers, examples,
// and finding the operation of a concrete path. The one module for this: src/, scripts/, test/ and bench/ use it.
// (Values of this package's own contract are generated once into generated/client-meta.ts from here.)

/** The methods an OpenAPI path item can hold, lower case as the document writes them. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export type HttpMethod = (typeof HTTP_METHODS)[number];

/** True for a key of a path item that holds an operation (`get`, `post`…; not `parameters` or `summary`). */
export function isHttpMethod(key: string): key is HttpMethod {
  return (HTTP_METHODS as readonly string[]).includes(key);
}

export type JsonObject = Record<string, unknown>;

/** The parts of an OpenAPI 3.1 document read here. Everything else is kept as is. */
export interface OpenApiDocument {
  openapi: string;
  info?: { title?: string; version?: string; [key: string]: unknown };
  servers?: Array<{ url: string; variables?: Record<string, { default: string }>; [key: string]: unknown }>;
  paths?: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown> | undefined>;
  security?: Array<Record<string, string[]>>;
  [key: string]: unknown;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function escapePointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The tokens of a JSON pointer (`""`, `/a/b`) or of a local reference (`#/a/b`, URI-encoded). */
export function pointerTokens(pointer: string): string[] {
  const local = pointer.startsWith("#");
  const body = local ? pointer.slice(1) : pointer;
  if (body === "") return [];
  return body
    .slice(1)
    .split("/")
    .map((token) => unescapePointerToken(local ? decodeURIComponent(token) : token));
}

/** A local reference (`#/a/b`) from tokens; `%` is encoded, as the reference is URI-decoded when read. */
export function refOf(tokens: readonly string[]): string {
  return `#${tokens.map((token) => `/${escapePointerToken(token).replace(/%/g, "%25")}`).join("")}`;
}

/** The value a JSON pointer or local `#/…` reference points to, or undefined. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  if (pointer !== "" && !pointer.startsWith("#") && !pointer.startsWith("/")) return undefined;
  let current: unknown = document;
  for (const token of pointerTokens(pointer)) {
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isObject(current) && Object.hasOwn(current, token)) current = current[token];
    else return undefined;
  }
  return current;
}

/** Follows a chain of local `$ref`s to the object it ends at (any object: schema, response, parameter…). */
export function deref<T = JsonObject>(document: unknown, value: unknown): T | undefined {
  let current = value;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
    if (hops > 32) throw new Error(`openapi: $ref chain too deep at ${current.$ref}`);
    if (!current.$ref.startsWith("#"))
      throw new Error(`openapi: only local $refs are supported, got ${current.$ref} (use a bundled document)`);
    const target = resolvePointer(document, current.$ref);
    if (target === undefined) throw new Error(`openapi: unresolvable $ref ${current.$ref}`);
    current = target;
  }
  return isObject(current) ? (current as T) : undefined;
}

// ---------------------------------------------------------------- operations

export type SecurityKind = "required" | "optional" | "none";

export interface Operation {
  /** `METHOD /path/template`, e.g. `GET /wallets/USDT`. */
  key: string;
  /** Upper case. */
  method: string;
  /** The path template as written in the document (without the server base path). */
  path: string;
  operationId: string | undefined;
  operation: JsonObject;
  pathItem: JsonObject;
  /** Path-level and operation-level parameters, dereferenced (operation-level wins). */
  parameters: JsonObject[];
  requestBody: JsonObject | undefined;
  /** Responses by key (`"200"`, `"4XX"`, `"default"`), dereferenced. */
  responses: Record<string, JsonObject>;
  /** `required`: each security requirement names a scheme; `optional`: one alternative is `{}`; `none`: none. */
  security: SecurityKind;
  segments: Array<{ literal: string } | { param: string }>;
}

function securityKind(requirements: unknown): SecurityKind {
  const list = Array.isArray(requirements) ? (requirements as JsonObject[]) : [];
  if (list.length === 0 || list.every((r) => Object.keys(r).length === 0)) return "none";
  return list.some((r) => Object.keys(r).length === 0) ? "optional" : "required";
}

function splitPath(path: string): string[] {
  return path.split("/").filter((segment, index) => index > 0 || segment !== "");
}

/** Every operation of the document, in document order. */
export function listOperations(document: OpenApiDocument): Operation[] {
  const entries: Operation[] = [];
  for (const [path, rawItem] of Object.entries(document.paths ?? {})) {
    const pathItem = deref(document, rawItem);
    if (!pathItem) continue;
    const shared = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
    for (const method of HTTP_METHODS) {
      const operation = deref(document, pathItem[method]);
      if (!operation) continue;
      const own = Array.isArray(operation.parameters) ? operation.parameters : [];
      const byKey = new Map<string, JsonObject>();
      for (const raw of [...shared, ...own]) {
        const parameter = deref(document, raw);
        if (parameter) byKey.set(`${String(parameter.in)}:${String(parameter.name)}`, parameter);
      }
      const responses: Record<string, JsonObject> = {};
      for (const [key, raw] of Object.entries(isObject(operation.responses) ? operation.responses : {})) {
        const response = deref(document, raw);
        if (response) responses[key] = response;
      }
      entries.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        operationId: typeof operation.operationId === "string" ? operation.operationId : undefined,
        operation,
        pathItem,
        parameters: [...byKey.values()],
        requestBody: deref(document, operation.requestBody),
        responses,
        security: securityKind(operation.security ?? document.security),
        segments: splitPath(path).map((segment) => {
          const match = /^\{([^}]+)\}$/.exec(segment);
          return match ? { param: match[1]! } : { literal: segment };
        }),
      });
    }
  }
  return entries;
}

/** The documented success statuses of an operation: its 2xx response keys (`200`, `2XX`). */
export function successKeys(operation: Pick<Operation, "responses">): string[] {
  return Object.keys(operation.responses).filter((key) => /^2(\d\d|XX)$/i.test(key));
}

/** True when `status` is one of `keys` (`2XX` standing for 200–299). */
export function isDocumentedSuccess(status: number, keys: readonly string[]): boolean {
  return keys.some((key) => key === String(status) || (/^2XX$/i.test(key) && status >= 200 && status <= 299));
}

/** The response key that documents `status`: the status itself, else its range (`4XX`), else `default`. */
export function responseKeyFor(responses: Record<string, unknown>, status: number): string | undefined {
  const keys = Object.keys(responses);
  return (
    keys.find((key) => key === String(status)) ??
    keys.find((key) => key.toUpperCase() === `${String(status)[0]}XX`) ??
    keys.find((key) => key === "default")
  );
}

/** The lowest 2xx response key of an operation, or undefined. */
export function successKey(operation: Pick<Operation, "responses">): string | undefined {
  return Object.keys(operation.responses)
    .filter((key) => /^2\d\d$/.test(key))
    .sort()[0];
}

// ---------------------------------------------------------------- servers and header names

/** Path part of a server URL, its variables replaced by their defaults, without a trailing "/" ("" for the root). */
export function serverPath(server: { url: string; variables?: Record<string, { default: string }> }): string {
  let url = server.url;
  for (const [name, variable] of Object.entries(server.variables ?? {}))
    url = url.split(`{${name}}`).join(variable.default);
  const pathname = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? new URL(url).pathname : url;
  return pathname.replace(/\/+$/, "");
}

/** The distinct non-root base paths of the servers, longest first. */
export function serverBasePaths(document: OpenApiDocument): string[] {
  const paths = new Set<string>();
  for (const server of document.servers ?? []) {
    try {
      const path = serverPath(server);
      if (path !== "" && path !== "/") paths.add(path.startsWith("/") ? path : `/${path}`);
    } catch {
      // an unparsable server URL names no base path
    }
  }
  return [...paths].sort((a, b) => b.length - a.length);
}

/** The one base path every server shares (e.g. "/v1"), or an error that names what the servers say. */
export function basePathOf(document: OpenApiDocument): string {
  const paths = new Set((document.servers ?? []).map(serverPath));
  const [only] = paths;
  if (paths.size !== 1 || only === undefined)
    throw new Error(`openapi: the servers must share one base path, found ${JSON.stringify([...paths])}`);
  return only;
}

/** The URL of the one server on the loopback interface (the local mock). */
export function localServerUrl(document: OpenApiDocument): string {
  const local = (document.servers ?? []).filter((s) => /^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(s.url));
  if (local.length !== 1)
    throw new Error(`openapi: expected exactly one local (loopback) server, found ${local.length}`);
  return local[0]!.url;
}

/** Header name of the one apiKey-in-header security scheme, lower-cased. */
export function apiKeyHeaderName(document: OpenApiDocument): string {
  const schemes = Object.values(document.components?.securitySchemes ?? {}).filter(
    (s) => isObject(s) && s.type === "apiKey" && s.in === "header",
  ) as JsonObject[];
  if (schemes.length !== 1)
    throw new Error(`openapi: expected exactly one apiKey header security scheme, found ${schemes.length}`);
  return String(schemes[0]!.name).toLowerCase();
}

/** The rate-limit response headers of components.headers (…-Limit, …-Remaining, …-Reset), lower-cased. */
export function rateLimitHeaderNames(document: OpenApiDocument): { limit: string; remaining: string; reset: string } {
  const names = Object.keys(document.components?.headers ?? {}).map((name) => name.toLowerCase());
  const pick = (suffix: string): string => {
    const found = names.filter((name) => name.includes("ratelimit") && name.endsWith(`-${suffix}`));
    if (found.length !== 1)
      throw new Error(
        `openapi: expected one rate-limit …-${suffix} header in components.headers, found ${JSON.stringify(found)}`,
      );
    return found[0]!;
  };
  return { limit: pick("limit"), remaining: pick("remaining"), reset: pick("reset") };
}

/** The request-signing headers: header parameters of components.parameters marked `x-signing`, lower-cased. */
export function signingHeaderNames(document: OpenApiDocument): { timestamp: string; signature: string } {
  const marked = Object.values(document.components?.parameters ?? {}).filter(
    (p) => isObject(p) && p.in === "header" && typeof p["x-signing"] === "string",
  ) as JsonObject[];
  const pick = (role: string): string => {
    const found = marked.filter((p) => p["x-signing"] === role);
    if (found.length !== 1)
      throw new Error(`openapi: expected one header parameter with x-signing: ${role}, found ${found.length}`);
    return String(found[0]!.name).toLowerCase();
  };
  return { timestamp: pick("timestamp"), signature: pick("signature") };
}

/** The webhooks' signature header: the one header parameter of components.parameters marked `x-webhook-signature`. */
export function webhookSignatureHeaderName(document: OpenApiDocument): string {
  const found = Object.values(document.components?.parameters ?? {}).filter(
    (p) => isObject(p) && p.in === "header" && p["x-webhook-signature"] === true,
  ) as JsonObject[];
  if (found.length !== 1)
    throw new Error(`openapi: expected one header parameter with x-webhook-signature: true, found ${found.length}`);
  return String(found[0]!.name).toLowerCase();
}

// ---------------------------------------------------------------- media types and examples

/** The last Content-Type value mediaTypeOf read, and its media type: a request's is read some six times. */
let lastContentType = "";
let lastMediaType: string | undefined;

/** The media type of a Content-Type value, lower case, without parameters (`application/json`), or undefined. */
export function mediaTypeOf(contentType: string | null | undefined): string | undefined {
  if (!contentType) return undefined;
  if (contentType !== lastContentType) {
    lastMediaType = contentType.split(";")[0]!.trim().toLowerCase() || undefined;
    lastContentType = contentType;
  }
  return lastMediaType;
}

const STRUCTURED_JSON = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/;

/**
 * True when a media type or Content-Type value is JSON: `application/json` or any `type/subtype+json`
 * (RFC 6839), parameters and case aside. The one answer to "is this JSON?" of the client, validator and mock.
 */
export function isJsonMediaType(contentType: string | null | undefined): boolean {
  const mediaType = mediaTypeOf(contentType);
  if (mediaType === undefined) return false;
  return mediaType === "application/json" || STRUCTURED_JSON.test(mediaType);
}

/** The JSON media type object of a request body or response (`application/json` or `…+json`), if any. */
export function jsonMedia(container: JsonObject | undefined): JsonObject | undefined {
  const content = container && isObject(container.content) ? container.content : undefined;
  if (!content) return undefined;
  const key = Object.keys(content).find(isJsonMediaType);
  return key && isObject(content[key]) ? (content[key] as JsonObject) : undefined;
}

/** The `multipart/form-data` media type object of a request body, if any: the one kind of body besides JSON. */
export function multipartMedia(container: JsonObject | undefined): JsonObject | undefined {
  const content = container && isObject(container.content) ? container.content : undefined;
  const key = content && Object.keys(content).find((type) => mediaTypeOf(type) === "multipart/form-data");
  return key && isObject(content[key]) ? (content[key] as JsonObject) : undefined;
}

/** Named examples of a media type or parameter (resolved), in document order; `example` comes last as "example". */
export function namedExamples(document: OpenApiDocument, holder: unknown): Array<{ name: string; value: unknown }> {
  if (!isObject(holder)) return [];
  const out: Array<{ name: string; value: unknown }> = [];
  if (isObject(holder.examples)) {
    for (const [name, raw] of Object.entries(holder.examples)) {
      const example = deref(document, raw);
      if (example && "value" in example) out.push({ name, value: example.value });
    }
  }
  if ("example" in holder) out.push({ name: "example", value: holder.example });
  return out;
}

/**
 * The first example a parameter or media type gives: its `example` or first named example, else its schema's
 * `example`, first `examples` entry, `const` or first `enum` value. `found: false` when there is none.
 */
export function firstExample(
  document: OpenApiDocument,
  holder: unknown,
): { found: true; value: unknown } | { found: false } {
  if (!isObject(holder)) return { found: false };
  if (holder.example !== undefined) return { found: true, value: holder.example };
  const [named] = namedExamples(document, { examples: holder.examples });
  if (named) return { found: true, value: named.value };
  const schema = deref(document, holder.schema);
  if (schema) {
    if (schema.example !== undefined) return { found: true, value: schema.example };
    if (Array.isArray(schema.examples) && schema.examples.length > 0) return { found: true, value: schema.examples[0] };
    if ("const" in schema) return { found: true, value: schema.const };
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return { found: true, value: schema.enum[0] };
  }
  return { found: false };
}

// ---------------------------------------------------------------- finding the operation of a request

/** Path without scheme/host, query, fragment or trailing slash. */
export function normalizePath(input: string): string {
  let path = input;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) path = new URL(path).pathname;
  path = path.replace(/[?#].*$/, "");
  if (!path.startsWith("/")) path = `/${path}`;
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  return path;
}

/** The operation a request's path names, with its path parameters (`{ currencyCode: "USDT" }`, decoded). */
export interface OperationMatch {
  operation: Operation;
  params: Record<string, string>;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a malformed escape: the segment as sent
  }
}

function paramsOf(operation: Operation, path: string): Record<string, string> {
  const segments = splitPath(path);
  const params: Record<string, string> = {};
  operation.segments.forEach((expected, index) => {
    if ("param" in expected) params[expected.param] = decodeSegment(segments[index] ?? "");
  });
  return params;
}

/**
 * Finds the operation for a method and a path (templated or concrete, with or without a base path).
 * Among templates that match, the one with a literal segment at the first position where they differ
 * wins, so `/collections/customers/me` is not taken for `/collections/customers/{id}`.
 */
export class OperationMatcher {
  private readonly byMethod = new Map<string, Operation[]>();
  private readonly exact = new Map<string, Operation>();
  /** Lookups memoized per method, then per raw path (bounded). */
  private readonly memo = new Map<string, Map<string, OperationMatch | null>>();
  private memoSize = 0;

  constructor(
    operations: Operation[],
    private readonly basePaths: string[],
  ) {
    for (const entry of operations) {
      const list = this.byMethod.get(entry.method) ?? [];
      list.push(entry);
      this.byMethod.set(entry.method, list);
      this.exact.set(entry.key, entry);
    }
  }

  /** The operation of `method` and `rawPath`, or undefined. */
  find(method: string, rawPath: string): Operation | undefined {
    return this.match(method, rawPath)?.operation;
  }

  /** The operation of `method` and `rawPath` with the values of its path parameters, or undefined. */
  match(method: string, rawPath: string): OperationMatch | undefined {
    let byPath = this.memo.get(method);
    const memoized = byPath?.get(rawPath);
    if (memoized !== undefined) return memoized ?? undefined;
    const found = this.lookup(method, rawPath);
    if (this.memoSize >= 2000) {
      // concrete paths vary by id: keep the memo bounded
      this.memo.clear();
      this.memoSize = 0;
      byPath = undefined;
    }
    if (!byPath) {
      byPath = new Map();
      this.memo.set(method, byPath);
    }
    byPath.set(rawPath, found ?? null);
    this.memoSize++;
    return found;
  }

  private lookup(method: string, rawPath: string): OperationMatch | undefined {
    const upper = method.toUpperCase();
    const path = normalizePath(rawPath);
    const candidates: string[] = [];
    for (const base of this.basePaths) {
      if (path === base) candidates.push("/");
      else if (path.startsWith(`${base}/`)) candidates.push(path.slice(base.length));
    }
    candidates.push(path);
    for (const candidate of candidates) {
      const exact = this.exact.get(`${upper} ${candidate}`);
      if (exact) return { operation: exact, params: paramsOf(exact, candidate) };
    }
    for (const candidate of candidates) {
      const found = this.matchConcrete(upper, candidate);
      if (found) return { operation: found, params: paramsOf(found, candidate) };
    }
    return undefined;
  }
  private matchConcrete(method: string, path: string): Operation | undefined {
    const segments = splitPath(path);
    let best: Operation | undefined;
    let bestScore = "";
    for (const entry of this.byMethod.get(method) ?? []) {
      if (entry.segments.length !== segments.length) continue;
      // One character per segment, "1" for a literal match and "0" for a template: the highest string wins.
      let score = "";
      let matches = true;
      for (let i = 0; i < segments.length; i++) {
        const expected = entry.segments[i]!;
        const actual = segments[i]!;
        if ("literal" in expected) {
          if (expected.literal !== actual) {
            matches = false;
            break;
          }
          score += "1";
        } else {
          if (actual === "") {
            matches = false;
            break;
          }
          score += "0";
        }
      }
      if (matches && (best === undefined || score > bestScore)) {
        best = entry;
        bestScore = score;
      }
    }
    return best;
  }
}
