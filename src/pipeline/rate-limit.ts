// Rate-limit headers that make sense at the moment of the answer. The contract's header examples are fixed
// (`X-RateLimit-Reset` 1795341660, soon in the past, and `X-RateLimit-Remaining` 199 even on a 429), so a
// client that honours them would retry a mock 429 at once. The request pipeline (pipeline.ts) of the mock
// and of the ./msw handlers rewrites the documented rate-limit headers of every answer:
//   - X-RateLimit-Reset: the end of the current window, in the documented example's format (Unix seconds).
//     Windows are fixed and aligned to the epoch (a one-minute window ends at the next full minute). The
//     window is the one of the limit the header describes: the `info` x-rate-limits entry whose `requests`
//     is the documented X-RateLimit-Limit (200 per minute, PT1M); a minute when none matches, since the
//     description says X-RateLimit-Limit counts requests per minute.
//   - X-RateLimit-Remaining: 0 on a 429 (the limit is spent); else the documented value, never above Limit.
// A header the answer does not document is not added. The mock enforces no limit: nothing is counted.
import { RATE_LIMIT_HEADERS } from "../../generated/client-meta.js";
import { isObject, type OpenApiDocument } from "../openapi/document.js";

const MINUTE_MS = 60_000;
const TOO_MANY_REQUESTS = 429;

/** Milliseconds of an ISO 8601 duration of days, hours, minutes and seconds (`PT1M`, `PT1H`), else undefined. */
export function durationMs(text: unknown): number | undefined {
  const match =
    typeof text === "string" ? /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(text) : null;
  if (!match || text === "P" || (text as string).endsWith("T")) return undefined;
  const [days, hours, minutes, seconds] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
  ];
  const ms = (((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000;
  return ms > 0 ? ms : undefined;
}

/** The window of each limit of `info.x-rate-limits`, by its number of requests (the first entry wins). */
function windowsByLimit(spec: OpenApiDocument): Map<number, number> {
  const entries = (spec.info as Record<string, unknown> | undefined)?.["x-rate-limits"];
  const windows = new Map<number, number>();
  for (const entry of Array.isArray(entries) ? entries : []) {
    const window = isObject(entry) ? durationMs(entry.window) : undefined;
    if (window !== undefined && typeof entry.requests === "number" && !windows.has(entry.requests))
      windows.set(entry.requests, window);
  }
  return windows;
}

interface RateLimitHeaders {
  /**
   * `headers` (lower-case names) of an answer with `status` at `now` (default: this moment), its documented
   * rate-limit headers rewritten as above. `headers` itself is not changed.
   */
  refresh<T extends Record<string, unknown>>(headers: T, status: number, now?: number): T;
}

export function rateLimitHeaders(spec: OpenApiDocument): RateLimitHeaders {
  const windows = windowsByLimit(spec);
  return {
    refresh(headers, status, now = Date.now()) {
      const copy: Record<string, unknown> = { ...headers };
      const limit = Number(headers[RATE_LIMIT_HEADERS.limit]);
      if (typeof headers[RATE_LIMIT_HEADERS.reset] === "string") {
        const window = windows.get(limit) ?? MINUTE_MS;
        copy[RATE_LIMIT_HEADERS.reset] = String(Math.ceil(((Math.floor(now / window) + 1) * window) / 1000));
      }
      const remaining = headers[RATE_LIMIT_HEADERS.remaining];
      if (typeof remaining === "string") {
        const spent = status === TOO_MANY_REQUESTS;
        copy[RATE_LIMIT_HEADERS.remaining] = spent
          ? "0"
          : Number.isFinite(limit) && Number(remaining) > limit
            ? String(limit)
            : remaining;
      }
      return copy as typeof headers;
    },
  };
}
