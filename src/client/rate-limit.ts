// Rate-limit state from the X-RateLimit-* response headers (the description: every response carries them).
import { RATE_LIMIT_HEADERS } from "../../generated/client-meta.js";

/** What the last response said about the rate limit. A field is undefined when its header was absent or malformed. */
export interface RateLimitState {
  /** `X-RateLimit-Limit`: maximum requests per minute. */
  readonly limit: number | undefined;
  /** `X-RateLimit-Remaining`: requests remaining in the current window. */
  readonly remaining: number | undefined;
  /** `X-RateLimit-Reset`: Unix timestamp (seconds) when the limit resets. */
  readonly reset: number | undefined;
  /** When the response carrying these headers arrived (ms since the epoch, client clock). */
  readonly observedAt: number;
}

const NON_NEGATIVE_INTEGER = /^\d{1,16}$/;

/** A non-negative integer header value, or undefined when absent or malformed (never throws). */
export function parseIntegerHeader(value: string | null | undefined): number | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim();
  if (!NON_NEGATIVE_INTEGER.test(trimmed)) return undefined;
  const parsed = Number(trimmed);
  return Number.isSafeInteger(parsed) ? parsed : undefined;
}

/** The rate-limit state a response's headers describe, or undefined when none of the three headers is usable. */
export function readRateLimit(headers: Headers, now: number = Date.now()): RateLimitState | undefined {
  const limit = parseIntegerHeader(headers.get(RATE_LIMIT_HEADERS.limit));
  const remaining = parseIntegerHeader(headers.get(RATE_LIMIT_HEADERS.remaining));
  const reset = parseIntegerHeader(headers.get(RATE_LIMIT_HEADERS.reset));
  if (limit === undefined && remaining === undefined && reset === undefined) return undefined;
  return Object.freeze({ limit, remaining, reset, observedAt: now });
}

/** Milliseconds until `reset` (Unix seconds), never negative. */
export function msUntilReset(reset: number, now: number = Date.now()): number {
  return Math.max(0, reset * 1000 - now);
}

/**
 * `Retry-After` (RFC 9110: delay-seconds or an HTTP date) in milliseconds, or undefined when absent or malformed.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value == null) return undefined;
  const seconds = parseIntegerHeader(value);
  if (seconds !== undefined) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
