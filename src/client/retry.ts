// Retry policy: which requests may be retried, and how long to wait before the next attempt.

export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  retries: number;
  /** Methods retried without a per-request opt-in. Default `["GET"]`: every POST of this API has effects or a scarce quota. */
  methods: readonly string[];
  /** Statuses that are retried. Default 429, 502, 503, 504. */
  statuses: readonly number[];
  /** Backoff base: attempt n waits a random time in [0, min(maxDelayMs, baseDelayMs × 2^(n-1))] ("full jitter"). Default 300 ms. */
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

/** Client-level setting: `false` disables retries, an object overrides defaults field by field. */
export type RetrySetting = boolean | Partial<RetryOptions>;

export function resolveRetryOptions(base: Readonly<RetryOptions>, setting: Partial<RetryOptions> | undefined): Readonly<RetryOptions> {
  if (!setting) return base;
  const merged = { ...base, ...definedOnly(setting) };
  for (const key of ["retries", "baseDelayMs", "maxDelayMs", "maxRateLimitWaitMs"] as const) {
    const value = merged[key];
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new TypeError(`retry.${key} must be a finite number ≥ 0, got ${String(value)}`);
    }
  }
  merged.methods = Object.freeze(merged.methods.map((m) => m.toUpperCase()));
  return Object.freeze(merged);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) (out as Record<string, unknown>)[key] = item;
  return out;
}

/** Full-jitter exponential backoff for retry number `retry` (1-based). */
export function backoffDelay(retry: number, options: Pick<RetryOptions, "baseDelayMs" | "maxDelayMs">, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 && !signal?.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
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
