// The client: openapi-fetch plus the API key header, request signing (opt-in), per-attempt timeouts that cover the
// body, retries with backoff that honour the rate-limit headers, a response size limit, rate-limit state, typed
// errors and redaction. This file puts a call together from its parts: the options (options.ts), the attempt loop
// (attempts.ts), body reading (body.ts) and the way calls go through openapi-fetch (openapi-fetch-adapter.ts).
import { defaultBodySerializer, mergeHeaders } from "openapi-fetch";
import { HTTP_METHODS } from "../openapi/document.js";
import { type AttemptEnvironment, sendWithRetries } from "./attempts.js";
import { readAnswer } from "./body.js";
import type { RequestInfo } from "./errors.js";
import { createOpenApiFetchAdapter } from "./openapi-fetch-adapter.js";
import { type ClientSettings, fillPath, maxBytesOf, resolveClientSettings, timeoutOf } from "./options.js";
import { resolveRetryOptions, type RetryOverride, sleep } from "./retry.js";
import type { ClientOptions, FetchLike, TypedClient } from "./types.js";

/** The options of a call that this file reads (the rest go to openapi-fetch as they are). */
interface CallOptions {
  [key: string]: unknown;
  params?: { path?: Record<string, unknown>; header?: Record<string, string> };
  headers?: HeadersInit;
}

type Adapter = ReturnType<typeof createOpenApiFetchAdapter>;

/** The facts of a call for errors and hooks; a literal path of the spec wins over a template that also matches. */
function requestInfoOf(
  method: string,
  path: string,
  pathParams: Record<string, unknown> | undefined,
  operationIds: Readonly<Record<string, string>>,
): RequestInfo {
  // `/wallets/USDT` over `/wallets/{currencyCode}`.
  const filled = path.includes("{") ? fillPath(method, path, pathParams) : path;
  const known = operationIds[`${method} ${filled}`] ? filled : path;
  return { method, path: known, operationId: operationIds[`${method} ${known}`], url: "" };
}

/**
 * The body serialized once, with the headers openapi-fetch would give the serializer (the client's alone are merged
 * once, at creation): openapi-fetch gets the result, and every attempt (and every signature) sends these bytes.
 */
function serializeBody(options: CallOptions, settings: ClientSettings): unknown {
  const { body, bodySerializer, headers, params } = options;
  if (body === undefined) return undefined;
  const serializer = (bodySerializer ?? defaultBodySerializer) as (body: unknown, headers: Headers) => unknown;
  const needsMerge = bodySerializer || headers || params?.header;
  return serializer(
    body,
    needsMerge ? mergeHeaders(settings.headers, headers, params?.header) : settings.mergedHeaders,
  );
}

/**
 * One call: its options checked, then sent by the adapter, every attempt run by the attempt loop. Not async (one
 * promise less per call): a refused option throws here, and `createTypedClient` turns that into a rejection.
 */
function callOperation(
  method: string,
  path: string,
  options: CallOptions,
  client: {
    settings: ClientSettings;
    environment: AttemptEnvironment;
    adapter: Adapter;
    operationIds: Readonly<Record<string, string>>;
  },
): Promise<unknown> {
  const { settings, environment, adapter } = client;
  const upper = method.toUpperCase();
  // fetch cannot send it; refused here, it is not taken for a network failure and retried.
  if ((upper === "GET" || upper === "HEAD") && options.body !== undefined)
    throw new TypeError(`${upper} ${path}: a ${upper} request has no body`);
  const { timeoutMs, retry, maxResponseBytes, fetch } = options;
  const info = requestInfoOf(upper, path, options.params?.path, client.operationIds);
  const override = retry as RetryOverride;
  // Checked in this order: the first bad option is the one named.
  const callTimeoutMs = timeoutMs === undefined ? settings.timeoutMs : timeoutOf(timeoutMs, "timeoutMs");
  const maxBytes =
    maxResponseBytes === undefined ? settings.maxBytes : maxBytesOf(maxResponseBytes, "maxResponseBytes");
  const reading = {
    parseAs: options.parseAs === undefined ? "json" : (options.parseAs as string),
    maxBytes,
    redact: settings.redact,
    info,
    middlewareSees: adapter.seesMiddleware(options),
  };
  const plan = {
    method: upper,
    info,
    timeoutMs: callTimeoutMs,
    policy: override && typeof override === "object" ? resolveRetryOptions(settings.retry, override) : settings.retry,
    override,
    signal: options.signal as AbortSignal | undefined,
    fetch: (typeof fetch === "function" ? fetch : settings.fetch) as FetchLike | undefined,
    finish: (response: Response, sentMethod: string) => readAnswer(response, sentMethod, reading),
  };
  const body = serializeBody(options, settings);
  const attempts = (url: string, init: RequestInit) => sendWithRetries(url, init, plan, environment);
  return adapter.send({ method: upper, path, init: options, body, info, reading, attempts });
}

/**
 * A typed openapi-fetch client for `Paths`. `operationIds` maps `"METHOD /path"` to operationId (for errors and hooks).
 */
// biome-ignore lint/suspicious/noExplicitAny: the constraint openapi-fetch's own types use
export function createTypedClient<Paths extends Record<string, any>>(
  options: ClientOptions,
  operationIds: Readonly<Record<string, string>>,
): TypedClient<Paths> {
  const settings = resolveClientSettings(options);
  const { hooks } = settings;
  const environment: AttemptEnvironment = {
    signer: settings.signer,
    redact: settings.redact,
    hooks,
    observed: Boolean(hooks.onRequest || hooks.onResponse || hooks.onRateLimit),
    rateLimit: undefined,
    sleep,
  };
  const adapter = createOpenApiFetchAdapter<Paths>(settings.baseUrl, settings.headers, settings.redact);
  const client = { settings, environment, adapter, operationIds };
  const call = (method: string, path: string, init: CallOptions = {}): Promise<unknown> => {
    try {
      return callOperation(method, path, init, client);
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const typed: Record<string, unknown> = {
    request: call,
    use: adapter.use,
    eject: adapter.eject,
    get rateLimit() {
      return environment.rateLimit;
    },
    baseUrl: settings.baseUrl,
  };
  for (const method of HTTP_METHODS) {
    const upper = method.toUpperCase();
    typed[upper] = (path: string, init?: CallOptions) => call(upper, path, init);
  }
  return typed as unknown as TypedClient<Paths>;
}
