// The rate-limit state: read from the X-RateLimit-* headers of each response (any one usable header makes a
// state), kept when a response carries none, and the wait before sending once it says nothing remains.
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseIntegerHeader, readRateLimit } from "../../src/client/rate-limit.js";
import { DEFAULT_RETRY, rateLimitWait } from "../../src/client/retry.js";
import { createClient } from "../../src/index.js";
import { RATE_LIMIT_HEADERS, successExample } from "../support/spec.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";

let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

describe("the rate-limit state", () => {
  const rates = () => successExample("getFiatRates");

  it("keeps the last rate-limit state when a response carries none", async () => {
    server = await startServer((_req, res, _seen, i) => {
      if (i === 0) return sendJson(res, 200, rates());
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(rates()));
    });
    const api = createClient({ baseUrl: server.baseUrl });
    await api.GET("/currencies/fiat-rates");
    const first = api.rateLimit;
    expect(first?.limit).toEqual(expect.any(Number));
    await api.GET("/currencies/fiat-rates");
    expect(api.rateLimit).toBe(first);
  });

  it("readRateLimit: any one usable header is a state; rateLimitWait waits exactly the longest allowed wait", () => {
    expect(readRateLimit(new Headers({ [RATE_LIMIT_HEADERS.reset]: " 5 " }), 1)).toEqual({
      limit: undefined,
      remaining: undefined,
      reset: 5,
      observedAt: 1,
    });
    expect(readRateLimit(new Headers({ [RATE_LIMIT_HEADERS.remaining]: "0" }), 1)).toEqual({
      limit: undefined,
      remaining: 0,
      reset: undefined,
      observedAt: 1,
    });
    expect(readRateLimit(new Headers({ [RATE_LIMIT_HEADERS.limit]: "x" }), 1)).toBeUndefined();
    const state = { limit: 1, remaining: 0, reset: 101, observedAt: 0 };
    expect(rateLimitWait(state, { ...DEFAULT_RETRY, maxRateLimitWaitMs: 1000 }, 100_000)).toBe(1000);
    expect(rateLimitWait(state, { ...DEFAULT_RETRY, maxRateLimitWaitMs: 999 }, 100_000)).toBe(0);
  });

  it("parseIntegerHeader trims; readRateLimit keeps a state that has only a limit", () => {
    expect(parseIntegerHeader(" 5 ")).toBe(5);
    expect(readRateLimit(new Headers({ [RATE_LIMIT_HEADERS.limit]: "7" }), 1)).toEqual({
      limit: 7,
      remaining: undefined,
      reset: undefined,
      observedAt: 1,
    });
  });
});
