// The one request pipeline behind the HTTP mock (src/mock/server.ts) and the ./msw handlers (src/msw): a small
// Fetch-like request (method, URL, headers, body text) in, an answer (status, headers, body text) out. It
// knows neither Node's http nor Prism, so it runs in a browser too; each front adapts its transport to it.
// Stages, in order:
//   1. parse: the URL (400 when it is none), the operation of method and path (404 when no path matches, 405
//      with Allow when the path lacks the method), the body (request-checks.ts);
//   2. the package's own refusals (request-checks.ts, a malformed `Prefer`), the API key of a keyed
//      operation (401), then the request's parameters and its body against the contract with the package's
//      validator (422);
//   3. an answer source: Prism's engine for the mock, the documented examples for ./msw (documented-source.ts);
//   4. what every answer gets: header values made safe, the rate-limit headers of its moment (rate-limit.ts),
//      quotes expiring after it (quote-expiry.ts), the mock's identity (identity.ts); a refusal, and an error
//      answer of the source with findings about the request, is the documented error answer with the published
//      error body of its reason and findings (error-body.ts), which `sl-violations` lists too.
// Time is the pipeline's clock (`now`), so a test can fix the moment of every answer.
// Optional steps for a stateful source (the sandbox, src/sandbox), none of which the mock or ./msw use: an
// admission step (`admit`) before routing's refusals, which may refuse a request (a signature, a rate limit) and
// gives headers every answer to the request carries (rate-limit headers from real counters, in place of the
// documented examples' rewrite); `refreshQuotes: false` leaves the quotes a source answers as it wrote them; and
// `checkAnswer`, a last check of every answer, which makes an answer it finds wrong a 500 saying why.
import { type ContractValidator, createContractValidator } from "../contract/validator.js";
import {
  apiKeyHeaderName,
  HTTP_METHODS,
  isJsonMediaType,
  listOperations,
  type OpenApiDocument,
  type Operation,
  type OperationMatch,
  OperationMatcher,
  jsonMedia,
  pointerTokens,
  responseKeyFor,
} from "../openapi/document.js";
import { errorAnswer, type Preferences, parsePrefer, safeHeaderValue, violationsHeader } from "./answers.js";
import { createBodyCheck } from "./body-check.js";
import { createErrorBodies, type ErrorBodies } from "./error-body.js";
import { MOCK_IDENTITY } from "./identity.js";
import { quoteExpiry } from "./quote-expiry.js";
import { rateLimitHeaders } from "./rate-limit.js";
import {
  createRequestChecks,
  multipartParts,
  parseBody,
  type Refusal,
  unsupportedMediaType,
} from "./request-checks.js";

/** A request as a front hands it over: header names lower-cased. */
export interface PipelineRequest {
  method: string;
  /** The request target (`/v1/wallets?x=1`) or an absolute URL. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** `url` already parsed (against any base) by a front that needed it, so it is not parsed twice. */
  parsedUrl?: ParsedTarget;
}

/** A finding about a request or an answer, as a `sl-violations` header lists it (Prism's shape). */
export interface Violation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

/** A request as an answer source sees it: checked, its operation found, its body parsed. */
export interface SourceRequest {
  operation: Operation;
  /** The values of the operation's path parameters in this request's path, decoded. */
  params: Record<string, string>;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  preferences: Preferences;
}

/** What a source answers: an answer (its findings about it, if any), or a refusal with its status and reason. */
export type SourceAnswer =
  | {
      kind: "answer";
      status: number;
      headers: Record<string, unknown>;
      body: unknown;
      violations?: Violation[];
      /** `body` already written as JSON (JSON.stringify's text): sent as is when the body goes out unchanged. */
      bodyText?: string;
    }
  | { kind: "refused"; status: number; reason: string };

/** A value now, or a promise of it: a stage answers at once when nothing it calls must wait. */
export type Eventually<T> = T | Promise<T>;

export interface AnswerSource {
  answer(request: SourceRequest): Eventually<SourceAnswer>;
}

/** What the front writes. `why` is set on a refusal (for the front's log). */
export interface PipelineAnswer {
  status: number;
  /** This answer's own object (every stage makes a new one), so a later stage sets headers on it. */
  headers: Record<string, string | string[]>;
  body: string;
  why?: string;
  /** The JSON value `body` is the JSON.stringify text of (a JSON body only): what a check reads, not parsing it. */
  value?: unknown;
  /**
   * A body made as it is sent, in place of `body` (empty then): the HTTP front sends it chunk by chunk as the socket
   * takes them, with no content-length. Only a front's own answers have one (the sandbox's whole state); the
   * pipeline's never do.
   */
  stream?: AsyncIterable<Uint8Array>;
}

interface PipelineOptions {
  /** The contract the requests are for (the mock's copy: paths under the base path). */
  spec: OpenApiDocument;
  source: AnswerSource;
  /** Base paths a request path may carry before the contract's path (./msw: the base URL's path). */
  basePaths?: string[];
  /** The pipeline's clock (ms since the epoch): quote expiry and rate-limit headers. Default Date.now. */
  now?: () => number;
  /** Runs before the operation's checks: may refuse the request, and gives headers for each of its answers. */
  admit?: (request: AdmissionRequest) => Eventually<Admission>;
  /** When false, quotes in a source's answers keep their expiryDate (the source computed it). Default true. */
  refreshQuotes?: boolean;
  /** The validator of the request checks, made for `spec` and `basePaths` (default: a new one): pipelines share one. */
  validator?: ContractValidator;
  /** The headers that say what answers (identity.ts), on every answer. Default: the mock's, MOCK_IDENTITY. */
  identity?: Readonly<Record<string, string>>;
  /** A last check of every answer (refusals too): what is wrong with it, or undefined; wrong answers become 500. */
  checkAnswer?: (answer: PipelineAnswer, request: AnsweredRequest) => string | undefined;
}

/** A request as the admission step sees it: its operation, if the path names one, and its target as sent. */
export interface AdmissionRequest {
  method: string;
  /** The path and query of the request (`/v1/transactions/me?page=1`), as a URL parser writes them. */
  target: string;
  operation: Operation | undefined;
  headers: PipelineRequest["headers"];
}

/** What the admission step decides: a refusal, or none; and headers every answer to the request carries. */
export interface Admission {
  refusal?: Refusal;
  /** Lower-case names; they replace the answer's own headers of the same name (its rate-limit headers). */
  headers?: Record<string, string>;
}

/** The request an answer is checked for: its operation (none when its path names none), method and path. */
export interface AnsweredRequest {
  operation: Operation | undefined;
  method: string;
  path: string;
}

export interface RequestPipeline {
  handle(request: PipelineRequest): Promise<PipelineAnswer>;
  /**
   * handle's answer, given at once when no stage waits (no multipart body, an admission step and a source that
   * answer at once): for a front that writes it in the same turn, without a promise per stage.
   */
  answer(request: PipelineRequest): Eventually<PipelineAnswer>;
  /**
   * The documented error answer for `status`, `why` in sl-violations: `request`'s operation's, else the one
   * the operations share. For what a front refuses itself (a body too large, a request Node cannot parse).
   */
  refuse(status: number, why: string, request?: { method: string; url: string }): PipelineAnswer;
}

/**
 * Most violations of one request the mock reports (in sl-violations): Prism and the validator find every one, a
 * body of numbers where strings are expected one per item; twenty say what is wrong, and fit in a header.
 */
export const MAX_VIOLATIONS = 20;

const URL_BASE = "http://mock.invalid";

/** Whether `value` is yet to come (a promise or any thenable). */
export const isPromise = <T>(value: Eventually<T>): value is Promise<T> =>
  typeof (value as { then?: unknown } | undefined)?.then === "function";

/** `next` of `value`: at once when it is there, else once it settles. */
export function after<T, U>(value: Eventually<T>, next: (value: T) => Eventually<U>): Eventually<U> {
  return isPromise(value) ? value.then(next) : next(value);
}

/** What the pipeline reads of a parsed request target (parseUrl). */
export type ParsedTarget = Pick<URL, "pathname" | "search" | "searchParams">;

/** The request target as a URL, or undefined where it is none (Node's parser takes "//", the URL parser not). */
export function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url, URL_BASE);
  } catch {
    return undefined;
  }
}

function headerOf(headers: PipelineRequest["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The query as Prism takes it: one string per key, an array for a repeated key. */
function queryOf(url: ParsedTarget): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  if (url.search === "") return query; // most requests: no parameters to gather
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0]! : values;
  }
  return query;
}

/** A JSON value written as the body text of an answer with `contentType` (a string of another type as is). */
function serialize(body: unknown, contentType: string | undefined): string {
  if (body === undefined) return "";
  if (typeof body === "string" && !isJsonMediaType(contentType)) return body;
  return JSON.stringify(body);
}

/** `answer` with the value its JSON text was written from (for the answer check); as it is for another body. */
function withValue(answer: PipelineAnswer, body: unknown, contentType: string | undefined): PipelineAnswer {
  if (body !== undefined && isJsonMediaType(contentType)) answer.value = body;
  return answer;
}

/** A source's headers with lower-case names and values a header can carry. */
function safeHeaders(headers: Record<string, unknown>): Record<string, string | string[]> {
  const safe: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    safe[name.toLowerCase()] = Array.isArray(value) ? value.map(safeHeaderValue) : safeHeaderValue(String(value));
  return safe;
}

/** The safe headers of each frozen headers object a source answers (the sandbox's per operation): it cannot change. */
const safeFrozenHeaders = new WeakMap<object, Record<string, string | string[]>>();

/** safeHeaders, worked out once for a frozen headers object; the caller must not change what it answers. */
function safeHeadersOf(headers: Record<string, unknown>): Record<string, string | string[]> {
  if (!Object.isFrozen(headers)) return safeHeaders(headers);
  let safe = safeFrozenHeaders.get(headers);
  if (!safe) {
    safe = safeHeaders(headers);
    safeFrozenHeaders.set(headers, safe);
  }
  return safe;
}

const refusalFinding = (why: string): Violation[] => [{ location: ["request"], severity: "Error", message: why }];

/** What findings say, in one line: the first MAX_VIOLATIONS messages, and how many more there are. */
function summaryOf(findings: Array<{ message: string }>): string {
  const more = findings.length - MAX_VIOLATIONS;
  const said = findings.slice(0, MAX_VIOLATIONS).map((finding) => finding.message);
  return more > 0 ? `${said.join("; ")}; and ${more} more` : said.join("; ");
}

/** The validator's findings about a request body, in Prism's shape (location request/body/…pointer). */
function bodyFindings(violations: Array<{ pointer: string; message: string }>): Violation[] {
  return violations.slice(0, MAX_VIOLATIONS).map((violation) => ({
    location: ["request", "body", ...pointerTokens(violation.pointer)],
    severity: "Error",
    message: violation.message,
  }));
}

/** Where Prism's findings locate a parameter: `header`, not the validator's `headers`. */
const FINDING_PLACE: Record<string, string> = { query: "query", headers: "header", path: "path" };

/** The validator's findings about a request's parameters, in Prism's shape (location request/query/name). */
function parameterFindings(violations: Array<{ location: string; pointer: string; message: string }>): Violation[] {
  return violations.slice(0, MAX_VIOLATIONS).map((violation) => ({
    location: ["request", FINDING_PLACE[violation.location] ?? violation.location, ...pointerTokens(violation.pointer)],
    severity: "Error",
    message: violation.message,
  }));
}

/** The API key header of the contract, or undefined when it has not exactly one. */
function apiKeyHeaderOf(spec: OpenApiDocument): string | undefined {
  try {
    return apiKeyHeaderName(spec);
  } catch {
    return undefined;
  }
}

/** The headers that say what answers (PipelineOptions.identity). */
type Identity = Readonly<Record<string, string>>;

/** What stage 4 does beyond the contract: refresh the quotes' expiry (the mock), and which identity it writes. */
interface FinishOptions {
  refreshQuotes: boolean;
  identity: Identity;
}

/** A refusal as the pipeline writes it: the documented error answer, with the refusal's findings. */
type Refuse = (operation: Operation | undefined, refused: Refusal, findings?: Violation[]) => PipelineAnswer;

/**
 * Stage 4 for refusals: the documented error answer of the status with the published error body of the refusal
 * (its reason, its findings), its rate-limit headers of this moment.
 */
function createRefuse(spec: OpenApiDocument, now: () => number, errorBodies: ErrorBodies, identity: Identity): Refuse {
  const limits = rateLimitHeaders(spec);
  return (operation, refused, findings = refusalFinding(refused.why)) => {
    const answer = errorAnswer(spec, operation, refused.status);
    const headers = {
      ...limits.refresh(answer.headers, refused.status, now()),
      ...identity,
      "sl-violations": violationsHeader(findings),
    };
    const documented = { body: answer.body, contentType: answer.headers["content-type"], schema: answer.schema };
    const body = errorBodies.of(documented, refused.why, findings);
    const refusal = { status: refused.status, headers, body: serialize(body, "application/json"), why: refused.why };
    return withValue(refusal, body, "application/json");
  };
}

/** The findings of a source's answer about the request (not about the answer itself). */
const requestFindings = (violations: Violation[] | undefined): Violation[] =>
  (violations ?? []).filter((violation) => violation.location[0] === "request");

/**
 * Stage 4 for a source's answer: safe headers, rate limits and quotes of this moment, the identity; an error
 * answer with findings about the request (Prism's 404 for an unknown Prefer example, for one) gets the published
 * error body of those findings.
 */
function createFinish(spec: OpenApiDocument, now: () => number, errorBodies: ErrorBodies, options: FinishOptions) {
  const { refreshQuotes, identity } = options;
  const quotes = quoteExpiry(spec);
  const limits = rateLimitHeaders(spec);
  const bodyOf = (operation: Operation, answer: SourceAnswer & { kind: "answer" }, contentType?: string) => {
    const findings = requestFindings(answer.violations);
    if (answer.status < 400 || !findings.length) return answer.body;
    const key = responseKeyFor(operation.responses, answer.status);
    const schema = key === undefined ? undefined : jsonMedia(operation.responses[key])?.schema;
    return errorBodies.of({ body: answer.body, contentType, schema }, summaryOf(findings), findings);
  };
  return (operation: Operation, answer: SourceAnswer & { kind: "answer" }): PipelineAnswer => {
    const at = now();
    // refresh answers a copy of its own, which takes the identity in place of one more copy.
    const headers: Record<string, string | string[]> = Object.assign(
      limits.refresh(safeHeadersOf(answer.headers), answer.status, at),
      identity,
    );
    if (answer.violations?.length) headers["sl-violations"] = violationsHeader(answer.violations);
    const contentType = headerOf(headers, "content-type");
    const written = bodyOf(operation, answer, contentType);
    const body = refreshQuotes ? quotes.refresh(operation, answer.status, written, at) : written;
    const text =
      answer.bodyText !== undefined && body === answer.body && isJsonMediaType(contentType)
        ? answer.bodyText
        : serialize(body, contentType);
    return withValue({ status: answer.status, headers, body: text }, body, contentType);
  };
}

/** A body as the contract check reads it: parsed JSON (`json`), multipart parts (`multipart`), or other text. */
type ParsedJson = { value: unknown; json: boolean; multipart?: boolean };

/** No admission step: nothing refused, no headers. */
const NO_ADMISSION: Admission = Object.freeze({});

/** A request routed to its operation, its body parsed (JSON or text) and its preferences read. */
interface ParsedRequest {
  request: PipelineRequest;
  url: ParsedTarget;
  matched: OperationMatch;
  parsed: ParsedJson;
  preferences: Preferences;
}

/** The request as the contract check reads it: its operation, its target, its headers and its parsed body. */
interface CheckedRequest {
  operation: Operation;
  url: ParsedTarget;
  headers: PipelineRequest["headers"];
  body: ParsedJson;
}

/**
 * Stage 2 after the request's own checks: the API key of a keyed operation (401), then the parameters (422),
 * then the body (422).
 */
function createContractCheck(spec: OpenApiDocument, refuse: Refuse, validator: ContractValidator) {
  const apiKeyHeader = apiKeyHeaderOf(spec);
  return ({ operation, url, headers, body }: CheckedRequest): PipelineAnswer | undefined => {
    if (apiKeyHeader && operation.security === "required" && headers[apiKeyHeader] === undefined) {
      const why = `the operation requires the ${apiKeyHeader} header`;
      const finding = { location: ["request", "header", apiKeyHeader], severity: "Error", code: 401, message: why };
      return refuse(operation, { status: 401, why }, [finding]);
    }
    const wrongParameters = validator.validateRequestParameters(operation.method, url, headers);
    if (wrongParameters.length)
      return refuse(operation, { status: 422, why: summaryOf(wrongParameters) }, parameterFindings(wrongParameters));
    // A body of another media type is Prism's to judge. A JSON null where the body is required is a missing
    // body, as Prism takes it (where it is optional, request-checks.ts refused it before).
    const mediaType = body.multipart ? "multipart/form-data" : "application/json";
    if (!body.json && !body.multipart && body.value !== undefined) return undefined;
    const value = body.value ?? undefined;
    const violations = validator.validateRequestBody(operation.method, operation.path, value, mediaType);
    if (!violations.length) return undefined;
    return refuse(operation, { status: 422, why: summaryOf(violations) }, bodyFindings(violations));
  };
}

/** Stage 1's matching: the operation of method and path, else the 404, or the 405 with Allow. */
function createRouter(spec: OpenApiDocument, basePaths: string[], refuse: Refuse) {
  const matcher = new OperationMatcher(listOperations(spec), basePaths);
  /** The methods some operation has at this concrete path (for 405 and Allow). */
  const allowedMethods = (path: string): string[] =>
    HTTP_METHODS.map((m) => m.toUpperCase()).filter((method) => matcher.find(method, path) !== undefined);
  const unmatched = (method: string, path: string): PipelineAnswer => {
    const allowed = allowedMethods(path);
    if (!allowed.length)
      return refuse(undefined, { status: 404, why: `no operation of the contract has the path ${path}` });
    const why = `${method} is not an operation of ${path}`;
    const answer = refuse(matcher.find(allowed[0]!, path), { status: 405, why });
    return { ...answer, headers: { ...answer.headers, allow: allowed.join(", ") } };
  };
  return {
    find: (method: string, path: string) => matcher.find(method, path),
    route: (method: string, path: string): OperationMatch | PipelineAnswer =>
      matcher.match(method, path) ?? unmatched(method, path),
  };
}

/** `answer` with `headers` in place of its own of the same name: set on its headers, which are its own. */
function withHeaders(answer: PipelineAnswer, headers: Record<string, string> | undefined): PipelineAnswer {
  if (headers) Object.assign(answer.headers, headers);
  return answer;
}

/** The optional steps around the operation's: the admission step before, the answer check after. */
function createOptionalSteps({ admit, checkAnswer }: PipelineOptions, refuse: Refuse) {
  /** `answer`, or the 500 saying what `checkAnswer` finds wrong with it. */
  const checked = (answer: PipelineAnswer, request: AnsweredRequest): PipelineAnswer => {
    const wrong = checkAnswer?.(answer, request);
    return wrong === undefined ? answer : refuse(request.operation, { status: 500, why: wrong });
  };
  return {
    /** The admission step's decision: none without an admission step. */
    admission(request: PipelineRequest, url: ParsedTarget, operation: Operation | undefined): Eventually<Admission> {
      if (!admit) return NO_ADMISSION;
      const method = request.method.toUpperCase();
      return admit({ method, target: url.pathname + url.search, operation, headers: request.headers });
    },
    /** The answer with the admission's headers, checked. */
    finished(answer: PipelineAnswer, headers: Admission["headers"], answered: AnsweredRequest): PipelineAnswer {
      if (!admit && !checkAnswer) return answer;
      const withAdmission = withHeaders(answer, headers);
      const final = checked(withAdmission, answered);
      // Only a 500 of the check is a new answer, which takes the admission's headers too.
      return final === withAdmission ? final : withHeaders(final, headers);
    },
  };
}

/** Stages 3 and 4 of a routed, checked request: the source's answer, finished, or its refusal as the pipeline's. */
function createSourceStage(source: AnswerSource, finish: ReturnType<typeof createFinish>, refuse: Refuse) {
  /** Stage 4 of the source's answer. */
  const fromSource = (request: SourceRequest, answer: SourceAnswer): PipelineAnswer => {
    if (answer.kind === "answer") return finish(request.operation, answer);
    const status = answer.status >= 400 && answer.status < 500 ? answer.status : 400;
    return refuse(request.operation, { status, why: answer.reason });
  };
  return (request: SourceRequest): Eventually<PipelineAnswer> =>
    after(source.answer(request), (answer) => fromSource(request, answer));
}

/** What the stages after routing use, made once for the pipeline. */
interface RoutedStages {
  refuse: Refuse;
  /** Stage 2's own refusals of the request (request-checks.ts). */
  checks: ReturnType<typeof createRequestChecks>;
  /** Stage 2's check against the contract (createContractCheck). */
  contractCheck: ReturnType<typeof createContractCheck>;
  /** Stages 3 and 4 (createSourceStage). */
  answerFromSource: (request: SourceRequest) => Eventually<PipelineAnswer>;
}

/** Stages 1 (after routing) to 4 of a request whose URL parsed: its body, its checks, the source's answer. */
function createRoutedStages({ refuse, checks, contractCheck, answerFromSource }: RoutedStages) {
  /** The rest of stage 2, then 3 and 4, of a request whose body parsed (its multipart parts too). */
  function answerParsed(
    { request, url, matched, parsed, preferences }: ParsedRequest,
    multipart: Awaited<ReturnType<typeof multipartParts>>,
  ): Eventually<PipelineAnswer> {
    const { operation, params } = matched;
    if (multipart && !("parts" in multipart)) return refuse(operation, multipart);
    const checkedBody = multipart ? { value: multipart.parts, json: false, multipart: true } : parsed;
    const contractRefusal = contractCheck({ operation, url, headers: request.headers, body: checkedBody });
    if (contractRefusal) return contractRefusal;
    const { headers } = request;
    const [method, path, query] = [request.method.toUpperCase(), url.pathname, queryOf(url)];
    return answerFromSource({ operation, params, method, path, query, headers, body: parsed.value, preferences });
  }

  /** Stages 1 (after routing) to 4 of a request whose URL parsed. */
  return function answerRouted(
    request: PipelineRequest,
    url: ParsedTarget,
    matched: OperationMatch | PipelineAnswer,
  ): Eventually<PipelineAnswer> {
    if (!("operation" in matched)) return matched;
    const { operation } = matched;
    const contentType = headerOf(request.headers, "content-type");
    const parsed = parseBody(operation, request.body, contentType);
    if (!("value" in parsed)) return refuse(operation, parsed);
    const unsupported = unsupportedMediaType(operation, request.body, contentType);
    if (unsupported) return refuse(operation, unsupported);
    const body = { text: request.body, value: parsed.value };
    const requestRefusal = checks.refusalOf(operation, body);
    if (requestRefusal) return refuse(operation, requestRefusal);
    const preferences = parsePrefer(headerOf(request.headers, "prefer"));
    if ("error" in preferences) return refuse(operation, { status: 422, why: preferences.error });
    const multipart = multipartParts(operation, request.body, contentType);
    const parsedRequest = { request, url, matched, parsed, preferences };
    if (!multipart) return answerParsed(parsedRequest, undefined);
    return multipart.then((parts) => answerParsed(parsedRequest, parts));
  };
}

export function createRequestPipeline(options: PipelineOptions): RequestPipeline {
  const { spec, source } = options;
  const now = options.now ?? (() => Date.now());
  const errorBodies = createErrorBodies(spec);
  const identity = options.identity ?? MOCK_IDENTITY;
  const refuse = createRefuse(spec, now, errorBodies, identity);
  const { admission, finished } = createOptionalSteps(options, refuse);
  const finish = createFinish(spec, now, errorBodies, { refreshQuotes: options.refreshQuotes ?? true, identity });
  const router = createRouter(spec, options.basePaths ?? [], refuse);
  const checks = createRequestChecks(createBodyCheck(spec));
  const validator = options.validator ?? createContractValidator(spec, { basePaths: options.basePaths ?? [] });
  const contractCheck = createContractCheck(spec, refuse, validator);
  const answerFromSource = createSourceStage(source, finish, refuse);
  const answerRouted = createRoutedStages({ refuse, checks, contractCheck, answerFromSource });

  function answer(request: PipelineRequest): Eventually<PipelineAnswer> {
    const method = request.method.toUpperCase();
    const url = request.parsedUrl ?? parseUrl(request.url);
    if (url === undefined) return refuse(undefined, { status: 400, why: "the request target is not a valid URL" });
    const matched = router.route(method, url.pathname);
    const operation = "operation" in matched ? matched.operation : undefined;
    const answered = { operation, method, path: url.pathname };
    return after(admission(request, url, operation), ({ refusal, headers }) =>
      after(refusal ? refuse(operation, refusal) : answerRouted(request, url, matched), (routed) =>
        finished(routed, headers, answered),
      ),
    );
  }

  return {
    handle: async (request) => answer(request),
    answer,
    refuse(status, why, request) {
      const path = request && parseUrl(request.url)?.pathname;
      return refuse(path === undefined ? undefined : router.find(request!.method, path), { status, why });
    },
  };
}
