// Hooks are observers: whatever they throw, the call goes on as if they were not there. Each event carries the
// call's facts: request, response (with a duration), retry (reason, status, delay), rate limit and its wait.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient, type ClientHooks } from "../../src/index.js";
import { track, until, useFakeClock } from "./support/clock.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";
import { RATE_LIMIT_HEADERS, successExample } from "../support/spec.js";

let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

describe("hooks", () => {
  it("a hook that throws never breaks a call: every hook throws, the calls still succeed", async () => {
    const start = Date.UTC(2030, 0, 1, 0, 0, 0);
    useFakeClock(start);
    const reset = start / 1000 + 2;
    const rates = successExample("getFiatRates");
    // 1st request: 503 (a retry); 2nd: 200 saying the limit is spent until `reset` (the next call waits); 3rd: 200.
    server = await startServer((_req, res, _seen, i) =>
      i === 0
        ? sendJson(res, 503, {})
        : sendJson(
            res,
            200,
            rates,
            i === 1 ? { [RATE_LIMIT_HEADERS.remaining]: "0", [RATE_LIMIT_HEADERS.reset]: String(reset) } : {},
          ),
    );
    const called: string[] = [];
    const thrower = (name: keyof ClientHooks) => () => {
      called.push(name);
      throw new Error(`${name} failed`);
    };
    const hooks: Required<ClientHooks> = {
      onRequest: thrower("onRequest"),
      onResponse: thrower("onResponse"),
      onRetry: thrower("onRetry"),
      onRateLimit: thrower("onRateLimit"),
      onRateLimitWait: thrower("onRateLimitWait"),
    };
    const client = createClient({ baseUrl: server.baseUrl, retry: { baseDelayMs: 0 }, hooks });
    const first = await client.GET("/currencies/fiat-rates");
    expect(first.data).toEqual(rates);
    const second = track(client.GET("/currencies/fiat-rates"));
    await until(() => called.includes("onRateLimitWait"), "the rate-limit wait");
    await vi.advanceTimersByTimeAsync(2000);
    await until(() => second.settled, "the second call");
    expect(second.error).toBeUndefined();
    expect(second.value?.data).toEqual(rates);
    expect(new Set(called)).toEqual(new Set(Object.keys(hooks)));
    expect(server.requests).toHaveLength(3);
  });

  it("onResponse's durationMs is the time from sending to the answer's headers, on the clock", async () => {
    const waiting: Array<() => void> = [];
    server = await startServer((_req, res) => waiting.push(() => sendJson(res, 200, successExample("getFiatRates"))));
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"], now: Date.UTC(2030, 0, 1) });
    await vi.advanceTimersByTimeAsync(5000); // a clock that does not start at 0
    const durations: number[] = [];
    const client = createClient({
      baseUrl: server.baseUrl,
      hooks: { onResponse: (e) => durations.push(e.durationMs) },
    });
    const call = track(client.GET("/currencies/fiat-rates"));
    await until(() => waiting.length === 1, "the request");
    await vi.advanceTimersByTimeAsync(250);
    waiting[0]!();
    await until(() => call.settled, "the answer");
    expect(durations).toEqual([250]);
  });
});

describe("the events each hook gets", () => {
  const rates = () => successExample("getFiatRates");

  it("events carry the call's facts: request, response (duration), retry (reason, status, delay), limit", async () => {
    server = await startServer((_req, res, _seen, i) =>
      i === 0 ? sendJson(res, 503, {}, { "retry-after": "0" }) : sendJson(res, 200, rates()),
    );
    const events: Array<[string, unknown]> = [];
    const hooks: ClientHooks = {
      onRequest: (e) => events.push(["request", e]),
      onResponse: (e) => events.push(["response", e]),
      onRetry: (e) => events.push(["retry", e]),
      onRateLimit: (state, e) => events.push(["rateLimit", { state, status: e.status }]),
    };
    const api = createClient({ baseUrl: server.baseUrl, hooks });
    await api.GET("/currencies/fiat-rates");
    const facts = {
      method: "GET",
      path: "/currencies/fiat-rates",
      operationId: "getFiatRates",
      url: `${server.baseUrl}/currencies/fiat-rates`,
    };
    expect(events.map(([name]) => name)).toEqual([
      "request",
      "response",
      "rateLimit",
      "retry",
      "request",
      "response",
      "rateLimit",
    ]);
    expect(events[0]![1]).toEqual({ ...facts, attempt: 1 });
    const response = events[1]![1] as { durationMs: number };
    expect(response).toMatchObject({ ...facts, attempt: 1, status: 503 });
    expect(response.durationMs).toBeGreaterThanOrEqual(0);
    expect(events[2]![1]).toMatchObject({
      status: 503,
      state: { limit: expect.any(Number), remaining: expect.any(Number) },
    });
    expect(events[3]![1]).toEqual({ ...facts, attempt: 1, reason: "status", status: 503, delayMs: 0 });
    expect(events[4]![1]).toEqual({ ...facts, attempt: 2 });
  });

  it("a retry after a dropped connection: reason network; a wait for a spent limit: its delay and state", async () => {
    const start = Date.UTC(2030, 0, 1, 12, 0, 0);
    useFakeClock(start);
    const reset = start / 1000 + 1;
    server = await startServer((req, res, _seen, i) =>
      i === 0
        ? req.socket.destroy()
        : sendJson(
            res,
            200,
            rates(),
            i === 1 ? { [RATE_LIMIT_HEADERS.remaining]: "0", [RATE_LIMIT_HEADERS.reset]: String(reset) } : {},
          ),
    );
    const retries: unknown[] = [];
    const waits: Array<{ delayMs: number; attempt: number; rateLimit: { remaining: number | undefined } }> = [];
    const api = createClient({
      baseUrl: server.baseUrl,
      retry: { baseDelayMs: 0 },
      hooks: {
        onRetry: (e) => retries.push([e.reason, e.status, e.delayMs]),
        onRateLimitWait: (e) => waits.push(e as never),
      },
    });
    await api.GET("/currencies/fiat-rates");
    expect(retries).toEqual([["network", undefined, 0]]);
    const second = track(api.GET("/currencies/fiat-rates"));
    await until(() => waits.length === 1, "the wait for the reset");
    expect(waits[0]).toMatchObject({
      path: "/currencies/fiat-rates",
      attempt: 1,
      delayMs: 1000,
      rateLimit: { remaining: 0, reset },
    });
    await vi.advanceTimersByTimeAsync(1000);
    await until(() => second.settled, "the call after the wait");
    expect(server.requests.map((r) => r.at)).toEqual([start, start, reset * 1000]);
  });
});
