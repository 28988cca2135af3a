// The client: openapi-fetch plus the API key header, request signing (opt-in), per-attempt timeouts that cover the
// body, retries with backoff that honour the rate-limit headers, a response size limit, rate-limit state, typed
// errors and redaction.
//
// Per-call state travels only through openapi-fetch's documented API. Each call hands openapi-fetch:
// - its own `fetch` option: a closure over the call (its options, its serialized body, its facts for errors), which
//   runs every attempt (rate-limit wait, signing, timeout, fetch, retry decision) and reads the body inside it;
// - the body already serialized (once, with the call's `bodySerializer` or openapi-fetch's `defaultBodySerializer`)
//   with an identity `bodySerializer`, so the same bytes go out on every attempt;
// - `parseAs: "stream"`, so openapi-fetch never reads a success body: the closure has read and parsed it already.
// Middleware registered with `use()` (or per call) sees one request and the final response, as in openapi-fetch:
// such calls go through an openapi-fetch client that builds real Requests; the others through one whose `Request`
// option (openapi-fetch's ClientOptions) keeps the URL and RequestInit as given, since only the closure reads them.
import createOpenApiClient, { defaultBodySerializer, mergeHeaders } from "openapi-fetch";
import { API_KEY_HEADER } from "../../generated/client-meta.js";
import { validateBaseUrl } from "./base-url.js";
import {
  ClientError,
  InvalidResponseError,
  type InvalidResponseReason,
  NetworkError,
  type RequestInfo,
  TimeoutError,
} from "./errors.js";
import { type RateLimitState, readRateLimit } from "./rate-limit.js";
import { createRedactor, redactError, redactValue } from "./redact.js";
import {
  type AttemptOutcome,
  DEFAULT_RETRY,
  rateLimitWait,
  resolveRetryOptions,
  retryDelay,
  shouldRetry,
  sleep,
} from "./retry.js";
import { createSigner, SIGNING_HEADERS } from "./signing.js";
import type { ClientHooks, ClientOptions, FetchLike, RequestOverrides, TypedClient } from "./types.js";
import { REQUEST_INFO } from "./unwrap.js";

export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default `maxResponseBytes`: 16 MiB (see the README for why). */
export const DEFAULT_MAX_RESPONSE_BYTES = 2 ** 24;
/** The longest delay setTimeout holds (2^31 − 1 ms, about 24.8 days): a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;
const PREVIEW_LENGTH = 200;
const METHODS = "GET PUT POST DELETE OPTIONS HEAD PATCH TRACE".split(" ");
const decoder = new TextDecoder();
const ignore = () => {};
const identity = (value: unknown) => value;

/** A header value fetch sends unchanged: printable ASCII, no surrounding spaces (so no line breaks or control characters). */
const HEADER_SAFE = /^(?! )[ -~]+(?<! )$/;
/** A secret that is never sent: no control characters (a stray newline from a file) and no surrounding white space. */
const SECRET_SAFE = /^(?!\s)[^\0-\x1f\x7f]+(?<!\s)$/;

/** Checks apiKey and apiSecret; the messages never echo the values. */
function validateCredentials(apiKey: unknown, apiSecret: unknown): void {
  const refuse = (what: string) => {
    throw new TypeError(`createClient: ${what}`);
  };
  const bad = " (no line breaks, control characters or surrounding spaces)";
  if (apiKey !== undefined && !(typeof apiKey === "string" && HEADER_SAFE.test(apiKey)))
    refuse(`apiKey must be printable ASCII${bad}`);
  if (apiSecret === undefined) return;
  if (!(typeof apiSecret === "string" && SECRET_SAFE.test(apiSecret)))
    refuse(`apiSecret must be a non-empty string${bad}`);
  if (apiKey === undefined) refuse("apiSecret signs an API key's requests: give apiKey too");
}

/** `value` when it is Infinity or `valid`, else a TypeError naming `name`, what it must be, and the value given. */
function limit(value: unknown, name: string, valid: boolean, what: string): number {
  if (value !== Infinity && !valid)
    throw new TypeError(`${name} must be ${what}, or Infinity to disable it; got ${String(value)}`);
  return value as number;
}
const timeoutOf = (value: unknown, name: string) =>
  limit(
    value,
    name,
    typeof value === "number" && value > 0 && value <= MAX_TIMER_MS,
    `a positive number of milliseconds up to ${MAX_TIMER_MS}`,
  );
const maxBytesOf = (value: unknown, name: string) =>
  limit(value, name, Number.isInteger(value) && (value as number) > 0, "a positive integer (bytes)");

/**
 * The path with its parameters filled in (to let a literal path win over a template). Refuses a missing value and
 * one that would send the request elsewhere: "." and ".." are dot segments that URL normalisation removes, and an
 * empty value leaves an empty segment (`/trades/quote/` instead of `/trades/quote/{quoteId}`).
 */
function fillPath(method: string, template: string, values: Record<string, unknown> | undefined): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values?.[name];
    const text = String(value ?? "");
    if (/^\.{0,2}$/.test(text)) {
      throw new TypeError(
        `${method} ${template}: path parameter "${name}" is ${JSON.stringify(value)}, which sends the request to another path`,
      );
    }
    return text;
  });
}

/** The whole body as bytes, counted as it arrives: over `max` bytes, reading stops and `tooLarge()` is thrown. */
async function readBody(response: Response, max: number, tooLarge: () => Error): Promise<Uint8Array<ArrayBuffer>> {
  const reader = response.body?.getReader();
  const chunks: Array<Uint8Array<ArrayBuffer>> = [];
  let size = 0;
  for (;;) {
    const chunk = await reader?.read();
    if (!chunk || chunk.done) break;
    size += chunk.value.byteLength;
    if (size > max) {
      reader!.cancel().catch(ignore);
      throw tooLarge();
    }
    chunks.push(chunk.value);
  }
  return chunks.length === 1 ? chunks[0]! : new Uint8Array(await new Blob(chunks).arrayBuffer());
}

/**
 * What openapi-fetch builds, through its `Request` option, for a call no middleware sees: the URL and the RequestInit
 * as given. Only this client's fetch reads it, so no Request (with its signal and body stream) is made.
 */
class Prepared {
  declare readonly method: string;
  constructor(
    readonly url: string,
    readonly init: RequestInit,
  ) {
    this.method = init.method!;
  }
}

/**
 * A typed openapi-fetch client for `Paths`. `operationIds` maps `"METHOD /path"` to operationId (for errors and hooks).
 */
// biome-ignore lint/suspicious/noExplicitAny: the constraint openapi-fetch's own types use
export function createTypedClient<Paths extends Record<string, any>>(
  options: ClientOptions,
  operationIds: Readonly<Record<string, string>>,
): TypedClient<Paths> {
  if (options === null || typeof options !== "object") throw new TypeError("createClient: options are required");
  const baseUrl = validateBaseUrl(options.baseUrl);
  const {
    apiKey,
    apiSecret,
    fetch: baseFetch,
    timeoutMs: clientTimeout,
    maxResponseBytes: clientMax,
    retry: clientRetry,
  } = options;
  validateCredentials(apiKey, apiSecret);
  const redact = createRedactor(apiKey, apiSecret);
  // The secret lives on only inside the signer, as a non-extractable key.
  const signer = apiSecret === undefined ? undefined : createSigner(apiSecret);
  const defaultTimeoutMs =
    clientTimeout === undefined ? DEFAULT_TIMEOUT_MS : timeoutOf(clientTimeout, "createClient: timeoutMs");
  const defaultMaxBytes =
    clientMax === undefined ? DEFAULT_MAX_RESPONSE_BYTES : maxBytesOf(clientMax, "createClient: maxResponseBytes");
  const retryDefaults = resolveRetryOptions(
    DEFAULT_RETRY,
    clientRetry === false ? { retries: 0 } : clientRetry === true ? undefined : clientRetry,
  );
  const hooks: ClientHooks = { ...options.hooks };
  /** Whether any hook needs the events built for each attempt (skipped otherwise: they cost time on every call). */
  const observed = Boolean(hooks.onRequest || hooks.onResponse || hooks.onRateLimit);
  if (baseFetch !== undefined && typeof baseFetch !== "function")
    throw new TypeError("createClient: fetch must be a function");
  const headers = { ...options.headers, ...(apiKey === undefined ? {} : { [API_KEY_HEADER]: apiKey }) };
  const clientHeaders = mergeHeaders(headers);
  /** Middleware registered with use() and not ejected. */
  const middleware: unknown[] = [];
  let rateLimit: RateLimitState | undefined;

  const notify = <K extends keyof ClientHooks>(name: K, ...args: Parameters<NonNullable<ClientHooks[K]>>) => {
    try {
      (hooks[name] as ((...a: unknown[]) => void) | undefined)?.(...args);
    } catch {
      // Observers must not break requests.
    }
  };

  type Send = (
    method: string,
    path: string,
    init: unknown,
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  /** For calls that middleware sees (registered with use(), or per call): real Requests. */
  const client = createOpenApiClient<Paths>({ baseUrl, headers });
  /** A call's facts, by the params object of its own that it hands `client` (what onRequest is given). */
  const facts = new WeakMap<object, RequestInfo>();
  // The first middleware records the URL a call is made for: all ApiError.url can say when a later middleware
  // answers the call itself, sending nothing. The attempts record the URL they send.
  client.use({
    onRequest({ params, request }) {
      facts.get(params)!.url = redact(request.url);
    },
  });
  const plain = createOpenApiClient<Paths>({ baseUrl, headers, Request: Prepared as unknown as typeof Request });

  async function call(method: string, path: string, init: Record<string, unknown> = {}): Promise<unknown> {
    const {
      timeoutMs,
      retry,
      maxResponseBytes,
      signal,
      fetch: callFetch,
      body,
      bodySerializer,
      parseAs = "json",
      params,
      headers: callHeaders,
    } = init as {
      [key: string]: unknown;
      params?: { path?: Record<string, unknown>; header?: Record<string, string> };
      headers?: HeadersInit;
      middleware?: unknown[];
    };
    const upper = method.toUpperCase();
    // fetch cannot send it; refused here, it is not taken for a network failure and retried.
    const bodiless = upper === "GET" || upper === "HEAD";
    if (bodiless && body !== undefined) throw new TypeError(`${upper} ${path}: a ${upper} request has no body`);
    const userSignal = signal as AbortSignal | undefined;
    const override = retry as RequestOverrides["retry"];
    const fetchImpl = (typeof callFetch === "function" ? callFetch : baseFetch) as FetchLike | undefined;
    // A literal path of the spec wins over a template that also matches (`/wallets/USDT` over `/wallets/{currencyCode}`).
    const concrete = path.includes("{") ? fillPath(upper, path, params?.path) : path;
    const known = operationIds[`${upper} ${concrete}`] ? concrete : path;
    const info: RequestInfo = { method: upper, path: known, operationId: operationIds[`${upper} ${known}`], url: "" };
    const timeout = timeoutMs === undefined ? defaultTimeoutMs : timeoutOf(timeoutMs, "timeoutMs");
    const maxBytes =
      maxResponseBytes === undefined ? defaultMaxBytes : maxBytesOf(maxResponseBytes, "maxResponseBytes");
    const policy =
      override && typeof override === "object" ? resolveRetryOptions(retryDefaults, override) : retryDefaults;
    // Serialized once, here, with the headers openapi-fetch would give (the client's alone are merged once, at
    // creation): openapi-fetch gets the result, and every attempt (and every signature) sends these same bytes.
    const serialized =
      body === undefined
        ? undefined
        : ((bodySerializer ?? defaultBodySerializer) as (body: unknown, headers: Headers) => unknown)(
            body,
            bodySerializer || callHeaders || params?.header
              ? mergeHeaders(headers, callHeaders, params?.header)
              : clientHeaders,
          );
    const invalid = (response: Response, reason: InvalidResponseReason, preview?: string, cause?: unknown) =>
      new InvalidResponseError(
        info,
        response.status,
        response.headers.get("content-type"),
        reason,
        preview,
        cause,
        maxBytes,
      );
    const read = (response: Response) => readBody(response, maxBytes, () => invalid(response, "too-large"));
    /** Whether the body is wanted as text: JSON and text success bodies, and every error body (openapi-fetch reads those as text). */
    const textual = parseAs === "json" || parseAs === "text";
    /** A success body, parsed for `parseAs` (openapi-fetch's values); JSON that does not parse is an InvalidResponseError. */
    const parse = (body: string | Uint8Array<ArrayBuffer>, response: Response) => {
      if (typeof body !== "string")
        return parseAs === "blob"
          ? new Blob([body], { type: response.headers.get("content-type") ?? "" })
          : body.slice().buffer;
      try {
        return parseAs === "text" ? body : body ? JSON.parse(body) : undefined;
      } catch (error) {
        throw invalid(response, "invalid-json", undefined, redactError(error, redact));
      }
    };
    const seen = middleware.length > 0 || (init.middleware as unknown[] | undefined)?.length;
    const ownParams = seen ? { ...params } : params;
    if (seen) facts.set(ownParams!, info);
    /** The network response of the last attempt, what was handed to openapi-fetch, and the parsed success body. */
    let original: Response | undefined;
    let handed: Response | undefined;
    let data: unknown;

    /** The `fetch` openapi-fetch calls for this call: every attempt, body included. */
    async function attempts(request: Request | Prepared): Promise<Response> {
      const { url } = request;
      info.url = redact(url);
      // After middleware: what the Request it hands on says, body included (read once, sent on every attempt).
      const prepared: RequestInit =
        request instanceof Prepared
          ? request.init
          : {
              method: request.method,
              headers: request.headers,
              redirect: request.redirect,
              body: request.body && (await request.arrayBuffer()),
            };
      const { headers: given } = prepared;
      const wait = rateLimitWait(rateLimit, policy);
      if (wait > 0) {
        notify("onRateLimitWait", { ...info, attempt: 1, delayMs: wait, rateLimit: rateLimit! });
        await sleep(wait, userSignal);
      }
      for (let attempt = 1; ; attempt++) {
        const controller = new AbortController();
        let timedOut: TimeoutError | undefined;
        let armed = false;
        let outcome: AttemptOutcome;
        const onTimeout = () => {
          timedOut = new TimeoutError(info, timeout, attempt);
          controller.abort(timedOut);
        };
        const timer = timeout === Infinity ? undefined : setTimeout(onTimeout, timeout);
        try {
          // The init is this call's own (made by openapi-fetch for it, or above): each attempt sets its signal, and
          // with a secret its signed headers: every attempt is signed anew (a fresh timestamp and signature).
          prepared.signal = userSignal ? AbortSignal.any([userSignal, controller.signal]) : controller.signal;
          if (signer) {
            const signed = await signer(upper, url);
            const signedHeaders = new Headers(given);
            prepared.headers = signedHeaders;
            for (const [name, value] of Object.entries(signed))
              signedHeaders.set(SIGNING_HEADERS[name as keyof typeof signed], value);
          }
          if (observed) notify("onRequest", { ...info, attempt });
          const started = observed ? performance.now() : 0;
          // fetch(url, init) costs less than fetch(request); a custom fetch gets a Request, as documented.
          const response = await (fetchImpl ? fetchImpl(new Request(url, prepared)) : fetch(url, prepared));
          const { status, ok, headers: got } = response;
          const event = observed ? { ...info, attempt, status, durationMs: performance.now() - started } : undefined;
          if (event) notify("onResponse", event);
          const state = readRateLimit(got);
          if (state) {
            rateLimit = state;
            if (event) notify("onRateLimit", state, event);
          }
          outcome = { kind: "status", status, headers: got };
          if (!shouldRetry(attempt, upper, override, outcome, policy)) {
            // The body, inside the attempt: its timeout, network errors and size limit apply to it.
            const type = got.get("content-type");
            const length = got.get("content-length");
            if (Number(length) > maxBytes) throw invalid(response, "too-large");
            original = handed = response;
            if (status === 204 || prepared.method === "HEAD" || length === "0") return response;
            if (ok && parseAs === "stream") {
              // The caller reads the stream: the timeout stays armed (without keeping the process alive) until it fires.
              armed = true;
              (timer as { unref?: () => void } | undefined)?.unref?.();
              return response;
            }
            const bytes = await read(response);
            const body = textual || !ok ? decoder.decode(bytes) : bytes;
            if (parseAs === "json" && ok && type !== null && !JSON_MEDIA_TYPE.test(type)) {
              // Redacted whole, then cut: a cut first could leave part of a credential.
              throw invalid(
                response,
                "content-type",
                redact(typeof body === "string" ? body : decoder.decode(body)).slice(0, PREVIEW_LENGTH),
              );
            }
            if (ok) {
              data = parse(body, response);
              if (!seen) return response;
            }
            // openapi-fetch reads error bodies itself, and middleware may read any body: hand on a readable copy.
            handed = new Response(status === 205 || status === 304 ? null : body, {
              status,
              statusText: response.statusText,
              headers: got,
            });
            return handed;
          }
          controller.abort(); // a retried status: its body is not read
        } catch (error) {
          controller.abort(); // a refused body (too large, not JSON) is not read to its end
          const reason =
            timedOut ??
            (userSignal?.aborted || error instanceof ClientError
              ? error
              : new NetworkError(info, attempt, redactError(error, redact)));
          outcome = { kind: timedOut ? "timeout" : "network" };
          if (
            !(reason instanceof TimeoutError || reason instanceof NetworkError) ||
            !shouldRetry(attempt, upper, override, outcome, policy)
          )
            throw reason;
        } finally {
          if (!armed) clearTimeout(timer);
        }
        const delayMs = retryDelay(attempt, outcome, policy);
        notify("onRetry", {
          ...info,
          attempt,
          reason: outcome.kind,
          status: (outcome as { status?: number }).status,
          delayMs,
        });
        await sleep(delayMs, userSignal);
      }
    }

    // This client's options (timeoutMs, retry, maxResponseBytes) go to openapi-fetch too, which passes unknown
    // options on to its Request: harmless, and cheaper than copying the rest. The caller's signal stays here.
    const result = await ((seen ? client : plain).request as unknown as Send)(upper, path, {
      ...init,
      signal: undefined,
      fetch: attempts,
      parseAs: "stream",
      body: serialized,
      bodySerializer: identity,
      params: ownParams,
    });
    // `handed`: what the attempts gave openapi-fetch; else a middleware answered, or replaced the response, and its
    // body is read here. The error body is redacted before anyone sees it.
    const { response } = result;
    const ours = response === handed;
    const replaced = async () => {
      const bytes = await read(response);
      return parse(textual ? decoder.decode(bytes) : bytes, response);
    };
    const out = response.ok
      ? { data: parseAs === "stream" || result.data == null ? result.data : ours ? data : await replaced(), response }
      : { error: redactValue(result.error, redact), response };
    if (ours) out.response = original!;
    // Not enumerable: out of JSON and logs; found by unwrap() from any copy of this package.
    return Object.defineProperty(out, REQUEST_INFO, { value: info });
  }

  const typed: Record<string, unknown> = {
    request: call,
    use(...added: unknown[]) {
      (client.use as (...m: unknown[]) => void)(...added);
      for (const m of added) if (m) middleware.push(m);
    },
    eject(...removed: unknown[]) {
      (client.eject as (...m: unknown[]) => void)(...removed);
      for (const m of removed) if (middleware.includes(m)) middleware.splice(middleware.indexOf(m), 1);
    },
    get rateLimit() {
      return rateLimit;
    },
    baseUrl,
  };
  for (const method of METHODS)
    typed[method] = (path: string, init?: Record<string, unknown>) => call(method, path, init);
  return typed as unknown as TypedClient<Paths>;
}
