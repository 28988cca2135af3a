// The client: openapi-fetch plus the API key header, request signing (opt-in), per-attempt timeouts, retries
// with backoff that honour the rate-limit headers, rate-limit state and typed errors. Everything happens in the fetch function that
// openapi-fetch calls, so middleware registered with `use()` sees one request and its final response.
import createOpenApiClient, { defaultBodySerializer } from "openapi-fetch";
import { API_KEY_HEADER } from "../../generated/client-meta.js";
import { validateBaseUrl } from "./base-url.js";
import { ClientError, InvalidResponseError, NetworkError, TimeoutError, type RequestInfo } from "./errors.js";
import { readRateLimit, msUntilReset, parseRetryAfter, type RateLimitState } from "./rate-limit.js";
import { createRedactor, redactError, type Redactor } from "./redact.js";
import { backoffDelay, DEFAULT_RETRY, resolveRetryOptions, sleep, type RetryOptions } from "./retry.js";
import { createSigner, SIGNING_HEADERS, type Signer } from "./signing.js";
import type { ClientHooks, ClientOptions, FetchLike, RequestEvent, RequestOverrides, TypedClient } from "./types.js";

export const DEFAULT_TIMEOUT_MS = 30_000;

/** Property openapi-fetch copies from the call's options onto the Request (it copies unknown option keys). */
const CALL_KEY = "__tradingApiCall";
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;
const PREVIEW_LENGTH = 200;

/** Facts about the call that produced a Response, for `unwrap()`. */
export interface CallRecord extends RequestInfo {
  redact: Redactor;
}
export const callRecords = new WeakMap<Response, CallRecord>();

/** A header value fetch sends unchanged: printable ASCII, no surrounding spaces (so no line breaks or control characters). */
const HEADER_SAFE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
/** A secret that is never sent: no control characters (a stray newline from a file) and no surrounding spaces. */
const SECRET_SAFE = /^[^\s\x00-\x1f\x7f](?:[^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$/;

/** Checks apiKey and apiSecret; the messages never echo the values. */
function validateCredentials(apiKey: unknown, apiSecret: unknown): void {
  if (apiKey !== undefined && (typeof apiKey !== "string" || !HEADER_SAFE.test(apiKey))) {
    throw new TypeError(
      "createClient: apiKey must be a non-empty string of printable ASCII characters (no line breaks, control characters or surrounding spaces)",
    );
  }
  if (apiSecret === undefined) return;
  if (typeof apiSecret !== "string" || !SECRET_SAFE.test(apiSecret)) {
    throw new TypeError("createClient: apiSecret must be a non-empty string without line breaks, control characters or surrounding spaces");
  }
  if (apiKey === undefined) throw new TypeError("createClient: apiSecret signs the requests of an API key; give apiKey too");
}

/** The concrete path of a call (path parameters filled in), to let a literal path win over a template. */
function concretePath(template: string, pathParams: unknown): string {
  if (!template.includes("{") || pathParams === null || typeof pathParams !== "object") return template;
  return template.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const value = (pathParams as Record<string, unknown>)[name];
    return value === undefined ? whole : String(value);
  });
}

function validateTimeout(value: unknown, where: string): number {
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0) {
    throw new TypeError(`${where} must be a positive number of milliseconds (Infinity disables it), got ${String(value)}`);
  }
  return value;
}

/** One call through the client: its timeout controller(s), retry decision and context for errors. */
class Call {
  readonly info: RequestInfo;
  controller = new AbortController();
  timedOut = false;
  attempts = 0;
  lastStatus: number | undefined;
  lastContentType: string | null = null;
  /** The serialized body, captured from openapi-fetch's bodySerializer: sent as is, on every attempt. */
  body: BodyInit | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onUserAbort: (() => void) | undefined;

  constructor(
    method: string,
    path: string,
    operationId: string | undefined,
    readonly timeoutMs: number,
    readonly retry: RequestOverrides["retry"],
    readonly expectJson: boolean,
    readonly userSignal: AbortSignal | undefined,
  ) {
    this.info = { method, path, operationId, url: "" };
    if (userSignal) {
      if (userSignal.aborted) this.controller.abort(userSignal.reason);
      else {
        this.onUserAbort = () => this.controller.abort(userSignal.reason);
        userSignal.addEventListener("abort", this.onUserAbort, { once: true });
      }
    }
  }

  /** A fresh controller for a retry (the previous one may have been aborted by its timer). */
  nextAttemptSignal(): AbortSignal {
    this.controller = new AbortController();
    this.timedOut = false;
    if (this.userSignal?.aborted) this.controller.abort(this.userSignal.reason);
    return this.controller.signal;
  }

  startTimer(): void {
    this.attempts++;
    if (this.timeoutMs === Infinity) return;
    const controller = this.controller;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      controller.abort(new TimeoutError(this.info, this.timeoutMs, this.attempts));
    }, this.timeoutMs);
  }

  stopTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  finish(): void {
    this.stopTimer();
    if (this.onUserAbort) this.userSignal!.removeEventListener("abort", this.onUserAbort);
  }
}

/**
 * A typed openapi-fetch client for `Paths`. `operationIds` maps `"METHOD /path"` to operationId (for errors and hooks).
 */
export function createTypedClient<Paths extends Record<string, any>>(
  options: ClientOptions,
  operationIds: Readonly<Record<string, string>>,
): TypedClient<Paths> {
  if (options === null || typeof options !== "object") throw new TypeError("createClient: options object with baseUrl is required");
  const baseUrl = validateBaseUrl(options.baseUrl);
  const { apiKey, apiSecret } = options;
  validateCredentials(apiKey, apiSecret);
  const redact = createRedactor(apiKey, apiSecret);
  // The secret lives on only inside the signer, as a non-extractable key.
  const signer: Signer | undefined = apiSecret === undefined ? undefined : createSigner(apiSecret);
  const defaultTimeoutMs = options.timeoutMs === undefined ? DEFAULT_TIMEOUT_MS : validateTimeout(options.timeoutMs, "createClient: timeoutMs");
  const retryDefaults =
    options.retry === false
      ? resolveRetryOptions(DEFAULT_RETRY, { retries: 0 })
      : resolveRetryOptions(DEFAULT_RETRY, options.retry === true ? undefined : options.retry);
  const hooks: ClientHooks = { ...options.hooks };
  const observed = Boolean(hooks.onRequest || hooks.onResponse || hooks.onRateLimit);
  if (options.fetch !== undefined && typeof options.fetch !== "function") throw new TypeError("createClient: fetch must be a function");
  const baseFetch: FetchLike | undefined = options.fetch;

  let rateLimit: RateLimitState | undefined;

  const notify = <K extends keyof ClientHooks>(name: K, ...args: Parameters<NonNullable<ClientHooks[K]>>) => {
    const hook = hooks[name] as ((...a: unknown[]) => void) | undefined;
    if (!hook) return;
    try {
      hook(...args);
    } catch {
      // Observers must not break requests.
    }
  };
  const event = (call: Call, attempt: number): RequestEvent => ({ ...call.info, attempt });

  function policyFor(call: Call, method: string): { options: Readonly<RetryOptions>; allowed: boolean } {
    const override = call.retry;
    if (override === false) return { options: retryDefaults, allowed: false };
    if (override === true) return { options: retryDefaults, allowed: true };
    if (override && typeof override === "object") return { options: resolveRetryOptions(retryDefaults, override), allowed: true };
    return { options: retryDefaults, allowed: retryDefaults.methods.includes(method) };
  }

  /** How long to wait before retrying after `response`, or undefined when the server asks for longer than allowed. */
  function statusRetryDelay(response: Response, retryNumber: number, policy: Readonly<RetryOptions>): number | undefined {
    const state = readRateLimit(response.headers);
    let serverWait: number | undefined;
    if ((response.status === 429 || state?.remaining === 0) && state?.reset !== undefined) serverWait = msUntilReset(state.reset);
    else if (response.status === 429 || response.status === 503) serverWait = parseRetryAfter(response.headers.get("retry-after"));
    if (serverWait !== undefined) return serverWait <= policy.maxRateLimitWaitMs ? serverWait : undefined;
    return backoffDelay(retryNumber, policy);
  }

  async function waitIfExhausted(call: Call, policy: Readonly<RetryOptions>): Promise<void> {
    const state = rateLimit;
    if (state?.remaining !== 0 || state.reset === undefined) return;
    const wait = msUntilReset(state.reset);
    if (wait <= 0 || wait > policy.maxRateLimitWaitMs) return;
    notify("onRateLimitWait", { ...event(call, call.attempts + 1), delayMs: wait, rateLimit: state });
    await sleep(wait, call.userSignal);
  }

  async function readPreview(response: Response): Promise<string | undefined> {
    try {
      return redact((await response.text()).slice(0, PREVIEW_LENGTH));
    } catch {
      return undefined;
    }
  }

  /** Turns a fetch failure into the client's error, or returns the user's own abort reason untouched. */
  function failure(call: Call, error: unknown): unknown {
    if (call.timedOut) return new TimeoutError(call.info, call.timeoutMs, call.attempts);
    if (call.userSignal?.aborted) return error;
    if (error instanceof ClientError) return error;
    return new NetworkError(call.info, call.attempts, redactError(error, redact));
  }

  /** The fetch openapi-fetch calls: rate-limit wait, attempts, timeouts, retries, content-type check. */
  async function policyFetch(request: Request, fetchImpl: FetchLike | undefined): Promise<Response> {
    let call = (request as unknown as Record<string, unknown>)[CALL_KEY] as Call | undefined;
    const detached = !(call instanceof Call);
    if (!(call instanceof Call)) {
      // A middleware replaced the Request: apply the client defaults to it.
      call = new Call(request.method, new URL(request.url).pathname, undefined, defaultTimeoutMs, undefined, false, request.signal);
    }
    call.info.url = redact(request.url);
    const method = request.method.toUpperCase();
    const { options: policy, allowed } = policyFor(call, method);
    const maxAttempts = allowed ? policy.retries + 1 : 1;
    // A body stream can be sent once: send the serialized body captured by the call (or a copy) instead.
    const rebuilt = maxAttempts > 1 || signer !== undefined;
    const body = call.body ?? (rebuilt && request.body !== null ? await request.arrayBuffer() : undefined);
    const first = detached && body === undefined ? new Request(request, { signal: call.controller.signal }) : request;

    await waitIfExhausted(call, policy);
    for (let attempt = 1; ; attempt++) {
      const signal = attempt === 1 ? call.controller.signal : call.nextAttemptSignal();
      // Every attempt is signed anew: a retry gets a fresh timestamp and signature.
      let headers = request.headers;
      if (signer) {
        const signed = await signer(method, request.url);
        headers = new Headers(request.headers);
        headers.set(SIGNING_HEADERS.timestamp, signed.timestamp);
        headers.set(SIGNING_HEADERS.signature, signed.signature);
      }
      // fetch(url, init) with a string body avoids undici piping a Request's body stream through a TransformStream.
      // With the global fetch, always: fetch(Request) would copy the Request once more.
      const init =
        body === undefined && attempt === 1 && fetchImpl && !signer
          ? undefined
          : { method: request.method, headers, body, redirect: request.redirect, signal };
      const canRetry = attempt < maxAttempts;
      call.startTimer();
      if (observed) notify("onRequest", event(call, attempt));
      const started = observed ? performance.now() : 0;
      let response: Response;
      try {
        if (fetchImpl) response = await fetchImpl(init ? new Request(request.url, init) : first);
        else response = await (init ? globalThis.fetch(request.url, init) : globalThis.fetch(first));
      } catch (error) {
        call.stopTimer();
        const reason = failure(call, error);
        if (canRetry && (reason instanceof TimeoutError || reason instanceof NetworkError)) {
          const delayMs = backoffDelay(attempt, policy);
          notify("onRetry", { ...event(call, attempt), reason: reason instanceof TimeoutError ? "timeout" : "network", status: undefined, delayMs });
          await sleep(delayMs, call.userSignal);
          continue;
        }
        throw reason;
      }
      call.lastStatus = response.status;
      call.lastContentType = response.headers.get("content-type");
      const responseEvent = observed ? { ...event(call, attempt), status: response.status, durationMs: performance.now() - started } : undefined;
      if (responseEvent) notify("onResponse", responseEvent);
      const state = readRateLimit(response.headers);
      if (state) {
        rateLimit = state;
        if (responseEvent) notify("onRateLimit", state, responseEvent);
      }
      if (canRetry && policy.statuses.includes(response.status)) {
        const delayMs = statusRetryDelay(response, attempt, policy);
        if (delayMs !== undefined) {
          call.stopTimer();
          response.body?.cancel().catch(() => {});
          notify("onRetry", { ...event(call, attempt), reason: "status", status: response.status, delayMs });
          await sleep(delayMs, call.userSignal);
          continue;
        }
      }
      if (
        call.expectJson &&
        response.ok &&
        response.status !== 204 &&
        method !== "HEAD" &&
        call.lastContentType !== null &&
        !JSON_MEDIA_TYPE.test(call.lastContentType) &&
        response.headers.get("content-length") !== "0"
      ) {
        const preview = await readPreview(response);
        call.stopTimer();
        throw new InvalidResponseError(call.info, response.status, call.lastContentType, "content-type", preview);
      }
      if (detached) call.stopTimer(); // nobody calls finish() for a detached call
      return response;
    }
  }

  const client = createOpenApiClient<Paths>({
    baseUrl,
    headers: { ...options.headers, ...(apiKey === undefined ? {} : { [API_KEY_HEADER]: apiKey }) },
    fetch: (request) => policyFetch(request, baseFetch),
  });

  function call(method: string, path: string, init: Record<string, unknown> | undefined): Promise<unknown> {
    const { timeoutMs, retry, signal, fetch: callFetch, ...rest } = init ?? {};
    const upper = method.toUpperCase();
    // A literal path of the spec wins over a template that also matches (`/wallets/USDT` over `/wallets/{currencyCode}`).
    const concrete = concretePath(path, (rest.params as { path?: unknown } | undefined)?.path);
    const literalWins = concrete !== path && operationIds[`${upper} ${concrete}`] !== undefined;
    let ctx: Call;
    try {
      ctx = new Call(
        upper,
        literalWins ? concrete : path,
        operationIds[`${upper} ${literalWins ? concrete : path}`],
        timeoutMs === undefined ? defaultTimeoutMs : validateTimeout(timeoutMs, "timeoutMs"),
        retry as RequestOverrides["retry"],
        rest.parseAs === undefined || rest.parseAs === "json",
        signal as AbortSignal | undefined,
      );
    } catch (error) {
      return Promise.reject(error);
    }
    if (rest.body !== undefined) {
      const serialize = (rest.bodySerializer ?? defaultBodySerializer) as (body: unknown, headers?: Headers) => BodyInit;
      rest.bodySerializer = (value: unknown, headers?: Headers) => (ctx.body = serialize(value, headers));
    }
    // The global fetch gets the signal in its init (policyFetch); only a custom fetch needs it on the Request.
    if (baseFetch || typeof callFetch === "function") rest.signal = ctx.controller.signal;
    rest[CALL_KEY] = ctx;
    if (typeof callFetch === "function") rest.fetch = (request: Request) => policyFetch(request, callFetch as FetchLike);
    return (client.request as (m: string, p: string, i: unknown) => Promise<{ response: Response }>)(method.toLowerCase(), path, rest).then(
      (result) => {
        ctx.finish();
        callRecords.set(result.response, { ...ctx.info, redact });
        return result;
      },
      (error: unknown) => {
        ctx.finish();
        throw translate(ctx, error);
      },
    );
  }

  function translate(ctx: Call, error: unknown): unknown {
    if (error instanceof ClientError) return error;
    if (ctx.timedOut) return new TimeoutError(ctx.info, ctx.timeoutMs, ctx.attempts);
    if (error instanceof SyntaxError && ctx.lastStatus !== undefined) {
      // openapi-fetch could not parse a success body as JSON.
      return new InvalidResponseError(ctx.info, ctx.lastStatus, ctx.lastContentType, "invalid-json", undefined, redactError(error, redact));
    }
    return error;
  }

  const typed = {
    GET: (path: string, init?: Record<string, unknown>) => call("GET", path, init),
    PUT: (path: string, init?: Record<string, unknown>) => call("PUT", path, init),
    POST: (path: string, init?: Record<string, unknown>) => call("POST", path, init),
    DELETE: (path: string, init?: Record<string, unknown>) => call("DELETE", path, init),
    OPTIONS: (path: string, init?: Record<string, unknown>) => call("OPTIONS", path, init),
    HEAD: (path: string, init?: Record<string, unknown>) => call("HEAD", path, init),
    PATCH: (path: string, init?: Record<string, unknown>) => call("PATCH", path, init),
    TRACE: (path: string, init?: Record<string, unknown>) => call("TRACE", path, init),
    request: (method: string, path: string, init?: Record<string, unknown>) => call(method, path, init),
    use: client.use,
    eject: client.eject,
    get rateLimit() {
      return rateLimit;
    },
    baseUrl,
  };
  return typed as unknown as TypedClient<Paths>;
}
