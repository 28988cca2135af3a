// The rate limits, enforced per API key on the sandbox clock (choices.ts, "limits.*"), as the contract's
// x-rate-limits give them: every request against the general limit (200 per minute), an operation with a quota of
// its own (Create Quote, 100 per hour) against that too. A key's window of a limit opens at its first request
// counted there and lasts the limit's period, so a test's counts do not depend on the clock's start. Every answer
// carries X-RateLimit-Limit/-Remaining/-Reset computed from these counters (of the limit with the fewest
// requests left); a spent limit refuses the request with 429, which the pipeline answers with the published
// error body.
import { RATE_LIMIT_HEADERS } from "../../generated/client-meta.js";
import type { Refusal } from "../pipeline/request-checks.js";
import { durationMs } from "../pipeline/rate-limit.js";
import {
  isObject,
  type JsonObject,
  listOperations,
  type OpenApiDocument,
  type Operation,
} from "../openapi/document.js";
import { type Engine, nowOf } from "./engine.js";
import { RATE_LIMITED_STATUS, RULE_FORMS } from "./rules.js";
import { ownEntry, setOwnEntry, type WindowCount, wholeAt15Digits } from "./state.js";

/** What a sandbox's options change: the general limit's number of requests, and Create Quote's own. */
interface LimitSettings {
  requestsPerMinute?: number;
  quotesPerHour?: number;
}

interface Limit {
  /** Its key in a window record; for an operation's own quota, the operationId. */
  name: string;
  max: number;
  windowMs: number;
  /** What it counts, as a refusal says: "" (every request) or "createQuote ". */
  counts: string;
}

const WINDOW_WORDS: Record<number, string> = { 1000: "second", 60000: "minute", 3600000: "hour", 86400000: "day" };

/** "200 requests per minute". */
const says = (limit: Limit): string =>
  `${limit.max} ${limit.counts}requests per ${WINDOW_WORDS[limit.windowMs] ?? `${limit.windowMs / 1000} s`}`;

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

/** The key limits count requests without an API key under: a newline, which no header value (no API key) holds. */
export const KEYLESS = "\n";

export interface Limits {
  /** Counts a request of `key` to `operation`, or refuses it when a limit is spent. */
  admit(key: string, operation: Operation | undefined): Admitted;
  /** The headers of a request of `key` that is not counted (refused before the limits). */
  headersOf(key: string, operation: Operation | undefined): Record<string, string>;
}

function headersOf({ limit, start, count }: Reading): Record<string, string> {
  return {
    [RATE_LIMIT_HEADERS.limit]: String(limit.max),
    [RATE_LIMIT_HEADERS.remaining]: String(Math.max(0, limit.max - count)),
    // The window's end as a whole second, rounded as the register says (choices.ts, "limits.headers").
    [RATE_LIMIT_HEADERS.reset]: String(wholeAt15Digits((start + limit.windowMs) / 1000, RULE_FORMS.resetRounding)),
  };
}

/** The reading with the fewest requests left (the first on a tie). */
const tightest = (readings: Reading[]): Reading =>
  readings.reduce((best, reading) =>
    reading.limit.max - reading.count < best.limit.max - best.count ? reading : best,
  );

/** The contract's limits (x-rate-limits): the general one (info's first entry), and each operation's own quota. */
function contractLimits(spec: OpenApiDocument) {
  const entries = (holder: unknown): JsonObject[] => {
    const list = isObject(holder) ? holder["x-rate-limits"] : undefined;
    return Array.isArray(list) ? list.filter(isObject) : [];
  };
  const limitOf = (name: string, counts: string, entry: JsonObject | undefined): Limit => {
    const windowMs = durationMs(entry?.window);
    if (!entry || typeof entry.requests !== "number" || windowMs === undefined)
      throw new Error(`sandbox: the contract's x-rate-limits entry for ${name} has no requests and window`);
    return { name, max: entry.requests, windowMs, counts };
  };
  const general = limitOf("minute", "", entries(spec.info)[0]);
  const own = new Map<string, Limit>();
  for (const operation of listOperations(spec)) {
    const entry = entries(operation.operation).find((candidate) => candidate.appliesTo === operation.key);
    const name = operation.operationId ?? operation.key;
    if (entry) own.set(operation.key, limitOf(name, `${name} `, entry));
  }
  return { general, own };
}

/** A limit with another number of requests. */
const withMax = (limit: Limit, max: number | undefined): Limit => (max === undefined ? limit : { ...limit, max });

export function createLimits(engine: Engine, settings: LimitSettings): Limits {
  for (const [name, value] of Object.entries(settings))
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0))
      throw new RangeError(`sandbox limits: ${name} must be a whole number above 0`);
  const { general, own } = contractLimits(engine.spec);
  const minute = withMax(general, settings.requestsPerMinute);
  const quotas = new Map(own);
  const createQuote = listOperations(engine.spec).find((operation) => operation.operationId === "createQuote");
  if (createQuote && quotas.has(createQuote.key))
    quotas.set(createQuote.key, withMax(quotas.get(createQuote.key)!, settings.quotesPerHour));
  // The limits of each operation, worked out once (every request asks).
  const generalOnly = [minute];
  const withQuota = new Map([...quotas].map(([key, quota]) => [key, [minute, quota]]));
  const limitsOf = (operation: Operation | undefined): Limit[] =>
    (operation && withQuota.get(operation.key)) || generalOnly;
  const readings = (key: string, operation: Operation | undefined): Reading[] => {
    const store = key === KEYLESS ? undefined : ownEntry(engine.state.accounts, key);
    // A key's windows are on its clock; those requests without a key share are on the sandbox's.
    const now = store ? nowOf(engine, store) : engine.clock.now();
    const windows = windowsOf(key);
    return limitsOf(operation).map((limit) => {
      const saved = windows && ownEntry(windows, limit.name);
      // A window still open goes on; otherwise the next counted request opens one now.
      const open = saved !== undefined && now < saved.start + limit.windowMs;
      return open ? { limit, start: saved.start, count: saved.count } : { limit, start: now, count: 0 };
    });
  };
  /** The windows of `key`: its store's, or those requests without a key share. */
  const windowsOf = (key: string): Record<string, WindowCount> | undefined =>
    key === KEYLESS ? engine.state.keylessWindows : ownEntry(engine.state.accounts, key)?.windows;
  const count = (key: string, reading: Reading) => {
    const windows = windowsOf(key);
    if (!windows) return; // a key without a store is refused before it is counted (admission.ts)
    reading.count += 1;
    // The window's record is counted in place; a new one (a new key, limit or window) is set.
    const saved = ownEntry(windows, reading.limit.name);
    if (saved && saved.start === reading.start) saved.count = reading.count;
    else setOwnEntry<WindowCount>(windows, reading.limit.name, { start: reading.start, count: reading.count });
  };
  return {
    admit(key, operation) {
      const now = readings(key, operation);
      const spent = now.find((reading) => reading.count >= reading.limit.max);
      if (spent) {
        const resets = new Date(spent.start + spent.limit.windowMs).toISOString();
        const why = `rate limit spent: ${says(spent.limit)} for this API key; the window resets at ${resets}`;
        return { refusal: { status: RATE_LIMITED_STATUS, why }, headers: headersOf(spent) };
      }
      for (const reading of now) count(key, reading);
      return { headers: headersOf(tightest(now)) };
    },
    headersOf: (key, operation) => headersOf(tightest(readings(key, operation))),
  };
}
