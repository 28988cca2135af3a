// Types of the client: options, hooks, per-request options and the typed methods.
import type { Client, FetchResponse, MaybeOptionalInit } from "openapi-fetch";
import type { HttpMethod } from "../openapi/document.js";
import type { RateLimitState } from "./rate-limit.js";
import type { RetryOptions } from "./retry.js";

type MediaType = `${string}/${string}`;

/** A fetch implementation; it receives a Request whose `signal` carries the timeout. */
export type FetchLike = (input: Request) => Promise<Response>;

/** What a hook learns about a request. Never carries headers (the API key is one). */
export interface RequestEvent {
  method: string;
  /** Path template of the operation, e.g. `/trades/quote/{quoteId}`. */
  path: string;
  operationId: string | undefined;
  url: string;
  /** 1 for the first attempt, 2 for the first retry… */
  attempt: number;
}

export interface ResponseEvent extends RequestEvent {
  status: number;
  /** Time to response headers. */
  durationMs: number;
}

export interface RetryEvent extends RequestEvent {
  /** Why the attempt is retried. */
  reason: "status" | "timeout" | "network";
  status: number | undefined;
  /** Wait before the next attempt. */
  delayMs: number;
}

export interface RateLimitWaitEvent extends RequestEvent {
  /** The last response said `X-RateLimit-Remaining: 0`: the request waits this long, until `X-RateLimit-Reset`. */
  delayMs: number;
  rateLimit: RateLimitState;
}

/** Observers. They cannot change a request; an exception thrown by a hook is ignored. */
export interface ClientHooks {
  onRequest?(event: RequestEvent): void;
  onResponse?(event: ResponseEvent): void;
  onRetry?(event: RetryEvent): void;
  onRateLimit?(state: RateLimitState, event: ResponseEvent): void;
  onRateLimitWait?(event: RateLimitWaitEvent): void;
}

export interface ClientOptions {
  /** Absolute http(s) URL ending in `/v1`, e.g. `MOCK_BASE_URL` or your environment's URL. Required. */
  baseUrl: string;
  /** Sent as `x-api-key` on every request. Never appears in errors, hooks or logs of the client. */
  apiKey?: string;
  /**
   * The account's API secret: when given, every attempt of every request is signed with `x-api-timestamp` and
   * `x-api-signature` (HMAC-SHA256 of METHOD + PATH + TIMESTAMP; observed in a real client, not in the description).
   * Needs `apiKey`. Never sent, never in errors, hooks or logs. Never ship it to a browser.
   */
  apiSecret?: string;
  /** Replaces `globalThis.fetch`. */
  fetch?: FetchLike;
  /**
   * Per-attempt time limit for the response, body included (with `parseAs: "stream"`, while the caller reads it).
   * Default 30000 ms; at most 2147483647 (what setTimeout can hold); `Infinity` disables.
   */
  timeoutMs?: number;
  /**
   * Largest response body read, in bytes (Content-Length checked first, else counted while it arrives); a longer one
   * fails with InvalidResponseError reason `too-large`, never retried. Default 16 MiB; `Infinity` disables.
   */
  maxResponseBytes?: number;
  /** Retry policy (`RetryOptions`; `retries` from 0 to 10); `false` disables retries. Default: GET only, 2 retries. */
  retry?: boolean | Partial<RetryOptions>;
  /** Observers of requests, retries and rate limits. */
  hooks?: ClientHooks;
  /** Extra headers sent on every request. */
  headers?: Record<string, string>;
}

/** Options any call accepts next to openapi-fetch's own (`params`, `body`, `headers`, `signal`…). */
export interface RequestOverrides {
  /** Per-attempt time limit of this call (see `ClientOptions.timeoutMs`). */
  timeoutMs?: number;
  /** Largest response body of this call, in bytes (see `ClientOptions.maxResponseBytes`). */
  maxResponseBytes?: number;
  /**
   * `false`: never retry this call. `true` or an object: this call may be retried even if its method is not in
   * `retry.methods` (an explicit opt-in, e.g. for a POST you know to be safe to repeat); an object also overrides
   * the client's retry options for this call.
   */
  retry?: boolean | Partial<RetryOptions>;
}

type PathsWithMethod<Paths, Method extends HttpMethod> = {
  // biome-ignore lint/suspicious/noExplicitAny: the constraint openapi-fetch's own types use
  [P in keyof Paths]: Paths[P] extends { [K in Method]: any } ? P : never;
}[keyof Paths];
// biome-ignore lint/complexity/noBannedTypes: `{} extends Pick<T, K>` is the test for an optional key
type RequiredKeysOfHelper<T> = { [K in keyof T]: {} extends Pick<T, K> ? never : K }[keyof T];
type RequiredKeysOf<T> = RequiredKeysOfHelper<T> extends undefined ? never : RequiredKeysOfHelper<T>;
type InitParam<Init> =
  RequiredKeysOf<Init> extends never
    ? [(Init & RequestOverrides & { [key: string]: unknown })?]
    : [Init & RequestOverrides & { [key: string]: unknown }];

/** openapi-fetch's method signature, with `RequestOverrides` type-checked. */
// biome-ignore lint/suspicious/noExplicitAny: the constraint openapi-fetch's own types use
export type TypedMethod<Paths extends Record<string, any>, Method extends HttpMethod> = <
  Path extends PathsWithMethod<Paths, Method>,
  Init extends MaybeOptionalInit<Paths[Path], Method> & RequestOverrides,
>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<FetchResponse<Paths[Path][Method], Init, MediaType>>;

// biome-ignore lint/suspicious/noExplicitAny: the constraint openapi-fetch's own types use
export type TypedRequestMethod<Paths extends Record<string, any>> = <
  Method extends HttpMethod,
  Path extends PathsWithMethod<Paths, Method>,
  Init extends MaybeOptionalInit<Paths[Path], Method> & RequestOverrides,
>(
  method: Method,
  url: Path,
  ...init: InitParam<Init>
) => Promise<FetchResponse<Paths[Path][Method], Init, MediaType>>;

/** An openapi-fetch client (GET, POST…, request, use, eject) with the rate-limit state of the last response. */
// biome-ignore lint/suspicious/noExplicitAny: the constraint openapi-fetch's own types use
export interface TypedClient<Paths extends Record<string, any>>
  extends Omit<Client<Paths>, "GET" | "PUT" | "POST" | "DELETE" | "OPTIONS" | "HEAD" | "PATCH" | "TRACE" | "request"> {
  GET: TypedMethod<Paths, "get">;
  PUT: TypedMethod<Paths, "put">;
  POST: TypedMethod<Paths, "post">;
  DELETE: TypedMethod<Paths, "delete">;
  OPTIONS: TypedMethod<Paths, "options">;
  HEAD: TypedMethod<Paths, "head">;
  PATCH: TypedMethod<Paths, "patch">;
  TRACE: TypedMethod<Paths, "trace">;
  request: TypedRequestMethod<Paths>;
  /** Rate-limit headers of the last response that carried any (undefined before the first one). */
  readonly rateLimit: RateLimitState | undefined;
  /** The validated base URL. */
  readonly baseUrl: string;
}
