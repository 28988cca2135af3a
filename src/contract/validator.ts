// The contract validator: checks one HTTP response against the OpenAPI document.
import {
  deref,
  isObject,
  type JsonObject,
  listOperations,
  type Operation,
  OperationMatcher,
  serverBasePaths,
} from "../openapi/document.js";
import { schemaErrors, SchemaCompiler, type CompiledPair } from "./schemas.js";
import type {
  ContractResult,
  ContractValidatorOptions,
  ContractViolation,
  ContractWarning,
  HeadersLike,
  OpenApiDocument,
  OperationRef,
  ResponseToValidate,
} from "./types.js";
import { findUndocumentedFields } from "./undocumented.js";

export interface ContractValidator {
  readonly document: OpenApiDocument;
  /** Every operation of the document. */
  readonly operations: OperationRef[];
  /** The operation a method and path (templated, concrete or full URL) belong to. */
  findOperation(method: string, path: string): OperationRef | undefined;
  validateResponse(response: ResponseToValidate, options?: { strict?: boolean }): ContractResult;
  /** Validates a request body against the operation's JSON request body schema. */
  validateRequestBody(method: string, path: string, body: unknown): ContractViolation[];
}

interface ResolvedHeader {
  name: string;
  required: boolean;
  schema: unknown;
  cacheKey: string;
  /** The JSON types the schema declares, for converting the header string (see coerceHeaderValue). */
  integer: boolean;
  number: boolean;
  string: boolean;
  boolean: boolean;
  /** Compiled on first use. */
  compiled?: CompiledPair;
}

interface ResolvedContent {
  mediaType: string;
  schema: unknown;
  cacheKey: string;
  compiled?: CompiledPair;
}

interface ResolvedResponse {
  key: string;
  response: JsonObject;
  headers: ResolvedHeader[];
  content: ResolvedContent[];
  /** matchContent results per response media type (bounded). */
  contentByMediaType: Map<string, ResolvedContent | null>;
}

/** What a status of an operation resolves to (cached per operation and status). */
interface StatusResolution {
  responseKey: string | undefined;
  resolved: ResolvedResponse | null;
}

const MEMO_LIMIT = 256;

function isFetchHeaders(
  headers: HeadersLike,
): headers is { get(name: string): string | null; forEach(cb: (value: string, name: string) => void): void } {
  return (
    typeof (headers as { get?: unknown }).get === "function" &&
    typeof (headers as { forEach?: unknown }).forEach === "function"
  );
}

function headerText(value: string | string[] | number | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(", ") : String(value);
}

/**
 * Case-insensitive header lookup over a fetch Headers or a plain map, without copying it.
 * `name` is lower case. A plain map is read directly by the lower-case name first; otherwise the
 * last key that matches case-insensitively wins.
 */
function readHeader(headers: HeadersLike | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (isFetchHeaders(headers)) return headers.get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | number | undefined>;
  let value = record[name];
  if (value === undefined) {
    for (const key in record) {
      if (Object.hasOwn(record, key) && key.toLowerCase() === name) value = record[key];
    }
  }
  return headerText(value);
}

const mediaTypeMemo = new Map<string, string | undefined>();

function mediaTypeOf(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  if (mediaTypeMemo.has(contentType)) return mediaTypeMemo.get(contentType);
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase() || undefined;
  if (mediaTypeMemo.size >= MEMO_LIMIT) mediaTypeMemo.clear();
  mediaTypeMemo.set(contentType, mediaType);
  return mediaType;
}

export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === "application/json" || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(mediaType);
}

function matchContent<T extends { mediaType: string }>(content: T[], mediaType: string): T | undefined {
  for (const entry of content) if (entry.mediaType.toLowerCase() === mediaType) return entry;
  const wildcard = `${mediaType.split("/")[0]}/*`;
  for (const entry of content) if (entry.mediaType.toLowerCase() === wildcard) return entry;
  for (const entry of content) if (entry.mediaType === "*/*") return entry;
  return undefined;
}

const INTEGER_TEXT = /^-?\d+$/;
const NOT_CONVERTIBLE: unique symbol = Symbol("not convertible");

/**
 * Header values are strings; converts one to the JSON type its schema declares (integer, then
 * number, then boolean; otherwise the string itself). NOT_CONVERTIBLE when the schema allows
 * only numbers and the text is not one (see conversionError for the message).
 */
function coerceHeaderValue(raw: string, header: ResolvedHeader): unknown {
  if (!header.integer && !header.number && !header.boolean) return raw;
  const text = raw.trim();
  if (header.integer) {
    if (INTEGER_TEXT.test(text)) return Number(text);
    if (!header.number && !header.string) return NOT_CONVERTIBLE;
  }
  if (header.number) {
    if (text !== "" && Number.isFinite(Number(text))) return Number(text);
    if (!header.string) return NOT_CONVERTIBLE;
  }
  if (header.boolean && (text === "true" || text === "false")) return text === "true";
  return raw;
}

/** The count (an integer ≥ 0) a header holds, or undefined when it holds something else (its schema reports that). */
const countOf = (raw: string | undefined): number | undefined =>
  raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw) : undefined;

/**
 * Each documented `…-Remaining` header whose count exceeds its documented `…-Limit` sibling's (X-RateLimit-Remaining
 * above X-RateLimit-Limit): as message tails, with the header's name.
 */
function remainingAboveLimit(
  documented: ResolvedHeader[],
  headers: HeadersLike | undefined,
): Array<{ name: string; tail: string }> {
  const names = new Set(documented.map((header) => header.name));
  const found: Array<{ name: string; tail: string }> = [];
  for (const name of names) {
    const limitName = name.replace(/-remaining$/, "-limit");
    if (limitName === name || !names.has(limitName)) continue;
    const remaining = countOf(readHeader(headers, name));
    const limit = countOf(readHeader(headers, limitName));
    if (remaining !== undefined && limit !== undefined && remaining > limit)
      found.push({ name, tail: `header ${name} (${remaining}) exceeds ${limitName} (${limit})` });
  }
  return found;
}

/** RFC 8259 §8.1: a JSON text's sender must not add a byte-order mark. */
const BYTE_ORDER_MARK = "\uFEFF";

function conversionError(raw: string, header: ResolvedHeader): string {
  return header.integer && !header.number && !header.string
    ? `must be an integer, got ${JSON.stringify(raw)}`
    : `must be a number, got ${JSON.stringify(raw)}`;
}

function declaredTypes(schema: unknown): Pick<ResolvedHeader, "integer" | "number" | "string" | "boolean"> {
  const type = isObject(schema) ? schema.type : undefined;
  const types: unknown[] = Array.isArray(type) ? type : type === undefined ? [] : [type];
  return {
    integer: types.includes("integer"),
    number: types.includes("number"),
    string: types.includes("string"),
    boolean: types.includes("boolean"),
  };
}

export function createContractValidator(
  document: OpenApiDocument,
  options: ContractValidatorOptions = {},
): ContractValidator {
  if (!isObject(document) || typeof document.openapi !== "string" || !document.openapi.startsWith("3.1")) {
    throw new Error("contract: expected an OpenAPI 3.1 document (a bundled one, e.g. generated/openapi.json)");
  }
  const operations = listOperations(document);
  const matcher = new OperationMatcher(operations, options.basePaths ?? serverBasePaths(document));
  const compiler = new SchemaCompiler(document);
  const responseCache = new Map<string, ResolvedResponse | null>();
  const statusCache = new Map<Operation, Map<number, StatusResolution>>();

  const refOf = (entry: Operation): OperationRef => ({
    operationId: entry.operationId,
    method: entry.method,
    path: entry.path,
  });

  function responseKeyFor(entry: Operation, status: number): string | undefined {
    const responses = isObject(entry.operation.responses) ? entry.operation.responses : {};
    const exact = String(status);
    if (exact in responses) return exact;
    const range = `${exact[0]}XX`;
    const rangeKey = Object.keys(responses).find((key) => key.toUpperCase() === range);
    if (rangeKey) return rangeKey;
    return "default" in responses ? "default" : undefined;
  }

  function resolveResponse(entry: Operation, key: string): ResolvedResponse | null {
    const cacheKey = `${entry.key} ${key}`;
    const cached = responseCache.get(cacheKey);
    if (cached !== undefined) return cached;
    const responses = entry.operation.responses as JsonObject;
    const response = deref(document, responses[key]);
    let resolved: ResolvedResponse | null = null;
    if (response) {
      const headers = Object.entries(isObject(response.headers) ? response.headers : {}).flatMap(
        ([name, raw]): ResolvedHeader[] => {
          const header = deref(document, raw);
          if (!header || name.toLowerCase() === "content-type") return [];
          return [
            {
              name: name.toLowerCase(),
              required: header.required === true,
              schema: header.schema,
              cacheKey: `${cacheKey} header ${name}`,
              ...declaredTypes(header.schema),
            },
          ];
        },
      );
      const content = Object.entries(isObject(response.content) ? response.content : {}).map(([mediaType, media]) => ({
        mediaType,
        schema: isObject(media) ? media.schema : undefined,
        cacheKey: `${cacheKey} ${mediaType}`,
      }));
      resolved = { key, response, headers, content, contentByMediaType: new Map() };
    }
    responseCache.set(cacheKey, resolved);
    return resolved;
  }

  /** The documented response for a status of an operation, memoized per operation and status. */
  function resolveStatus(entry: Operation, status: number): StatusResolution {
    let byStatus = statusCache.get(entry);
    if (!byStatus) {
      byStatus = new Map();
      statusCache.set(entry, byStatus);
    }
    let resolution = byStatus.get(status);
    if (!resolution) {
      const responseKey = responseKeyFor(entry, status);
      resolution = { responseKey, resolved: responseKey === undefined ? null : resolveResponse(entry, responseKey) };
      if (byStatus.size >= MEMO_LIMIT) byStatus.clear();
      byStatus.set(status, resolution);
    }
    return resolution;
  }

  function contentFor(resolved: ResolvedResponse, mediaType: string): ResolvedContent | undefined {
    const memo = resolved.contentByMediaType;
    let found = memo.get(mediaType);
    if (found === undefined) {
      found = matchContent(resolved.content, mediaType) ?? null;
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(mediaType, found);
    }
    return found ?? undefined;
  }

  function validateResponse(input: ResponseToValidate, callOptions: { strict?: boolean } = {}): ContractResult {
    const strict = callOptions.strict ?? options.strict ?? false;
    const violations: ContractViolation[] = [];
    const warnings: ContractWarning[] = [];
    const entry = matcher.find(input.method, input.path);
    if (!entry) {
      violations.push({
        kind: "unknown-operation",
        location: "operation",
        pointer: "",
        message: `${input.method.toUpperCase()} ${input.path} is not an operation of the spec`,
      });
      return { ok: false, operation: undefined, responseKey: undefined, violations, warnings };
    }
    const operation = refOf(entry);
    // Messages are built only when something is wrong.
    const label = (): string => `${operation.method} ${operation.path}`;
    if (input.expectSuccess && (input.status < 200 || input.status > 299)) {
      violations.push({
        kind: "unexpected-status",
        location: "status",
        pointer: "",
        message: `${label()}: expected a 2xx status, got ${input.status}`,
      });
    }
    const { responseKey, resolved } = resolveStatus(entry, input.status);
    if (!resolved) {
      violations.push({
        kind: "undocumented-status",
        location: "status",
        pointer: "",
        message: `${label()}: status ${input.status} is not documented`,
      });
      return { ok: false, operation, responseKey: undefined, violations, warnings };
    }

    const headers = input.headers;
    for (const header of resolved.headers) {
      const raw = readHeader(headers, header.name);
      if (raw === undefined) {
        if (header.required) {
          violations.push({
            kind: "missing-header",
            location: "headers",
            pointer: `/${header.name}`,
            message: `${label()} ${input.status}: required header ${header.name} is missing`,
          });
        }
        continue;
      }
      if (header.schema === undefined) continue;
      const value = coerceHeaderValue(raw, header);
      if (value === NOT_CONVERTIBLE) {
        violations.push({
          kind: "invalid-header",
          location: "headers",
          pointer: `/${header.name}`,
          message: `${label()} ${input.status}: header ${header.name} ${conversionError(raw, header)}`,
        });
        continue;
      }
      header.compiled ??= compiler.compile(header.cacheKey, header.schema);
      const compiled = header.compiled;
      if (compiled.fast(value)) continue;
      for (const error of schemaErrors(compiled, value)) {
        violations.push({
          kind: "invalid-header",
          location: "headers",
          pointer: `/${header.name}`,
          message: `${label()} ${input.status}: header ${header.name} ${error.message.replace(/^\(root\) /, "")}`,
        });
      }
    }

    for (const { name, tail } of remainingAboveLimit(resolved.headers, headers)) {
      violations.push({
        kind: "invalid-header",
        location: "headers",
        pointer: `/${name}`,
        message: `${label()} ${input.status}: ${tail}`,
      });
    }

    const hasBody = input.bodyText !== undefined ? input.bodyText.length > 0 : input.body !== undefined;
    const mediaType = mediaTypeOf(readHeader(headers, "content-type"));
    if (!resolved.content.length) {
      if (hasBody) {
        violations.push({
          kind: "undocumented-content-type",
          location: "headers",
          pointer: "/content-type",
          message: `${label()} ${input.status}: the spec documents no body, but the response has one`,
        });
      }
    } else if (!mediaType) {
      violations.push({
        kind: "undocumented-content-type",
        location: "headers",
        pointer: "/content-type",
        message: `${label()} ${input.status}: Content-Type is missing (documented: ${resolved.content.map((c) => c.mediaType).join(", ")})`,
      });
    } else {
      const content = contentFor(resolved, mediaType);
      if (!content) {
        violations.push({
          kind: "undocumented-content-type",
          location: "headers",
          pointer: "/content-type",
          message: `${label()} ${input.status}: content type ${mediaType} is not documented (documented: ${resolved.content.map((c) => c.mediaType).join(", ")})`,
        });
      } else if (content.schema !== undefined) {
        let body = input.body;
        let parsed = true;
        if (input.bodyText !== undefined) {
          if (isJsonMediaType(mediaType)) {
            let text = input.bodyText;
            if (text.startsWith(BYTE_ORDER_MARK)) {
              violations.push({
                kind: "invalid-json",
                location: "body",
                pointer: "",
                message: `${label()} ${input.status}: body begins with a byte-order mark (U+FEFF), which RFC 8259 forbids a sender to add`,
              });
              text = text.slice(BYTE_ORDER_MARK.length); // the rest is still checked
            }
            try {
              body = text.length ? JSON.parse(text) : undefined;
            } catch (error) {
              parsed = false;
              violations.push({
                kind: "invalid-json",
                location: "body",
                pointer: "",
                message: `${label()} ${input.status}: body is not valid JSON (${(error as Error).message})`,
              });
            }
          } else body = input.bodyText;
        }
        if (parsed) {
          if (body === undefined) {
            violations.push({
              kind: "body-schema",
              location: "body",
              pointer: "",
              message: `${label()} ${input.status}: body is empty, but the spec documents one`,
            });
          } else {
            content.compiled ??= compiler.compile(content.cacheKey, content.schema);
            const compiled = content.compiled;
            if (!compiled.fast(body)) {
              for (const error of schemaErrors(compiled, body)) {
                violations.push({
                  kind: "body-schema",
                  location: "body",
                  pointer: error.pointer,
                  message: `${label()} ${input.status}: ${error.message}`,
                });
              }
            }
            if (strict && violations.length === 0) findUndocumentedFields(document, content.schema, body, "", warnings);
          }
        }
      }
    }
    return { ok: violations.length === 0, operation, responseKey, violations, warnings };
  }

  function validateRequestBody(method: string, path: string, body: unknown): ContractViolation[] {
    const entry = matcher.find(method, path);
    if (!entry)
      return [
        {
          kind: "unknown-operation",
          location: "operation",
          pointer: "",
          message: `${method.toUpperCase()} ${path} is not an operation of the spec`,
        },
      ];
    const requestBody = deref(document, entry.operation.requestBody);
    const media =
      requestBody && isObject(requestBody.content)
        ? matchContent(
            Object.entries(requestBody.content).map(([mediaType, value]) => ({ mediaType, value })),
            "application/json",
          )
        : undefined;
    if (!requestBody || !media) return [];
    if (body === undefined) {
      return requestBody.required === true
        ? [{ kind: "body-schema", location: "body", pointer: "", message: "request body is required" }]
        : [];
    }
    const schema = isObject(media.value) ? media.value.schema : undefined;
    if (schema === undefined) return [];
    return compiler.validate(`${entry.key} request ${media.mediaType}`, schema, body).map((error) => ({
      kind: "body-schema" as const,
      location: "body" as const,
      pointer: error.pointer,
      message: `request body: ${error.message}`,
    }));
  }

  return {
    document,
    operations: operations.map(refOf),
    findOperation: (method, path) => {
      const entry = matcher.find(method, path);
      return entry ? refOf(entry) : undefined;
    },
    validateResponse,
    validateRequestBody,
  };
}
