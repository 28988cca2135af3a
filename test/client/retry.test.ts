// The retry matrix against real node:http servers. Time is a fake clock's (waits are what the client asked for, read
// from its hooks and from when requests arrived); `noWait` backs off 0 ms where a test is not about the wait.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ApiError,
  createClient,
  DEFAULT_RETRY,
  NetworkError,
  TimeoutError,
  unwrap,
  type RetryEvent,
} from "../../src/index.js";
import { backoffDelay } from "../../src/client/retry.js";
import { track, until, useFakeClock } from "./support/clock.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";
import { RATE_LIMIT_HEADERS, operationIdOf, successExample } from "../support/spec.js";

let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

/** Backoff of 0 ms: retries without waiting, for the tests about whether a call is retried. */
const noWait = { baseDelayMs: 0 };
/** A whole second of the fake clock, so that X-RateLimit-Reset (whole seconds) is exactly 1 s away. */
const START = Date.UTC(2030, 0, 1, 12, 0, 0);
/** The delays the client asked for before each retry and before sending once the limit was spent. */
function delaysSeen() {
  const retries: RetryEvent[] = [];
  const rateLimitWaits: number[] = [];
  const hooks = {
    onRetry: (e: RetryEvent) => retries.push(e),
    onRateLimitWait: (e: { delayMs: number }) => rateLimitWaits.push(e.delayMs),
  };
  return { retries, rateLimitWaits, hooks };
}
const quoteBody = { sourceId: "USDT", targetId: "NGNX", amount: 10, side: "SELL" as const };

describe("defaults", () => {
  it("retry GET only, twice, on 429/502/503/504", () => {
    expect(DEFAULT_RETRY).toMatchObject({ retries: 2, methods: ["GET"], statuses: [429, 502, 503, 504] });
    expect(Object.isFrozen(DEFAULT_RETRY.methods) && Object.isFrozen(DEFAULT_RETRY.statuses)).toBe(true);
  });
});

describe("GET", () => {
  it("is retried on 503 and then succeeds", async () => {
    const rates = successExample("getFiatRates");
    server = await startServer((_req, res, _seen, i) =>
      i === 0 ? sendJson(res, 503, { error: "busy" }) : sendJson(res, 200, rates),
    );
    const retries: RetryEvent[] = [];
    const client = createClient({ baseUrl: server.baseUrl, retry: noWait, hooks: { onRetry: (e) => retries.push(e) } });
    const { data, error } = await client.GET("/currencies/fiat-rates");
    expect(error).toBeUndefined();
    expect(data).toEqual(rates);
    expect(server.requests).toHaveLength(2);
    expect(retries).toEqual([
      expect.objectContaining({
        reason: "status",
        status: 503,
        attempt: 1,
        operationId: operationIdOf("GET", "/currencies/fiat-rates"),
      }),
    ]);
  });

  for (const status of [429, 502, 504]) {
    it(`is retried on ${status}`, async () => {
      server = await startServer((_req, res, _seen, i) =>
        i === 0
          ? sendJson(res, status, {}, status === 429 ? { [RATE_LIMIT_HEADERS.reset]: "0" } : {})
          : sendJson(res, 200, successExample("getFiatRates")),
      );
      const client = createClient({ baseUrl: server.baseUrl, retry: noWait });
      const { response } = await client.GET("/currencies/fiat-rates");
      expect(response.status).toBe(200);
      expect(server.requests).toHaveLength(2);
    });
  }

  it("is not retried on other statuses (500, 400)", async () => {
    for (const status of [500, 400]) {
      server = await startServer((_req, res) => sendJson(res, status, { error: "no" }));
      const client = createClient({ baseUrl: server.baseUrl, retry: noWait });
      const { error, response } = await client.GET("/currencies/fiat-rates");
      expect(response.status).toBe(status);
      expect(error).toEqual({ error: "no" });
      expect(server.requests).toHaveLength(1);
      await server.close();
      server = undefined;
    }
  });

  it("gives up after 2 retries with the last response", async () => {
    server = await startServer((_req, res, _seen, i) => sendJson(res, 503, { attempt: i + 1 }));
    const client = createClient({ baseUrl: server.baseUrl, retry: noWait });
    const { error, response } = await client.GET("/currencies/fiat-rates");
    expect(server.requests).toHaveLength(3);
    expect(response.status).toBe(503);
    expect(error).toEqual({ attempt: 3 });
    const thrown = await unwrap(client.GET("/currencies/fiat-rates")).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).body).toEqual({ attempt: 6 });
  });

  it("closes the connection of a retried answer instead of leaving its body unread", async () => {
    let firstClosed = false;
    server = await startServer((_req, res, _seen, i) => {
      if (i > 0) return sendJson(res, 200, successExample("getFiatRates"));
      res.on("close", () => {
        firstClosed = true;
      });
      res.writeHead(503, { "content-type": "application/json" });
      res.write('{"message":'); // a body that never ends
    });
    const client = createClient({ baseUrl: server.baseUrl, retry: noWait });
    const { response } = await client.GET("/currencies/fiat-rates");
    expect(response.status).toBe(200);
    await until(() => firstClosed, "the retried answer's connection to close");
  });

  it("gives up after the cap on network errors with NetworkError", async () => {
    server = await startServer((req) => req.socket.destroy());
    const client = createClient({ baseUrl: server.baseUrl, retry: { ...noWait, retries: 1 } });
    const error = await client.GET("/currencies/fiat-rates").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  it("is retried after a timeout", async () => {
    server = await startServer((_req, res, _seen, i) =>
      i === 0 ? undefined : sendJson(res, 200, successExample("getFiatRates")),
    );
    useFakeClock();
    const { retries, hooks } = delaysSeen();
    const client = createClient({ baseUrl: server.baseUrl, timeoutMs: 100, retry: noWait, hooks });
    const call = track(client.GET("/currencies/fiat-rates"));
    await until(() => server!.requests.length === 1, "the first request");
    await vi.advanceTimersByTimeAsync(100);
    await until(() => call.settled, "the retried call");
    expect(call.value?.response.status).toBe(200);
    expect(server.requests).toHaveLength(2);
    expect(retries).toEqual([expect.objectContaining({ attempt: 1, reason: "timeout" })]);
  });

  it("honours retry: false per request and at client level", async () => {
    server = await startServer((_req, res) => sendJson(res, 503, {}));
    await createClient({ baseUrl: server.baseUrl, retry: noWait }).GET("/currencies/fiat-rates", { retry: false });
    await createClient({ baseUrl: server.baseUrl, retry: false }).GET("/currencies/fiat-rates");
    expect(server.requests).toHaveLength(2);
  });
});

describe("POST is never retried by default", () => {
  it("not on 503", async () => {
    server = await startServer((_req, res) => sendJson(res, 503, {}));
    const client = createClient({ baseUrl: server.baseUrl, retry: noWait });
    const { response } = await client.POST("/trades/quote", { body: quoteBody });
    expect(response.status).toBe(503);
    expect(server.requests).toHaveLength(1);
  });

  it("not on 429", async () => {
    server = await startServer((_req, res) =>
      sendJson(res, 429, {}, { [RATE_LIMIT_HEADERS.remaining]: "0", [RATE_LIMIT_HEADERS.reset]: "0" }),
    );
    const client = createClient({ baseUrl: server.baseUrl, retry: noWait });
    const { response } = await client.POST("/trades/quote/{quoteId}", {
      params: { path: { quoteId: "q1" } },
      body: {},
    });
    expect(response.status).toBe(429);
    expect(server.requests).toHaveLength(1);
  });

  it("not on timeout", async () => {
    server = await startServer(() => {});
    useFakeClock();
    const client = createClient({ baseUrl: server.baseUrl, timeoutMs: 100, retry: noWait });
    const call = track(client.POST("/trades/quote", { body: quoteBody }));
    await until(() => server!.requests.length === 1, "the request");
    await vi.advanceTimersByTimeAsync(100);
    await until(() => call.settled, "the call to time out");
    expect(call.error).toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(1);
  });

  it("not on a reset connection", async () => {
    server = await startServer((req) => req.socket.destroy());
    const client = createClient({ baseUrl: server.baseUrl, retry: noWait });
    const error = await client.POST("/transactions/resendWebhooks", { body: { ids: ["t1"] } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it("unless the request opts in, and then the same body is sent again", async () => {
    server = await startServer((_req, res, _seen, i) =>
      i < 2 ? sendJson(res, 503, {}) : sendJson(res, 200, successExample("createQuote")),
    );
    const client = createClient({ baseUrl: server.baseUrl, retry: noWait });
    const { data } = await client.POST("/trades/quote", { body: quoteBody, retry: true });
    expect(data).toEqual(successExample("createQuote"));
    expect(server.requests.map((r) => r.body)).toEqual(Array(3).fill(JSON.stringify(quoteBody)));
    expect(server.requests.every((r) => r.method === "POST")).toBe(true);
  });
});

describe("rate-limit waits", () => {
  const spentUntil = (reset: number) => ({
    [RATE_LIMIT_HEADERS.remaining]: "0",
    [RATE_LIMIT_HEADERS.reset]: String(reset),
  });

  it("429 waits until X-RateLimit-Reset before retrying", async () => {
    useFakeClock(START);
    const reset = START / 1000 + 1;
    server = await startServer((_req, res, _seen, i) =>
      i === 0 ? sendJson(res, 429, {}, spentUntil(reset)) : sendJson(res, 200, successExample("getFiatRates")),
    );
    const { retries, hooks } = delaysSeen();
    const client = createClient({ baseUrl: server.baseUrl, retry: noWait, hooks });
    const call = track(client.GET("/currencies/fiat-rates"));
    await until(() => retries.length === 1, "the retry to be planned");
    expect(retries[0]).toMatchObject({ reason: "status", status: 429, delayMs: 1000 });
    await vi.advanceTimersByTimeAsync(999);
    expect(server.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => call.settled, "the retried call");
    expect(call.value?.response.status).toBe(200);
    expect(server.requests.map((r) => r.at)).toEqual([START, reset * 1000]);
  });

  it("429 whose reset is beyond maxRateLimitWaitMs is returned at once, not waited for", async () => {
    useFakeClock(START);
    const reset = START / 1000 + 3600;
    server = await startServer((_req, res) => sendJson(res, 429, { error: "quota" }, spentUntil(reset)));
    const { retries, hooks } = delaysSeen();
    const client = createClient({ baseUrl: server.baseUrl, retry: noWait, hooks });
    // The clock never moves: the call can end only without waiting.
    const call = track(unwrap(client.GET("/currencies/fiat-rates")));
    await until(() => call.settled, "the 429 to be returned");
    expect(server.requests).toHaveLength(1);
    expect(retries).toEqual([]);
    expect(call.error).toBeInstanceOf(ApiError);
    expect((call.error as ApiError).rateLimit).toMatchObject({ remaining: 0, reset });
  });

  it("Retry-After on 503 is honoured", async () => {
    useFakeClock(START);
    server = await startServer((_req, res, _seen, i) =>
      i === 0 ? sendJson(res, 503, {}, { "retry-after": "1" }) : sendJson(res, 200, successExample("getFiatRates")),
    );
    const { retries, hooks } = delaysSeen();
    const client = createClient({ baseUrl: server.baseUrl, retry: noWait, hooks });
    const call = track(client.GET("/currencies/fiat-rates"));
    await until(() => retries.length === 1, "the retry to be planned");
    expect(retries[0]).toMatchObject({ status: 503, delayMs: 1000 });
    await vi.advanceTimersByTimeAsync(999);
    expect(server.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => call.settled, "the retried call");
    expect(server.requests.map((r) => r.at)).toEqual([START, START + 1000]);
  });

  it("after Remaining: 0 the next request waits until the reset (POST included, no retry involved)", async () => {
    useFakeClock(START);
    const reset = START / 1000 + 1;
    server = await startServer((_req, res, _seen, i) =>
      sendJson(res, 200, successExample("createQuote"), i === 0 ? spentUntil(reset) : {}),
    );
    const { retries, rateLimitWaits, hooks } = delaysSeen();
    const client = createClient({ baseUrl: server.baseUrl, retry: noWait, hooks });
    await client.POST("/trades/quote", { body: quoteBody });
    expect(client.rateLimit).toMatchObject({ remaining: 0, reset });
    const second = track(client.POST("/trades/quote", { body: quoteBody }));
    await until(() => rateLimitWaits.length === 1, "the wait to be planned");
    expect(rateLimitWaits).toEqual([1000]);
    await vi.advanceTimersByTimeAsync(999);
    expect(server.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => second.settled, "the second call");
    expect(server.requests.map((r) => r.at)).toEqual([START, reset * 1000]);
    expect(retries).toEqual([]);
  });
});

describe("backoff", () => {
  it("is exponential with full jitter and capped", () => {
    const options = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, options, () => 0.999999))).toEqual([
      99, 199, 399, 799, 999, 999,
    ]);
    expect(backoffDelay(3, options, () => 0)).toBe(0);
    const samples = Array.from({ length: 200 }, () => backoffDelay(2, options));
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...samples)).toBeLessThan(200);
    expect(new Set(samples).size).toBeGreaterThan(10);
  });

  it("rejects invalid retry options", () => {
    expect(() => createClient({ baseUrl: "http://127.0.0.1:1/v1", retry: { retries: -1 } })).toThrow(
      /retry.retries must be an integer from 0 to 10/,
    );
  });
});
