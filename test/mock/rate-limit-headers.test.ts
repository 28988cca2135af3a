// The mock's rate-limit headers make sense at the moment of the answer, in the HTTP mock and in ./msw (one
// function, src/pipeline/rate-limit.ts): X-RateLimit-Reset is the end of the current one-minute window (the
// limit is per minute, the description says), in the documented example's format (Unix seconds); a 429 says
// X-RateLimit-Remaining: 0; Remaining is never above Limit. So the client, retrying a mock 429, waits until
// the reset instead of 0 ms. The clock is faked (Date only: the mock runs in this process and reads it too).
import fc from "fast-check";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { MOCK_BASE_URL } from "../../generated/client-meta.js";
import { createClient } from "../../src/index.js";
import { documentedAnswer, errorAnswer } from "../../src/pipeline/answers.js";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { durationMs, rateLimitHeaders } from "../../src/pipeline/rate-limit.js";
import { createHandlers } from "../../src/msw/index.js";
import {
  API_KEY_HEADER,
  listSpecOperations,
  loadSpec,
  RATE_LIMIT_HEADERS,
  rateLimitExamples,
} from "../support/spec.js";

const spec = loadSpec();
const operations = listSpecOperations(spec);
const documented = rateLimitExamples(spec);
const MINUTE_S = 60;

/** Half a minute into a minute: the window ends 30 s later. */
const NOW = Date.parse("2026-11-24T10:00:30.000Z");
const WINDOW_END_S = Date.parse("2026-11-24T10:01:00.000Z") / 1000;

const read = (headers: Headers | Record<string, unknown>) => {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : headers[name]);
  return {
    limit: Number(get(RATE_LIMIT_HEADERS.limit)),
    remaining: Number(get(RATE_LIMIT_HEADERS.remaining)),
    reset: String(get(RATE_LIMIT_HEADERS.reset)),
  };
};

describe("the rate-limit headers of an answer (the function the mock and ./msw share)", () => {
  const limits = rateLimitHeaders(spec);
  const statuses = [200, 400, 401, 404, 405, 408, 413, 414, 422, 429, 431, 500, 503];

  it("reset: the end of the current minute, in Unix seconds; Remaining 0 on a 429, never above Limit", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...operations),
        fc.constantFrom(...statuses),
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        (operation, status, now) => {
          const answer = documentedAnswer(spec, operation, status) ?? errorAnswer(spec, operation, status);
          const headers = read(limits.refresh(answer.headers, status, now));
          expect(headers.reset).toMatch(/^\d+$/);
          const reset = Number(headers.reset);
          expect(reset * 1000).toBeGreaterThan(now);
          expect(reset * 1000 - MINUTE_S * 1000).toBeLessThanOrEqual(now);
          expect(reset % MINUTE_S).toBe(0);
          expect(headers.limit).toBe(documented[RATE_LIMIT_HEADERS.limit]);
          expect(headers.remaining).toBeLessThanOrEqual(headers.limit);
          expect(headers.remaining).toBe(status === 429 ? 0 : documented[RATE_LIMIT_HEADERS.remaining]);
        },
      ),
    );
  });

  it("never raises Remaining above Limit, whatever the documented values", () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(1000), fc.constantFrom(200, 429), (limit, remaining, status) => {
        const given = { [RATE_LIMIT_HEADERS.limit]: String(limit), [RATE_LIMIT_HEADERS.remaining]: String(remaining) };
        const headers = read(limits.refresh(given, status, NOW));
        expect(headers.remaining).toBe(status === 429 ? 0 : Math.min(limit, remaining));
      }),
    );
  });

  it("takes the window from the info x-rate-limits entry of the documented Limit", () => {
    const hourly = {
      ...spec,
      info: { ...spec.info, "x-rate-limits": [{ requests: documented[RATE_LIMIT_HEADERS.limit], window: "PT1H" }] },
    };
    const answer = errorAnswer(spec, operations[0], 429);
    expect(read(rateLimitHeaders(hourly).refresh(answer.headers, 429, NOW)).reset).toBe(
      String(Date.parse("2026-11-24T11:00:00.000Z") / 1000),
    );
    const otherLimit = { ...spec, info: { ...spec.info, "x-rate-limits": [{ requests: 1, window: "PT1H" }] } };
    expect(read(rateLimitHeaders(otherLimit).refresh(answer.headers, 429, NOW)).reset).toBe(String(WINDOW_END_S));
  });

  it("reads ISO 8601 durations of days, hours, minutes and seconds", () => {
    expect(["PT1M", "PT1H", "P1D", "PT0.5S", "P1DT1H1M1S"].map(durationMs)).toEqual([
      60_000, 3_600_000, 86_400_000, 500, 90_061_000,
    ]);
    expect(["P", "PT", "PT0S", "1M", "", "PT1X", undefined, 60].map(durationMs)).toEqual(Array(8).fill(undefined));
  });

  it("reads durations of several digits each, and refuses text around one, a dangling T or a non-string", () => {
    expect(["P12DT10H11M12.25S", "PT90M"].map(durationMs)).toEqual([
      (((12 * 24 + 10) * 60 + 11) * 60 + 12.25) * 1000,
      5_400_000,
    ]);
    expect(["xPT1M", "PT1MX", "P1DT", ["PT1M"]].map(durationMs)).toEqual(Array(4).fill(undefined));
  });

  it("takes the first x-rate-limits entry of a limit, skips those without a window or a number, no info", () => {
    const limit = documented[RATE_LIMIT_HEADERS.limit];
    const answer = errorAnswer(spec, operations[0], 429);
    const resetWith = (info: unknown) =>
      read(rateLimitHeaders({ ...spec, info } as typeof spec).refresh(answer.headers, 429, NOW)).reset;
    const entries = [
      { requests: limit, window: "one hour" },
      { requests: String(limit), window: "PT1H" },
      { requests: limit, window: "P1D" },
      { requests: limit, window: "PT1H" },
    ];
    expect(resetWith({ ...spec.info, "x-rate-limits": entries })).toBe(
      String(Date.parse("2026-11-25T00:00:00.000Z") / 1000),
    );
    expect(resetWith(undefined)).toBe(String(WINDOW_END_S));
  });

  it("adds no header the answer does not document, and leaves the others as they are", () => {
    const given = { "content-type": "application/json", [RATE_LIMIT_HEADERS.limit]: "200" };
    expect(limits.refresh(given, 429, NOW)).toEqual(given);
  });
});

/** What the mock and ./msw answer, and what the client does with a 429 of theirs, on a fake clock. */
function answersAtTheMoment(baseUrl: () => string) {
  afterEach(() => vi.useRealTimers());
  const keyed = { [API_KEY_HEADER]: "k" };

  it("answers a 429 with Remaining 0 and a reset at the end of the current minute", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const response = await fetch(`${baseUrl()}/trades/summary/me`, { headers: { ...keyed, prefer: "code=429" } });
    expect(response.status).toBe(429);
    expect(read(response.headers)).toEqual({
      limit: documented[RATE_LIMIT_HEADERS.limit],
      remaining: 0,
      reset: String(WINDOW_END_S),
    });
  });

  it("answers a success and a refusal with the documented Remaining and the same reset", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const expected = {
      limit: documented[RATE_LIMIT_HEADERS.limit],
      remaining: documented[RATE_LIMIT_HEADERS.remaining],
      reset: String(WINDOW_END_S),
    };
    const success = await fetch(`${baseUrl()}/trades/summary/me`, { headers: keyed });
    expect(success.status).toBe(200);
    expect(read(success.headers)).toEqual(expected);
    const refused = await fetch(`${baseUrl()}/trades/summary/me`);
    expect(refused.status).toBe(401);
    expect(read(refused.headers)).toEqual(expected);
  });

  it("makes the client wait until the reset before retrying a 429 (30 s, not 0 ms)", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const controller = new AbortController();
    const delays: number[] = [];
    const client = createClient({
      baseUrl: baseUrl(),
      apiKey: "k",
      hooks: {
        onRetry: (event) => {
          delays.push(event.delayMs);
          controller.abort(); // the wait itself is the client's; what it computed is what is checked
        },
      },
    });
    await client
      .GET("/trades/summary/me", { headers: { prefer: "code=429" }, signal: controller.signal })
      .catch(() => undefined);
    expect(delays).toEqual([WINDOW_END_S * 1000 - NOW]);
  });
}

describe("the HTTP mock", () => {
  let mock: StartedMock;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(() => mock?.stop());
  answersAtTheMoment(() => mock.baseUrl);
});

describe("the ./msw handlers", () => {
  const server = setupServer(...createHandlers());
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterAll(() => server.close());
  answersAtTheMoment(() => MOCK_BASE_URL);
});
