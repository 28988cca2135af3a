// Retry policy as pure functions: whether an attempt is retried, how long to wait before the next one, and how
// long to wait before sending once a response said the rate limit is spent. Nothing here reads a clock or a
// socket: `now` and `random` are parameters (defaulting to Date.now and Math.random).
import { msUntilReset, parseRetryAfter, readRateLimit, type RateLimitState } from "./rate-limit.js";

export interface RetryOptions {
  /** Retries after the first attempt: an integer from 0 to 10. Default 2. */
  retries: number;
  /**
   * Methods retried without a per-request opt-in. Default `["GET"]`: every POST of this API has effects or a scarce
   * quota.
   */
  methods: readonly string[];
  /** Statuses that are retried. Default 429, 502, 503, 504. */
  statuses: readonly number[];
  /**
   * Backoff base: attempt n waits a random time in [0, min(maxDelayMs, baseDelayMs × 2^(n-1))] ("full jitter").
   * Default 300 ms.
   */
  baseDelayMs: number;
  /** Cap of the computed backoff. Default 5000 ms. */
  maxDelayMs: number;
  /**
   * Longest wait the server may ask for (X-RateLimit-Reset after a 429 or `Remaining: 0`, Retry-After).
   * A longer requested wait is not waited for: the 429 is returned (or the request is sent at once). Default 60000 ms.
   */
  maxRateLimitWaitMs: number;
}

export const DEFAULT_RETRY: Readonly<RetryOptions> = Object.freeze({
  retries: 2,
  methods: Object.freeze(["GET"]),
  statuses: Object.freeze([429, 502, 503, 504]),
  baseDelayMs: 300,
  maxDelayMs: 5000,
  maxRateLimitWaitMs: 60_000,
});

/** Upper bound of `retries`: 11 attempts at most, whatever a caller asks. */
const MAX_RETRIES = 10;

/** A call's `retry` option: `false` never, `true` or an object opts the call in (an object also overrides options). */
export type RetryOverride = boolean | Partial<RetryOptions> | undefined;

/** How an attempt ended, as far as retrying is concerned. */
export type AttemptOutcome =
  | { kind: "network" }
  | { kind: "timeout" }
  | { kind: "status"; status: number; headers: Headers };

/** `base` with the defined fields of `setting`, checked; methods upper-cased. A TypeError names a bad field. */
export function resolveRetryOptions(
  base: Readonly<RetryOptions>,
  setting: Partial<RetryOptions> | undefined,
): Readonly<RetryOptions> {
  if (!setting) return base;
  const merged = { ...base };
  for (const [key, value] of Object.entries(setting))
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  for (const key of ["retries", "baseDelayMs", "maxDelayMs", "maxRateLimitWaitMs"] as const) {
    const value = merged[key];
    const count = key === "retries";
    if (!(value >= 0 && (count ? Number.isInteger(value) && value <= MAX_RETRIES : value < Infinity))) {
      throw new TypeError(
        `retry.${key} must be ${count ? `an integer from 0 to ${MAX_RETRIES}` : "a finite number ≥ 0"}, got ${value}`,
      );
    }
  }
  merged.methods = Object.freeze(merged.methods.map((m) => m.toUpperCase()));
  return Object.freeze(merged);
}

/** Full-jitter exponential backoff for retry number `retry` (1-based). */
export function backoffDelay(
  retry: number,
  options: Pick<RetryOptions, "baseDelayMs" | "maxDelayMs">,
  random: () => number = Math.random,
): number {
  return Math.floor(random() * Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1)));
}

/** The wait a status response asks for (X-RateLimit-Reset after a 429 or `Remaining: 0`, else Retry-After, 429/503). */
function serverWait(outcome: AttemptOutcome, now: number): number | undefined {
  if (outcome.kind !== "status") return undefined;
  const { status, headers } = outcome;
  const state = readRateLimit(headers, now);
  if ((status === 429 || state?.remaining === 0) && state?.reset !== undefined) return msUntilReset(state.reset, now);
  if (status === 429 || status === 503) return parseRetryAfter(headers.get("retry-after"), now);
  return undefined;
}

/**
 * Whether attempt number `attempt` (1-based) of a `method` call that ended with `outcome` is retried: the call may be
 * retried (`override`, else `options.methods`), retries remain, the outcome is a network error, a timeout or one of
 * `options.statuses`, and the server does not ask for a longer wait than `options.maxRateLimitWaitMs`.
 */
export function shouldRetry(
  attempt: number,
  method: string,
  override: RetryOverride,
  outcome: AttemptOutcome,
  options: Readonly<RetryOptions>,
  now: number = Date.now(),
): boolean {
  if (override === false || attempt > options.retries) return false;
  if (override === undefined && !options.methods.includes(method)) return false;
  if (outcome.kind !== "status") return true;
  if (!options.statuses.includes(outcome.status)) return false;
  const wait = serverWait(outcome, now);
  return wait === undefined || wait <= options.maxRateLimitWaitMs;
}

/** Milliseconds to wait before the retry that follows attempt `attempt`: the server's wait, else the backoff. */
export function retryDelay(
  attempt: number,
  outcome: AttemptOutcome,
  options: Readonly<RetryOptions>,
  now: number = Date.now(),
  random: () => number = Math.random,
): number {
  return serverWait(outcome, now) ?? backoffDelay(attempt, options, random);
}

/** Before sending: the wait until the reset when the last response said `Remaining: 0`, if allowed; else 0. */
export function rateLimitWait(
  state: RateLimitState | undefined,
  options: Readonly<RetryOptions>,
  now: number = Date.now(),
): number {
  if (state?.remaining !== 0 || state.reset === undefined) return 0;
  const wait = msUntilReset(state.reset, now);
  return wait > options.maxRateLimitWaitMs ? 0 : wait;
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
