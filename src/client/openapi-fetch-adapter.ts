// How a call is sent: through openapi-fetch's own helpers, or through openapi-fetch itself.
// - A call that no middleware sees and that sets none of openapi-fetch's per-call builders (baseUrl, querySerializer,
//   pathSerializer, Request) is built here from openapi-fetch's exported helpers (createFinalURL, mergeHeaders, its
//   default path serializer) exactly as its coreFetch builds it, and handed straight to the attempts: no Request is
//   built, and openapi-fetch's per-call work (two header merges, option spreading) is skipped. Its result has
//   openapi-fetch's shape and values (`data`/`error`, `response`); test/client/openapi-fetch-adapter.test.ts holds the
//   two ways to the same results, so a newer openapi-fetch that builds or answers otherwise fails there first.
// - Any other call goes through an openapi-fetch client that builds real Requests, which middleware registered with
//   `use()` (or per call) sees as in openapi-fetch. Its `fetch` is a closure over the call that runs every attempt
//   and reads the body inside it (attempts.ts); its body is already serialized, with an identity `bodySerializer`,
//   so every attempt sends the same bytes; `parseAs: "stream"`, so openapi-fetch never reads a success body.
import createOpenApiClient, {
  createFinalURL,
  createQuerySerializer,
  defaultPathSerializer,
  mergeHeaders,
  removeTrailingSlash,
} from "openapi-fetch";
import { type BodyReading, type ReadAnswer, readReplacedBody } from "./body.js";
import type { RequestInfo } from "./errors.js";
import type { Redactor } from "./redact.js";
import { redactValue } from "./redact.js";
import { REQUEST_INFO } from "./unwrap.js";

const identity = (value: unknown) => value;

/** Per-call options only openapi-fetch's own request building honours: a call that sets one goes through it. */
const BUILT_BY_OPENAPI_FETCH = ["baseUrl", "querySerializer", "pathSerializer", "Request"] as const;

/** A call's options that are not RequestInit fields: openapi-fetch's and this client's (the rest are sent). */
const NOT_REQUEST_INIT = new Set([
  "params",
  "parseAs",
  "body",
  "bodySerializer",
  "headers",
  "middleware",
  "method",
  "signal",
  "fetch",
  "timeoutMs",
  "retry",
  "maxResponseBytes",
]);

/** One call, as the adapter sends it. */
export interface AdapterCall {
  method: string;
  /** The path as the caller gave it (a template, or a literal path). */
  path: string;
  /** The caller's options: openapi-fetch's own and this client's (it passes unknown ones on to its Request). */
  init: Record<string, unknown>;
  /** The body, already serialized (undefined for none). */
  body: unknown;
  info: RequestInfo;
  reading: BodyReading;
  /** Every attempt of the call, the body read inside the last one. */
  attempts(url: string, init: RequestInit): Promise<ReadAnswer>;
}

type Send = (
  method: string,
  path: string,
  init: unknown,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** The RequestInit of a Request a middleware handed on: what it says, body included (read once, sent every attempt). */
async function initOf(request: Request): Promise<RequestInit> {
  const { method, headers, redirect } = request;
  return { method, headers, redirect, body: request.body && (await request.arrayBuffer()) };
}

/** The headers of a call built here when it adds none of its own: without a body, and with a JSON body. */
interface BaseHeaders {
  plain: Record<string, string>;
  /** The client's headers after openapi-fetch's default Content-Type (theirs win, whatever its case). */
  withJsonType: Record<string, string>;
}

function baseHeadersOf(headers: Record<string, string>): BaseHeaders {
  const hasType = Object.keys(headers).some((name) => name.toLowerCase() === "content-type");
  return { plain: headers, withJsonType: hasType ? headers : { "Content-Type": "application/json", ...headers } };
}

/** Whether a call must go through openapi-fetch: middleware sees it, or it sets one of its per-call builders. */
const needsOpenApiFetch = (call: AdapterCall) =>
  call.reading.middlewareSees || BUILT_BY_OPENAPI_FETCH.some((name) => call.init[name] !== undefined);

/** The openapi-fetch clients of one typed client, its registered middleware, and `send` for its calls. */
// biome-ignore lint/suspicious/noExplicitAny: the constraint openapi-fetch's own types use
export function createOpenApiFetchAdapter<Paths extends Record<string, any>>(
  baseUrl: string,
  headers: Record<string, string>,
  redact: Redactor,
) {
  // Made once: openapi-fetch would make one on every call without it.
  const querySerializer = createQuerySerializer();
  /** For calls that go through openapi-fetch: real Requests. */
  const withRequests = createOpenApiClient<Paths>({ baseUrl, headers, querySerializer });
  /** A call's facts, by the params object of its own that it hands `withRequests` (what onRequest is given). */
  const facts = new WeakMap<object, RequestInfo>();
  // The first middleware records the URL a call is made for: all ApiError.url can say when a later middleware
  // answers the call itself, sending nothing. The attempts record the URL they send.
  withRequests.use({
    onRequest({ params, request }) {
      facts.get(params)!.url = redact(request.url);
    },
  });
  const direct: DirectBuild = {
    baseUrl: removeTrailingSlash(baseUrl),
    headers: baseHeadersOf(headers),
    querySerializer,
  };
  /** Middleware registered with use() and not ejected. */
  const registered: unknown[] = [];
  return {
    use(...added: unknown[]) {
      (withRequests.use as (...m: unknown[]) => void)(...added);
      for (const m of added) if (m) registered.push(m);
    },
    eject(...removed: unknown[]) {
      (withRequests.eject as (...m: unknown[]) => void)(...removed);
      for (const m of removed) if (registered.includes(m)) registered.splice(registered.indexOf(m), 1);
    },
    /** Whether middleware sees a call with these options (registered, or its own). */
    seesMiddleware: (init: Record<string, unknown>) =>
      registered.length > 0 || Boolean((init.middleware as unknown[] | undefined)?.length),
    send: (call: AdapterCall) =>
      needsOpenApiFetch(call) ? sendThroughOpenApiFetch(call, withRequests, facts) : sendDirect(call, direct),
  };
}

/** What a call built here starts from: the client's base URL (no trailing slash), headers and query serializer. */
interface DirectBuild {
  baseUrl: string;
  headers: BaseHeaders;
  querySerializer: (query: Record<string, unknown>) => string;
}

type CallParams = { header?: Record<string, unknown>; path?: Record<string, unknown>; query?: Record<string, unknown> };

/** The URL and RequestInit openapi-fetch's coreFetch would build for the call (its headers merged only if needed). */
function buildRequest(call: AdapterCall, build: DirectBuild): { url: string; init: RequestInit } {
  const { init: options, body } = call;
  const params = (options.params ?? {}) as CallParams;
  const url = createFinalURL(call.path, {
    baseUrl: build.baseUrl,
    params,
    querySerializer: build.querySerializer,
    pathSerializer: defaultPathSerializer,
  } as Parameters<typeof createFinalURL>[1]);
  const jsonBody = body !== undefined && !(body instanceof FormData);
  const callHeaders = options.headers as HeadersInit | undefined;
  const headers =
    callHeaders || params.header
      ? mergeHeaders(
          jsonBody ? { "Content-Type": "application/json" } : {},
          build.headers.plain,
          callHeaders,
          params.header as HeadersInit | undefined,
        )
      : jsonBody
        ? build.headers.withJsonType
        : build.headers.plain;
  const init: Record<string, unknown> = { redirect: "follow" };
  for (const key in options) if (!NOT_REQUEST_INIT.has(key)) init[key] = options[key];
  Object.assign(init, { method: call.method, body, headers });
  return { url, init: init as RequestInit };
}

/** Whether openapi-fetch would answer the response without reading a body (`data` or `error` undefined). */
function hasNoBody(response: Response, method: string): boolean {
  const { status, headers } = response;
  const empty = headers.get("content-length") === "0" && !headers.get("transfer-encoding")?.includes("chunked");
  return status === 204 || method === "HEAD" || empty;
}

/** The error body as openapi-fetch gives it: the text, parsed as JSON when it parses. */
async function errorBodyOf(answer: ReadAnswer): Promise<unknown> {
  const text = await answer.forOpenApiFetch.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The result with the call's facts: not enumerable (out of JSON and logs), found by unwrap() from any copy. */
const withRequestInfo = <T extends object>(out: T, info: RequestInfo): T =>
  Object.defineProperty(out, REQUEST_INFO, { value: info });

/** Sends a call built here: openapi-fetch's result shape, with the values its coreFetch would give. */
async function sendDirect(call: AdapterCall, build: DirectBuild) {
  const { url, init } = buildRequest(call, build);
  const answer = await call.attempts(url, init);
  const response = answer.network;
  const { reading } = call;
  let out: { data?: unknown; error?: unknown; response: Response };
  if (hasNoBody(response, call.method))
    out = response.ok ? { data: undefined, response } : { error: undefined, response };
  else if (response.ok) out = { data: reading.parseAs === "stream" ? response.body : answer.data, response };
  else out = { error: redactValue(await errorBodyOf(answer), reading.redact), response };
  return withRequestInfo(out, reading.info);
}

/** Sends a call through openapi-fetch; the result it gives, with the network response and the parsed body. */
async function sendThroughOpenApiFetch(
  call: AdapterCall,
  client: { request: unknown },
  facts: WeakMap<object, RequestInfo>,
) {
  const { init, reading, info } = call;
  const callParams = { ...(init.params as object | undefined) };
  facts.set(callParams, info);
  let answer: ReadAnswer | undefined;
  const attempts = async (request: Request) => {
    answer = await call.attempts(request.url, await initOf(request));
    return answer.forOpenApiFetch;
  };
  // This client's options (timeoutMs, retry, maxResponseBytes) go to openapi-fetch too, which passes unknown
  // options on to its Request: harmless, and cheaper than copying the rest. The caller's signal stays here.
  const result = await (client.request as Send)(call.method, call.path, {
    ...init,
    signal: undefined,
    fetch: attempts,
    parseAs: "stream",
    body: call.body,
    bodySerializer: identity,
    params: callParams,
  });
  return resultOf(result, answer, reading);
}

/**
 * What the caller gets: for the answer the attempts read, the network response and the parsed body; for a response
 * a middleware answered with or replaced, its body read here. The error body is redacted before anyone sees it.
 */
async function resultOf(
  result: { data?: unknown; error?: unknown; response: Response },
  answer: ReadAnswer | undefined,
  reading: BodyReading,
) {
  const { response } = result;
  const fromAttempts = answer !== undefined && response === answer.forOpenApiFetch;
  const out = response.ok
    ? {
        data:
          reading.parseAs === "stream" || result.data == null
            ? result.data
            : fromAttempts
              ? answer.data
              : await readReplacedBody(response, reading),
        response,
      }
    : { error: redactValue(result.error, reading.redact), response };
  if (fromAttempts) out.response = answer.network;
  return withRequestInfo(out, reading.info);
}
