// The contract validator: checks one HTTP response (status, headers, content type, body), or one request's body or
// parameters, against the OpenAPI document. This file finds the operation and the documented response and runs the
// checks in order; headers.ts, bodies.ts, parameters.ts and responses.ts hold them, response-check.ts collects what
// they find.
import {
  deref,
  isObject,
  type JsonObject,
  listOperations,
  type Operation,
  OperationMatcher,
  serverBasePaths,
} from "../openapi/document.js";
import { type BodyContext, checkContent } from "./bodies.js";
import { checkHeaders } from "./headers.js";
import { checkParameters } from "./parameters.js";
import { ResponseCheck } from "./response-check.js";
import { DocumentedResponses, MEMO_LIMIT, matchContent } from "./responses.js";
import { SchemaCompiler } from "./schemas.js";
import type {
  ContractResult,
  ContractValidatorOptions,
  ContractViolation,
  HeadersLike,
  OpenApiDocument,
  OperationRef,
  ResponseToValidate,
} from "./types.js";

export interface ContractValidator {
  readonly document: OpenApiDocument;
  /** Every operation of the document. */
  readonly operations: OperationRef[];
  /** The operation a method and path (templated, concrete or full URL) belong to. */
  findOperation(method: string, path: string): OperationRef | undefined;
  validateResponse(response: ResponseToValidate, options?: { strict?: boolean }): ContractResult;
  /**
   * Validates a request body against the schema the operation documents for `mediaType` (default
   * `application/json`; for `multipart/form-data`, `body` is the parts by name).
   */
  validateRequestBody(method: string, path: string, body: unknown, mediaType?: string): ContractViolation[];
  /**
   * Validates a request's query, header and path parameters against the ones its operation documents. `url` is
   * the concrete path with its query string, a full URL, or a URL object already parsed (read as it is: its path
   * and query); `headers` a fetch Headers or a plain map.
   */
  validateRequestParameters(method: string, url: string | RequestTarget, headers?: HeadersLike): ContractViolation[];
}

/** What a validator holds: the document read once, its schemas compiled on first use, its responses resolved. */
interface ValidatorState {
  document: OpenApiDocument;
  matcher: OperationMatcher;
  compiler: SchemaCompiler;
  responses: DocumentedResponses;
  strict: boolean;
}

const refOf = (entry: Operation): OperationRef => ({
  operationId: entry.operationId,
  method: entry.method,
  path: entry.path,
});

function unknownOperation(method: string, path: string): ContractViolation {
  const message = `${method.toUpperCase()} ${path} is not an operation of the spec`;
  return { kind: "unknown-operation", location: "operation", pointer: "", message };
}

/** The operation, the status, then (when the status is documented) the headers and the content, in that order. */
function validateResponse(state: ValidatorState, input: ResponseToValidate, strict: boolean): ContractResult {
  const entry = state.matcher.find(input.method, input.path);
  if (!entry) {
    const violations = [unknownOperation(input.method, input.path)];
    return { ok: false, operation: undefined, responseKey: undefined, violations, warnings: [] };
  }
  const check = new ResponseCheck(input, refOf(entry));
  if (input.expectSuccess && (input.status < 200 || input.status > 299)) {
    check.addStatus("unexpected-status", `expected a 2xx status, got ${input.status}`);
  }
  const { responseKey, resolved } = state.responses.forStatus(entry, input.status);
  if (!resolved) {
    check.addStatus("undocumented-status", `status ${input.status} is not documented`);
    return check.result(undefined);
  }
  checkHeaders(check, resolved.headers, state.compiler);
  const context: BodyContext = { document: state.document, compiler: state.compiler, strict };
  checkContent(check, resolved, context);
  return check.result(responseKey);
}

/** A documented request medium: its media type as the document spells it, and its media object. */
type RequestMedium = { mediaType: string; value: unknown };

/** The media a request body's `content` documents, per request media type, matched once per content object. */
const requestMedia = new WeakMap<object, Map<string, RequestMedium | null>>();

function requestMediaOf(content: JsonObject, mediaType: string): RequestMedium | undefined {
  let memo = requestMedia.get(content);
  if (!memo) {
    memo = new Map();
    requestMedia.set(content, memo);
  }
  let found = memo.get(mediaType);
  if (found === undefined) {
    const documented = Object.entries(content).map(([type, value]) => ({ mediaType: type, value }));
    found = matchContent(documented, mediaType) ?? null;
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(mediaType, found);
  }
  return found ?? undefined;
}

/**
 * A request body against the schema its operation documents for `mediaType` (or a range that covers it).
 * A required body that is absent is reported whatever its media type (multipart/form-data too).
 */
function validateRequestBody(
  state: ValidatorState,
  method: string,
  path: string,
  body: unknown,
  mediaType = "application/json",
): ContractViolation[] {
  const entry = state.matcher.find(method, path);
  if (!entry) return [unknownOperation(method, path)];
  const requestBody = deref(state.document, entry.operation.requestBody);
  if (!requestBody) return [];
  if (body === undefined) {
    return requestBody.required === true
      ? [{ kind: "body-schema", location: "body", pointer: "", message: "request body is required" }]
      : [];
  }
  const media = isObject(requestBody.content) ? requestMediaOf(requestBody.content, mediaType) : undefined;
  if (!media) return [];
  const schema = isObject(media.value) ? media.value.schema : undefined;
  if (schema === undefined) return [];
  return state.compiler.validate(`${entry.key} request ${media.mediaType}`, schema, body).map((error) => ({
    kind: "body-schema" as const,
    location: "body" as const,
    pointer: error.pointer,
    message: `request body: ${error.message}`,
  }));
}

const URL_BASE = "http://request.invalid";

/** What the parameter checks read of a parsed request target: a `URL`, or an object with the same two fields. */
export type RequestTarget = Pick<URL, "pathname" | "searchParams">;

/** A request's query, header and path parameters against its operation's. */
function validateRequestParameters(
  state: ValidatorState,
  method: string,
  url: string | RequestTarget,
  headers: HeadersLike | undefined,
): ContractViolation[] {
  const parsed = typeof url === "string" ? new URL(url, URL_BASE) : url;
  const match = state.matcher.match(method, parsed.pathname);
  if (!match) return [unknownOperation(method, parsed.pathname)];
  const parts = { query: parsed.searchParams, headers, path: match.params };
  return checkParameters(state.document, state.compiler, match.operation, parts);
}

export function createContractValidator(
  document: OpenApiDocument,
  options: ContractValidatorOptions = {},
): ContractValidator {
  if (!isObject(document) || typeof document.openapi !== "string" || !document.openapi.startsWith("3.1")) {
    throw new Error("contract: expected an OpenAPI 3.1 document (a bundled one, e.g. generated/openapi.json)");
  }
  const operations = listOperations(document);
  const state: ValidatorState = {
    document,
    matcher: new OperationMatcher(operations, options.basePaths ?? serverBasePaths(document)),
    compiler: new SchemaCompiler(document),
    responses: new DocumentedResponses(document),
    strict: options.strict ?? false,
  };
  return {
    document,
    operations: operations.map(refOf),
    findOperation: (method, path) => {
      const entry = state.matcher.find(method, path);
      return entry ? refOf(entry) : undefined;
    },
    validateResponse: (input, callOptions = {}) => validateResponse(state, input, callOptions.strict ?? state.strict),
    validateRequestBody: (method, path, body, mediaType) => validateRequestBody(state, method, path, body, mediaType),
    validateRequestParameters: (method, url, headers) => validateRequestParameters(state, method, url, headers),
  };
}
