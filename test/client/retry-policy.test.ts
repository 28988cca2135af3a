// The retry decision as pure functions, table by table: whether to retry after an attempt, how long to wait,
// and how long to wait before sending once the limit is spent, and the options it reads (resolveRetryOptions).
// No sockets, no clock: `now` and `random` are given.
import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY, type RetryOptions } from "../../src/index.js";
import {
  type AttemptOutcome,
  rateLimitWait,
  resolveRetryOptions,
  retryDelay,
  shouldRetry,
} from "../../src/client/retry.js";
import { RATE_LIMIT_HEADERS } from "../support/spec.js";

const NOW = Date.UTC(2030, 0, 1, 12, 0, 0);
const inSeconds = (s: number) => String(NOW / 1000 + s);
const network: AttemptOutcome = { kind: "network" };
const timeout: AttemptOutcome = { kind: "timeout" };
const status = (code: number, headers: Record<string, string> = {}): AttemptOutcome => ({
  kind: "status",
  status: code,
  headers: new Headers(headers),
});

describe("shouldRetry(attempt, method, override, outcome, options, now)", () => {
  const cases: Array<[string, number, string, boolean | Partial<RetryOptions> | undefined, AttemptOutcome, boolean]> = [
    ["GET, network error, first attempt", 1, "GET", undefined, network, true],
    ["GET, timeout", 1, "GET", undefined, timeout, true],
    ["GET, second retry still allowed", 2, "GET", undefined, network, true],
    ["GET, retries spent (3 attempts = 2 retries)", 3, "GET", undefined, network, false],
    ["GET, 503", 1, "GET", undefined, status(503), true],
    ["GET, 502", 1, "GET", undefined, status(502), true],
    ["GET, 504", 1, "GET", undefined, status(504), true],
    ["GET, 429 without headers (backoff)", 1, "GET", undefined, status(429), true],
    ["GET, 500", 1, "GET", undefined, status(500), false],
    ["GET, 400", 1, "GET", undefined, status(400), false],
    ["GET, 200", 1, "GET", undefined, status(200), false],
    [
      "GET, 429, reset in 30 s (within 60 s)",
      1,
      "GET",
      undefined,
      status(429, { [RATE_LIMIT_HEADERS.reset]: inSeconds(30) }),
      true,
    ],
    [
      "GET, 429, reset in 60 s (the cap itself)",
      1,
      "GET",
      undefined,
      status(429, { [RATE_LIMIT_HEADERS.reset]: inSeconds(60) }),
      true,
    ],
    [
      "GET, 429, reset in an hour (the quote quota)",
      1,
      "GET",
      undefined,
      status(429, { [RATE_LIMIT_HEADERS.reset]: inSeconds(3600) }),
      false,
    ],
    ["GET, 503, Retry-After 120 s", 1, "GET", undefined, status(503, { "retry-after": "120" }), false],
    ["GET, 503, Retry-After 2 s", 1, "GET", undefined, status(503, { "retry-after": "2" }), true],
    ["GET, retry: false", 1, "GET", false, network, false],
    ["POST, network error", 1, "POST", undefined, network, false],
    ["POST, timeout", 1, "POST", undefined, timeout, false],
    ["POST, 503", 1, "POST", undefined, status(503), false],
    ["POST, 429", 1, "POST", undefined, status(429), false],
    ["POST, retry: true, 503", 1, "POST", true, status(503), true],
    ["POST, retry: true, network error", 1, "POST", true, network, true],
    ["POST, retry: {}, timeout", 1, "POST", {}, timeout, true],
    ["POST, retry: true, 500", 1, "POST", true, status(500), false],
    ["POST, retry: true, retries spent", 3, "POST", true, network, false],
  ];
  it.each(cases)("%s", (_, attempt, method, override, outcome, expected) => {
    expect(shouldRetry(attempt, method, override, outcome, DEFAULT_RETRY, NOW)).toBe(expected);
  });

  it("follows the options it is given: methods, statuses, retries, maxRateLimitWaitMs", () => {
    const options = resolveRetryOptions(DEFAULT_RETRY, {
      methods: ["get", "PUT"],
      statuses: [500],
      retries: 1,
      maxRateLimitWaitMs: 5000,
    });
    expect(shouldRetry(1, "PUT", undefined, network, options, NOW)).toBe(true);
    expect(shouldRetry(1, "GET", undefined, status(500), options, NOW)).toBe(true);
    expect(shouldRetry(1, "GET", undefined, status(503), options, NOW)).toBe(false);
    expect(shouldRetry(2, "GET", undefined, network, options, NOW)).toBe(false);
    expect(
      shouldRetry(
        1,
        "GET",
        undefined,
        status(500, { [RATE_LIMIT_HEADERS.remaining]: "0", [RATE_LIMIT_HEADERS.reset]: inSeconds(10) }),
        options,
        NOW,
      ),
    ).toBe(false);
    expect(shouldRetry(1, "GET", undefined, network, resolveRetryOptions(DEFAULT_RETRY, { retries: 0 }), NOW)).toBe(
      false,
    );
  });
});

describe("retryDelay(attempt, outcome, options, now, random)", () => {
  const options = resolveRetryOptions(DEFAULT_RETRY, { baseDelayMs: 100, maxDelayMs: 1000 });
  const top = () => 0.999999;
  const cases: Array<[string, number, AttemptOutcome, () => number, number]> = [
    ["network, 1st retry: [0, 100)", 1, network, top, 99],
    ["timeout, 2nd retry: [0, 200)", 2, timeout, top, 199],
    ["network, 4th retry: [0, 800)", 4, network, top, 799],
    ["network, capped at maxDelayMs", 8, network, top, 999],
    ["full jitter can be 0", 3, network, () => 0, 0],
    ["half way", 2, network, () => 0.5, 100],
    ["502 without headers: backoff", 1, status(502), top, 99],
    ["429 without headers: backoff", 1, status(429), top, 99],
    ["429: until X-RateLimit-Reset", 1, status(429, { [RATE_LIMIT_HEADERS.reset]: inSeconds(30) }), top, 30_000],
    [
      "503 with Remaining 0: until X-RateLimit-Reset",
      1,
      status(503, { [RATE_LIMIT_HEADERS.remaining]: "0", [RATE_LIMIT_HEADERS.reset]: inSeconds(7) }),
      top,
      7000,
    ],
    ["429 with a reset already past: at once", 1, status(429, { [RATE_LIMIT_HEADERS.reset]: inSeconds(-5) }), top, 0],
    ["503: Retry-After in seconds", 1, status(503, { "retry-after": "2" }), top, 2000],
    [
      "503: Retry-After as an HTTP date",
      1,
      status(503, { "retry-after": new Date(NOW + 4000).toUTCString() }),
      top,
      4000,
    ],
    ["429: Retry-After when no reset is given", 1, status(429, { "retry-after": "3" }), top, 3000],
    ["503: malformed Retry-After falls back to backoff", 1, status(503, { "retry-after": "soon" }), () => 0.5, 50],
    ["504: Retry-After is not read", 1, status(504, { "retry-after": "9" }), () => 0.5, 50],
  ];
  it.each(cases)("%s", (_, attempt, outcome, random, expected) => {
    expect(retryDelay(attempt, outcome, options, NOW, random)).toBe(expected);
  });
});

describe("rateLimitWait(state, options, now): before sending, after `Remaining: 0`", () => {
  const state = (remaining: number | undefined, reset: number | undefined) => ({
    limit: 200,
    remaining,
    reset,
    observedAt: NOW,
  });
  const cases: Array<[string, ReturnType<typeof state> | undefined, number]> = [
    ["no state yet", undefined, 0],
    ["requests remain", state(5, NOW / 1000 + 30), 0],
    ["spent, reset in 30 s", state(0, NOW / 1000 + 30), 30_000],
    ["spent, reset in an hour: not waited for", state(0, NOW / 1000 + 3600), 0],
    ["spent, reset past", state(0, NOW / 1000 - 1), 0],
    ["spent, no reset", state(0, undefined), 0],
  ];
  it.each(cases)("%s", (_, given, expected) => {
    expect(rateLimitWait(given, DEFAULT_RETRY, NOW)).toBe(expected);
  });
});

describe("resolveRetryOptions", () => {
  it("bounds retries to an integer from 0 to 10 and the delays to finite numbers ≥ 0", () => {
    for (const retries of [-1, 11, 2.5, Number.NaN])
      expect(() => resolveRetryOptions(DEFAULT_RETRY, { retries })).toThrow(
        /retry\.retries must be an integer from 0 to 10/,
      );
    for (const key of ["baseDelayMs", "maxDelayMs", "maxRateLimitWaitMs"] as const) {
      expect(() => resolveRetryOptions(DEFAULT_RETRY, { [key]: -1 })).toThrow(
        new RegExp(`retry\\.${key} must be a finite number`),
      );
      expect(() => resolveRetryOptions(DEFAULT_RETRY, { [key]: Number.POSITIVE_INFINITY })).toThrow(TypeError);
    }
    expect(resolveRetryOptions(DEFAULT_RETRY, { retries: 10, methods: ["get"] })).toMatchObject({
      retries: 10,
      methods: ["GET"],
    });
  });
});

describe("resolveRetryOptions", () => {
  it("resolveRetryOptions ignores fields given as undefined", () => {
    expect(resolveRetryOptions(DEFAULT_RETRY, { retries: undefined, baseDelayMs: 7 })).toEqual({
      ...DEFAULT_RETRY,
      baseDelayMs: 7,
    });
  });
});
