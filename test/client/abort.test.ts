// A caller's own AbortSignal ends the call with its own AbortError (the client guide's "Errors"), whatever the
// method, whether the call is retried, and wherever the attempt is: before sending, waiting for the headers, reading
// the body.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient } from "../../src/index.js";
import { track, until, useFakeClock } from "./support/clock.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";
import { RATE_LIMIT_HEADERS, successExample } from "../support/spec.js";

let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

type Phase = "before sending" | "waiting for the headers" | "while the body arrives";
const PHASES: Phase[] = ["before sending", "waiting for the headers", "while the body arrives"];

/** A server that never finishes: no answer at all, or the headers and the start of a body. */
async function stallingServer(phase: Phase): Promise<TestServer> {
  return startServer((_req, res) => {
    if (phase !== "while the body arrives") return;
    res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
    res.write('{"message":');
  });
}

/** Each way of calling: a POST (never retried), a GET without retries, and a GET that would be retried. */
const CALLS = {
  POST: (client: ReturnType<typeof createClient>, signal: AbortSignal) =>
    client.POST("/transactions/resendWebhooks", { body: { ids: ["t1"] }, signal }),
  "GET with retry: false": (client: ReturnType<typeof createClient>, signal: AbortSignal) =>
    client.GET("/currencies/fiat-rates", { signal, retry: false }),
  "GET with retries": (client: ReturnType<typeof createClient>, signal: AbortSignal) =>
    client.GET("/currencies/fiat-rates", { signal }),
};

describe("the caller's own AbortSignal", () => {
  for (const [name, send] of Object.entries(CALLS)) {
    for (const phase of PHASES) {
      it(`rejects a ${name} with its own AbortError ${phase}`, async () => {
        server = await stallingServer(phase);
        const controller = new AbortController();
        let headers = 0;
        const client = createClient({ baseUrl: server.baseUrl, hooks: { onResponse: () => headers++ } });
        if (phase === "before sending") controller.abort();
        const call = send(client, controller.signal).then(
          () => "resolved",
          (error: unknown) => error,
        );
        if (phase === "waiting for the headers")
          await until(() => server!.requests.length === 1, "the request to arrive");
        if (phase === "while the body arrives") await until(() => headers === 1, "the headers to arrive");
        if (!controller.signal.aborted) controller.abort();
        const error = await call;
        expect(error).toBe(controller.signal.reason);
        expect((error as Error).name).toBe("AbortError");
        expect(server.requests).toHaveLength(phase === "before sending" ? 0 : 1);
      });
    }
  }

  // On a fake clock that never moves: the call ends only if the abort ends the wait itself.
  it("rejects a GET with its own AbortError while it waits to retry, without waiting on", async () => {
    server = await startServer((_req, res) => sendJson(res, 503, {}));
    useFakeClock();
    vi.spyOn(Math, "random").mockReturnValue(0.5); // a backoff of 30 s
    const controller = new AbortController();
    const retry = { baseDelayMs: 60_000, maxDelayMs: 60_000 };
    const client = createClient({ baseUrl: server.baseUrl, retry, hooks: { onRetry: () => controller.abort() } });
    const call = track(client.GET("/currencies/fiat-rates", { signal: controller.signal }));
    await until(() => call.settled, "the call to end");
    expect(call.error).toBe(controller.signal.reason);
    expect(server.requests).toHaveLength(1);
  });

  it("rejects with its own AbortError while it waits for the rate limit's reset, without waiting on", async () => {
    const spent = {
      [RATE_LIMIT_HEADERS.remaining]: "0",
      [RATE_LIMIT_HEADERS.reset]: String(Math.ceil(Date.now() / 1000) + 30),
    };
    server = await startServer((_req, res) => sendJson(res, 200, successExample("resendWebhooks"), spent));
    const controller = new AbortController();
    const client = createClient({ baseUrl: server.baseUrl, hooks: { onRateLimitWait: () => controller.abort() } });
    await client.POST("/transactions/resendWebhooks", { body: { ids: ["t1"] } });
    useFakeClock();
    const call = track(
      client.POST("/transactions/resendWebhooks", { body: { ids: ["t2"] }, signal: controller.signal }),
    );
    await until(() => call.settled, "the call to end");
    expect(call.error).toBe(controller.signal.reason);
    expect(server.requests).toHaveLength(1);
  });
});
