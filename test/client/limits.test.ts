// Bounds on what a caller or a server can make the client do: timeouts setTimeout can hold, a bounded number of
// retries, and a bounded response body (maxResponseBytes; a body of exactly the limit is read, declared or counted).
import type { ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ClientError, createClient, InvalidResponseError, MOCK_BASE_URL } from "../../src/index.js";
import { track, until, useFakeClock } from "./support/clock.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";
import { successExample } from "../support/spec.js";

let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

const MAX_TIMER_MS = 2 ** 31 - 1;

describe("timeoutMs", () => {
  it("above 2,147,483,647 ms (what setTimeout can hold) is refused at createClient and per call", async () => {
    for (const timeoutMs of [MAX_TIMER_MS + 1, 1e12, Number.MAX_VALUE]) {
      expect(() => createClient({ baseUrl: MOCK_BASE_URL, timeoutMs }), String(timeoutMs)).toThrow(TypeError);
      expect(() => createClient({ baseUrl: MOCK_BASE_URL, timeoutMs }), String(timeoutMs)).toThrow(
        /timeoutMs .*2147483647/,
      );
      const client = createClient({ baseUrl: MOCK_BASE_URL });
      await expect(client.GET("/currencies/fiat-rates", { timeoutMs }), String(timeoutMs)).rejects.toThrow(
        /timeoutMs .*2147483647/,
      );
    }
  });

  // A timer over 2^31 − 1 ms fires after 1 ms (the fake clock does the same): a call cut short would fail while the
  // clock moves a minute on (less than undici's own 300 s wait for headers), before its answer is let through.
  it("accepts 2,147,483,647 and Infinity, and a call with either is not cut short", async () => {
    const waiting: ServerResponse[] = [];
    server = await startServer((_req, res) => waiting.push(res));
    useFakeClock();
    for (const timeoutMs of [MAX_TIMER_MS, Number.POSITIVE_INFINITY]) {
      const calls = [
        createClient({ baseUrl: server.baseUrl, timeoutMs }).GET("/currencies/fiat-rates"),
        createClient({ baseUrl: server.baseUrl }).GET("/currencies/fiat-rates", { timeoutMs }),
      ].map(track);
      await until(() => waiting.length === 2, "both requests to arrive");
      await vi.advanceTimersByTimeAsync(60_000);
      expect(calls.map((call) => call.settled)).toEqual([false, false]);
      for (const res of waiting.splice(0)) sendJson(res, 200, successExample("getFiatRates"));
      await until(() => calls.every((call) => call.settled), "both calls to end");
      expect(calls.map((call) => call.value?.response.status)).toEqual([200, 200]);
    }
  });
});

describe("retries", () => {
  it("must be an integer from 0 to 10, at createClient and per call", async () => {
    for (const retries of [11, 1000, 1.5, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createClient({ baseUrl: MOCK_BASE_URL, retry: { retries } }), String(retries)).toThrow(
        /retry\.retries must be an integer from 0 to 10/,
      );
      const client = createClient({ baseUrl: MOCK_BASE_URL });
      await expect(client.GET("/currencies/fiat-rates", { retry: { retries } }), String(retries)).rejects.toThrow(
        TypeError,
      );
    }
    for (const retries of [0, 10])
      expect(() => createClient({ baseUrl: MOCK_BASE_URL, retry: { retries } })).not.toThrow();
  });
});

describe("maxResponseBytes", () => {
  const big = (bytes: number) => JSON.stringify({ message: "x".repeat(bytes) });

  it("refuses invalid values at createClient and per call", async () => {
    for (const maxResponseBytes of [0, -1, 1.5, Number.NaN, "1MB" as unknown as number]) {
      expect(() => createClient({ baseUrl: MOCK_BASE_URL, maxResponseBytes }), String(maxResponseBytes)).toThrow(
        /maxResponseBytes must be/,
      );
      await expect(
        createClient({ baseUrl: MOCK_BASE_URL }).GET("/currencies/fiat-rates", { maxResponseBytes }),
      ).rejects.toThrow(TypeError);
    }
    expect(() => createClient({ baseUrl: MOCK_BASE_URL, maxResponseBytes: Number.POSITIVE_INFINITY })).not.toThrow();
  });

  it("defaults to 16 MiB: a declared 50 MB body is refused by Content-Length, unread, connection closed", async () => {
    let written = 0;
    let closed = false;
    server = await startServer((_req, res) => {
      res.on("close", () => {
        closed = true;
      });
      res.writeHead(200, { "content-type": "application/json", "content-length": String(50_000_000) });
      // Only a first chunk is ever written: reading the body whole would wait for the rest.
      res.write(`{"message":"${"x".repeat(1000)}`, () => {
        written = 1000;
      });
    });
    const client = createClient({ baseUrl: server.baseUrl, timeoutMs: 10_000 });
    const error = await client.GET("/currencies/fiat-rates").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ reason: "too-large", status: 200 });
    expect((error as Error).message).toMatch(/16777216 bytes/);
    expect(written).toBeLessThanOrEqual(1000);
    expect(server.requests).toHaveLength(1); // not retried, though a GET
    await until(() => closed, "the refused answer's connection to close");
  });

  // fetch decodes a content coding, so a compressed body's Content-Length says nothing of what is read: a small
  // gzip of a large body is counted as it decodes, not read whole on the strength of its length.
  it("counts a compressed body as it decodes: a 1 KB gzip of 200 KB is refused over a 64 KB limit", async () => {
    const decoded = big(200_000);
    const compressed = gzipSync(decoded);
    server = await startServer((_req, res) => {
      res.writeHead(200, {
        "content-type": "application/json",
        "content-encoding": "gzip",
        "content-length": String(compressed.length),
      });
      res.end(compressed);
    });
    expect(compressed.length).toBeLessThan(64 * 1024);
    const client = createClient({ baseUrl: server.baseUrl, maxResponseBytes: 64 * 1024 });
    const error = await client.GET("/currencies/fiat-rates").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ reason: "too-large", status: 200 });
    const roomy = createClient({ baseUrl: server.baseUrl, maxResponseBytes: 256 * 1024 });
    expect((await roomy.GET("/currencies/fiat-rates")).data).toEqual(JSON.parse(decoded));
  });

  it("counts a body without Content-Length while it arrives, and stops reading at the limit", async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }); // chunked: no Content-Length
      // 1 MiB, then a body that never ends: without a timeout, only counting while reading can end this call.
      res.write(`{"message":"${"x".repeat(2 ** 20)}`);
    });
    const client = createClient({
      baseUrl: server.baseUrl,
      timeoutMs: Number.POSITIVE_INFINITY,
      maxResponseBytes: 64 * 1024,
    });
    const call = track(client.GET("/currencies/fiat-rates"));
    await until(() => call.settled, "the call to be refused while the body arrives");
    expect(call.error).toMatchObject({ name: "InvalidResponseError", reason: "too-large" });
    expect((call.error as Error).message).toMatch(/65536 bytes/);
    expect(server.requests).toHaveLength(1);
  });

  it("cancels a body it stops reading: a custom fetch's endless stream is told to stop", async () => {
    let cancelled: unknown = "not cancelled";
    const endless = () =>
      new Response(
        new ReadableStream({
          pull: (controller) => controller.enqueue(new Uint8Array(4096)),
          cancel: (reason) => {
            cancelled = reason;
          },
        }),
        { headers: { "content-type": "application/json" } },
      );
    const client = createClient({ baseUrl: MOCK_BASE_URL, fetch: async () => endless(), maxResponseBytes: 64 * 1024 });
    await expect(client.GET("/currencies/fiat-rates")).rejects.toMatchObject({ reason: "too-large" });
    expect(cancelled).toBeUndefined();
  });

  it("applies per call, to error bodies too, and lets a body within the limit through", async () => {
    server = await startServer((req, res) => {
      if (req.url?.includes("wallets")) return sendJson(res, 500, JSON.parse(big(5000)));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(big(5000));
    });
    const client = createClient({ baseUrl: server.baseUrl, retry: false });
    const { data } = await client.GET("/currencies/fiat-rates", { maxResponseBytes: 6000 });
    expect(data).toEqual(JSON.parse(big(5000)));
    await expect(client.GET("/currencies/fiat-rates", { maxResponseBytes: 4000 })).rejects.toMatchObject({
      reason: "too-large",
    });
    await expect(client.GET("/wallets/USDT", { maxResponseBytes: 4000 })).rejects.toMatchObject({
      reason: "too-large",
      status: 500,
    });
    const tight = createClient({ baseUrl: server.baseUrl, maxResponseBytes: 4000 });
    await expect(tight.GET("/currencies/fiat-rates", { parseAs: "text" })).rejects.toMatchObject({
      reason: "too-large",
    });
    expect((await tight.GET("/currencies/fiat-rates", { maxResponseBytes: 6000 })).data).toEqual(JSON.parse(big(5000)));
  });

  it('checks a streamed body\'s Content-Length (parseAs: "stream")', async () => {
    server = await startServer((_req, res) => {
      const body = big(5000);
      res.writeHead(200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) });
      res.end(body);
    });
    const client = createClient({ baseUrl: server.baseUrl, maxResponseBytes: 4000 });
    await expect(client.GET("/currencies/fiat-rates", { parseAs: "stream" })).rejects.toMatchObject({
      reason: "too-large",
    });
  });
});

describe("maxResponseBytes at its bound", () => {
  it("a body of exactly maxResponseBytes is read, declared or counted; one byte more is refused", async () => {
    const body = JSON.stringify({ data: "x".repeat(20) });
    // Counted: the rest of the body is sent only once the client has the headers and the first part.
    let rest: (() => void) | undefined;
    server = await startServer((req, res) => {
      const declared = req.url?.includes("fiat-rates");
      res.writeHead(200, {
        "content-type": "application/json",
        ...(declared ? { "content-length": String(Buffer.byteLength(body)) } : {}),
      });
      if (declared) return res.end(body);
      res.write(body.slice(0, 10));
      rest = () => res.end(body.slice(10));
    });
    const size = Buffer.byteLength(body);
    const api = createClient({ baseUrl: server.baseUrl, hooks: { onResponse: () => rest?.() } });
    expect((await api.GET("/currencies/fiat-rates", { maxResponseBytes: size })).data).toEqual(JSON.parse(body));
    const inTwoChunks = await api.GET("/currencies/networks/active", { maxResponseBytes: size });
    expect(inTwoChunks.data).toEqual(JSON.parse(body));
    await expect(api.GET("/currencies/fiat-rates", { maxResponseBytes: size - 1 })).rejects.toMatchObject({
      reason: "too-large",
    });
    await expect(api.GET("/currencies/networks/active", { maxResponseBytes: size - 1 })).rejects.toMatchObject({
      reason: "too-large",
    });
  });
});
