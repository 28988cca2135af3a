// The rate limits, enforced per API key on the sandbox clock (choices.ts, "limits.*"): every request against the
// per-minute limit, Create Quote also against the hourly one, in fixed windows aligned to the epoch. Every answer
// carries X-RateLimit-Limit/-Remaining/-Reset computed from these counters (of the limit with the fewest
// requests left); a spent limit refuses the request with 429, which the pipeline answers with the published
// error body.
import { RATE_LIMIT_HEADERS } from "../../generated/client-meta.js";
import type { Refusal } from "../mock/request-checks.js";
import type { Operation } from "../openapi/document.js";
import type { Engine } from "./engine.js";
import { ownEntry, setOwnEntry, type WindowCount } from "./state.js";

export interface LimitSettings {
  requestsPerMinute: number;
  quotesPerHour: number;
}

/** The description's figures. */
export const DEFAULT_LIMITS: LimitSettings = { requestsPerMinute: 200, quotesPerHour: 100 };

const TOO_MANY_REQUESTS = 429;

interface Limit {
  name: string;
  max: number;
  windowMs: number;
  says: string;
}

/** A limit with its count in the window of this moment. */
interface Reading {
  limit: Limit;
  start: number;
  count: number;
}

export interface Admitted {
  refusal?: Refusal;
  headers: Record<string, string>;
}

export interface Limits {
  /** Counts a request of `key` (""": none) to `operation`, or refuses it when a limit is spent. */
  admit(key: string, operation: Operation | undefined): Admitted;
  /** The headers of a request of `key` that is not counted (refused before the limits). */
  headersOf(key: string, operation: Operation | undefined): Record<string, string>;
}

function headersOf({ limit, start, count }: Reading): Record<string, string> {
  return {
    [RATE_LIMIT_HEADERS.limit]: String(limit.max),
    [RATE_LIMIT_HEADERS.remaining]: String(Math.max(0, limit.max - count)),
    [RATE_LIMIT_HEADERS.reset]: String(Math.ceil((start + limit.windowMs) / 1000)),
  };
}

/** The reading with the fewest requests left (the first on a tie). */
const tightest = (readings: Reading[]): Reading =>
  readings.reduce((best, reading) =>
    reading.limit.max - reading.count < best.limit.max - best.count ? reading : best,
  );

export function createLimits(engine: Engine, settings: LimitSettings): Limits {
  const minute: Limit = {
    name: "minute",
    max: settings.requestsPerMinute,
    windowMs: 60_000,
    says: `${settings.requestsPerMinute} requests per minute`,
  };
  const quoteHour: Limit = {
    name: "createQuoteHour",
    max: settings.quotesPerHour,
    windowMs: 3_600_000,
    says: `${settings.quotesPerHour} Create Quote requests per hour`,
  };
  const limitsOf = (operation: Operation | undefined) =>
    operation?.operationId === "createQuote" ? [minute, quoteHour] : [minute];
  const readings = (key: string, operation: Operation | undefined): Reading[] => {
    const now = engine.clock.now();
    const windows = ownEntry(engine.state.windows, key);
    return limitsOf(operation).map((limit) => {
      const start = Math.floor(now / limit.windowMs) * limit.windowMs;
      const saved = windows && ownEntry(windows, limit.name);
      return { limit, start, count: saved && saved.start === start ? saved.count : 0 };
    });
  };
  const count = (key: string, reading: Reading) => {
    let windows = ownEntry(engine.state.windows, key);
    if (!windows) {
      windows = {};
      setOwnEntry(engine.state.windows, key, windows);
    }
    reading.count += 1;
    setOwnEntry<WindowCount>(windows, reading.limit.name, { start: reading.start, count: reading.count });
  };
  return {
    admit(key, operation) {
      const now = readings(key, operation);
      const spent = now.find((reading) => reading.count >= reading.limit.max);
      if (spent) {
        const resets = new Date(spent.start + spent.limit.windowMs).toISOString();
        const why = `rate limit spent: ${spent.limit.says} for this API key; the window resets at ${resets}`;
        return { refusal: { status: TOO_MANY_REQUESTS, why }, headers: headersOf(spent) };
      }
      for (const reading of now) count(key, reading);
      return { headers: headersOf(tightest(now)) };
    },
    headersOf: (key, operation) => headersOf(tightest(readings(key, operation))),
  };
}
