// The response body is read inside the attempt: a reset or a timeout while it arrives is handled like one before
// the headers (NetworkError / TimeoutError, retried for GET), and the timeout covers a streamed body too.
import { spawn } from "node:child_process";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClient, NetworkError, TimeoutError } from "../../src/index.js";
import { bundleClient, type BundledClient } from "./support/bundle.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";
import { successExample } from "../support/spec.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const rates = successExample("getFiatRates");
const ratesText = JSON.stringify(rates);
const fast = { baseDelayMs: 1, maxDelayMs: 5 };

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
    const client = createClient({ baseUrl: server.baseUrl, retry: fast });
    const { data } = await client.GET("/currencies/fiat-rates");
    expect(data).toEqual(rates);
    expect(server.requests).toHaveLength(2);
  });

  it("is not retried for a POST", async () => {
    server = await startServer((_req, res) => halfBody(res, "reset"));
    const client = createClient({ baseUrl: server.baseUrl, retry: fast });
    await expect(client.POST("/transactions/resendWebhooks", { body: { ids: ["t1"] } })).rejects.toBeInstanceOf(NetworkError);
    expect(server.requests).toHaveLength(1);
  });
});

describe("a timeout while the body arrives", () => {
  it("is retried for a GET like a timeout before the headers", async () => {
    server = await startServer((_req, res, _seen, i) => (i === 0 ? halfBody(res, "stall") : sendJson(res, 200, rates)));
    const retries: string[] = [];
    const client = createClient({ baseUrl: server.baseUrl, timeoutMs: 150, retry: fast, hooks: { onRetry: (e) => retries.push(e.reason) } });
    const { data } = await client.GET("/currencies/fiat-rates");
    expect(data).toEqual(rates);
    expect(server.requests).toHaveLength(2);
    expect(retries).toEqual(["timeout"]);
  });

  it("gives TimeoutError with the attempts made once the retries are spent", async () => {
    server = await startServer((_req, res) => halfBody(res, "stall"));
    const client = createClient({ baseUrl: server.baseUrl, timeoutMs: 100, retry: { ...fast, retries: 1 } });
    const error = await client.GET("/currencies/fiat-rates", { parseAs: "text" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeoutMs: 100, attempts: 2 });
    expect(server.requests).toHaveLength(2);
  });
});

describe('parseAs: "stream"', () => {
  it("keeps the timeout armed while the caller reads: the stream errors with TimeoutError when it fires", async () => {
    server = await startServer((_req, res) => halfBody(res, "stall"));
    const client = createClient({ baseUrl: server.baseUrl, timeoutMs: 200, retry: false });
    const { data, response } = await client.GET("/currencies/fiat-rates", { parseAs: "stream" });
    expect(response.status).toBe(200);
    const started = performance.now();
    const read = new Response(data).text();
    // Without the timeout the read would hang; the guard turns that into a failure instead of a stuck test.
    const outcome = await Promise.race([
      read.then(
        () => "finished",
        (e: unknown) => e,
      ),
      new Promise((r) => setTimeout(() => r("still reading"), 3000)),
    ]);
    expect(outcome).toBeInstanceOf(TimeoutError);
    expect((outcome as TimeoutError).timeoutMs).toBe(200);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("reads a whole stream that arrives in time", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, rates));
    const client = createClient({ baseUrl: server.baseUrl, timeoutMs: 500 });
    const { data } = await client.GET("/currencies/fiat-rates", { parseAs: "stream" });
    expect(JSON.parse(await new Response(data).text())).toEqual(rates);
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
      // A 60 s timeout: a ref'd timer would keep this process alive for a minute after the stream was read.
      const script = `
        const { createClient } = await import(${JSON.stringify(bundled.esmFile)});
        const client = createClient({ baseUrl: process.env.BASE_URL, timeoutMs: 60000 });
        const { data } = await client.GET("/currencies/fiat-rates", { parseAs: "stream" });
        console.log((await new Response(data).text()).length);
      `;
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
        env: { ...process.env, BASE_URL: server.baseUrl },
        stdio: ["ignore", "pipe", "inherit"],
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk;
      });
      const started = performance.now();
      const code = await new Promise<number | string>((resolve) => {
        const guard = setTimeout(() => {
          child.kill();
          resolve("still running after 10 s");
        }, 10_000);
        child.on("exit", (exitCode) => {
          clearTimeout(guard);
          resolve(exitCode ?? -1);
        });
      });
      expect(code).toBe(0);
      expect(output.trim()).toBe(String(ratesText.length));
      expect(performance.now() - started).toBeLessThan(10_000);
    });
  });
});
