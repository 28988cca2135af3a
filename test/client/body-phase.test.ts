// The response body is read inside the attempt: a reset or a timeout while it arrives is handled like one before
// the headers (NetworkError / TimeoutError, retried for GET), and the timeout covers a streamed body too. Timeouts
// run on the fake clock.
import { spawn } from "node:child_process";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createClient, NetworkError, TimeoutError } from "../../src/index.js";
import { bundleClient, type BundledClient } from "./support/bundle.js";
import { track, until, useFakeClock } from "./support/clock.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";
import { successExample } from "../support/spec.js";

let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

const rates = successExample("getFiatRates");
const ratesText = JSON.stringify(rates);
const noWait = { baseDelayMs: 0 };

/** Headers and the first half of the body, then `then` (a reset, or nothing: the body never finishes). */
function halfBody(res: import("node:http").ServerResponse, then: "reset" | "stall"): void {
  res.writeHead(200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(ratesText)) });
  res.write(ratesText.slice(0, ratesText.length >> 1), () => {
    if (then === "reset") setImmediate(() => res.socket?.destroy());
  });
}

describe("a connection reset in the middle of the body", () => {
  it("is a NetworkError (not a raw TypeError), for every way of reading the body", async () => {
    server = await startServer((_req, res) => halfBody(res, "reset"));
    const client = createClient({ baseUrl: server.baseUrl, retry: false });
    for (const parseAs of [undefined, "json", "text", "arrayBuffer", "blob"] as const) {
      const error = await client.GET("/currencies/fiat-rates", parseAs ? { parseAs } : {}).catch((e: unknown) => e);
      expect(error, String(parseAs)).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).attempts).toBe(1);
    }
  });

  it("is retried for a GET like any network error", async () => {
    server = await startServer((_req, res, _seen, i) => (i === 0 ? halfBody(res, "reset") : sendJson(res, 200, rates)));
    const client = createClient({ baseUrl: server.baseUrl, retry: noWait });
    const { data } = await client.GET("/currencies/fiat-rates");
    expect(data).toEqual(rates);
    expect(server.requests).toHaveLength(2);
  });

  it("is not retried for a POST", async () => {
    server = await startServer((_req, res) => halfBody(res, "reset"));
    const client = createClient({ baseUrl: server.baseUrl, retry: noWait });
    await expect(client.POST("/transactions/resendWebhooks", { body: { ids: ["t1"] } })).rejects.toBeInstanceOf(
      NetworkError,
    );
    expect(server.requests).toHaveLength(1);
  });
});

describe("a timeout while the body arrives", () => {
  it("is retried for a GET like a timeout before the headers", async () => {
    server = await startServer((_req, res, _seen, i) => (i === 0 ? halfBody(res, "stall") : sendJson(res, 200, rates)));
    useFakeClock();
    const retries: string[] = [];
    const client = createClient({
      baseUrl: server.baseUrl,
      timeoutMs: 150,
      retry: noWait,
      hooks: { onRetry: (e) => retries.push(e.reason) },
    });
    const call = track(client.GET("/currencies/fiat-rates"));
    await until(() => server!.requests.length === 1, "the first request");
    await vi.advanceTimersByTimeAsync(150);
    await until(() => call.settled, "the retried call");
    expect(call.value?.data).toEqual(rates);
    expect(server.requests).toHaveLength(2);
    expect(retries).toEqual(["timeout"]);
  });

  it("gives TimeoutError with the attempts made once the retries are spent", async () => {
    server = await startServer((_req, res) => halfBody(res, "stall"));
    useFakeClock();
    const client = createClient({ baseUrl: server.baseUrl, timeoutMs: 100, retry: { ...noWait, retries: 1 } });
    const call = track(client.GET("/currencies/fiat-rates", { parseAs: "text" }));
    for (const attempt of [1, 2]) {
      await until(() => server!.requests.length === attempt, `attempt ${attempt}`);
      await vi.advanceTimersByTimeAsync(100);
    }
    await until(() => call.settled, "the call to time out");
    expect(call.error).toBeInstanceOf(TimeoutError);
    expect(call.error).toMatchObject({ timeoutMs: 100, attempts: 2 });
    expect(server.requests).toHaveLength(2);
  });
});

describe('parseAs: "stream"', () => {
  it("keeps the timeout armed while the caller reads: the stream errors with TimeoutError when it fires", async () => {
    server = await startServer((_req, res) => halfBody(res, "stall"));
    useFakeClock();
    const client = createClient({ baseUrl: server.baseUrl, timeoutMs: 200, retry: false });
    const { data, response } = await client.GET("/currencies/fiat-rates", { parseAs: "stream" });
    expect(response.status).toBe(200);
    const read = track(new Response(data).text());
    await vi.advanceTimersByTimeAsync(199);
    expect(read.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => read.settled, "the read to fail");
    expect(read.error).toBeInstanceOf(TimeoutError);
    expect((read.error as TimeoutError).timeoutMs).toBe(200);
  });

  it("reads a whole stream that arrives in time", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, rates));
    const client = createClient({ baseUrl: server.baseUrl, timeoutMs: 500 });
    const { data } = await client.GET("/currencies/fiat-rates", { parseAs: "stream" });
    expect(JSON.parse(await new Response(data).text())).toEqual(rates);
  });

  it("reads a whole stream with no timeout (timeoutMs: Infinity), and where timers are numbers", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, rates));
    const client = createClient({ baseUrl: server.baseUrl });
    const untimed = await client.GET("/currencies/fiat-rates", {
      parseAs: "stream",
      timeoutMs: Number.POSITIVE_INFINITY,
    });
    expect(JSON.parse(await new Response(untimed.data).text())).toEqual(rates);
    // Only the client's timer is a number here: a fetch of its own, so that Node's own code never sees the stub.
    const local = createClient({ baseUrl: server.baseUrl, fetch: async () => Response.json(rates) });
    const nodeSetTimeout = globalThis.setTimeout;
    vi.stubGlobal("setTimeout", (run: () => void, ms: number) => Number(nodeSetTimeout(run, ms)));
    try {
      const timed = await local.GET("/currencies/fiat-rates", { parseAs: "stream" });
      expect(JSON.parse(await new Response(timed.data).text())).toEqual(rates);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  describe("in a process of its own", () => {
    let bundled: BundledClient;
    beforeAll(async () => {
      bundled = await bundleClient();
    });
    afterAll(async () => {
      await bundled?.remove();
    });

    it("never keeps the process alive: the armed timer is unref'd", async () => {
      server = await startServer((_req, res) => sendJson(res, 200, rates));
      // A 60 s timeout: a ref'd timer would keep this process alive for a minute after the stream was read. What
      // keeps a process alive is what getActiveResourcesInfo() lists; an unref'd timer is not in it.
      const script = `
        const { createClient } = await import(${JSON.stringify(bundled.esmFile)});
        const client = createClient({ baseUrl: process.env.BASE_URL, timeoutMs: 60000 });
        const { data } = await client.GET("/currencies/fiat-rates", { parseAs: "stream" });
        const length = (await new Response(data).text()).length;
        const timers = process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;
        console.log(JSON.stringify({ length, timers }));
      `;
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
        env: { ...process.env, BASE_URL: server.baseUrl },
        stdio: ["ignore", "pipe", "inherit"],
      });
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      try {
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk;
        });
        await until(() => output.includes("\n") || child.exitCode !== null, "the child's report", 30_000);
        expect(JSON.parse(output)).toEqual({ length: ratesText.length, timers: 0 });
        expect(await exited).toBe(0);
      } finally {
        child.kill();
      }
    });
  });
});
