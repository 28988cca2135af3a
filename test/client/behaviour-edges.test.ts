// Behaviour of the client that survived mutation (see MUTATION.md), on local servers: the base URL's and the
// options' checks with their exact messages, error messages with attempts and reasons, every hook event's fields,
// the rate-limit state kept when a response has none, bodies at exactly the size limit and in several chunks,
// answers without a body (204, 205, 304, HEAD, Content-Length 0) or without a content type, form bodies, the
// response handed back with middleware, eject, no timer left behind, and the small helpers' edges.
import http from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getEventListeners } from "node:events";
import { parseIntegerHeader, readRateLimit } from "../../src/client/rate-limit.js";
import { createRedactor, redactError, redactValue } from "../../src/client/redact.js";
import { DEFAULT_RETRY, rateLimitWait, resolveRetryOptions, sleep } from "../../src/client/retry.js";
import { createSigner } from "../../src/client/signing.js";
import { contractMiddleware, ContractViolationError, createContractValidator } from "../../src/contract/index.js";
import {
  ApiError,
  type ClientHooks,
  createClient,
  hasMorePages,
  InvalidResponseError,
  NetworkError,
  TimeoutError,
  unwrap,
} from "../../src/index.js";
import { loadSpec, RATE_LIMIT_HEADERS, successExample } from "../support/spec.js";
import { track, until, useFakeClock } from "./support/clock.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";

let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

const BASE_EXAMPLE = 'Example: "https://api.example.com/v1"';
const rates = () => successExample("getFiatRates");

describe("the base URL and the options, refused with what is wrong", () => {
  it("a blank, non-http, credentialed or unanchored base URL", () => {
    const refusal = (baseUrl: unknown) => {
      try {
        createClient({ baseUrl } as never);
      } catch (error) {
        return (error as Error).message;
      }
      return "accepted";
    };
    expect(refusal("")).toBe(
      `createClient: baseUrl is required and must be a non-empty string; got "". ${BASE_EXAMPLE}`,
    );
    expect(refusal("   ")).toBe(
      `createClient: baseUrl is required and must be a non-empty string; got string. ${BASE_EXAMPLE}`,
    );
    expect(refusal(undefined)).toBe(
      `createClient: baseUrl is required and must be a non-empty string; got undefined. ${BASE_EXAMPLE}`,
    );
    expect(refusal("xhttp://api.example.com/v1")).toBe(
      `createClient: baseUrl must be an absolute http:// or https:// URL; got "xhttp://api.example.com/v1". ${BASE_EXAMPLE}`,
    );
    expect(refusal("https://user@api.example.com/v1")).toBe(
      `createClient: baseUrl must not contain credentials (pass the key as apiKey). ${BASE_EXAMPLE}`,
    );
    expect(refusal("https://:pw@api.example.com/v1")).toBe(
      `createClient: baseUrl must not contain credentials (pass the key as apiKey). ${BASE_EXAMPLE}`,
    );
    expect(refusal("https://api.example.com/v1/")).toBe("accepted");
  });

  it("an API key or secret that is not a string; a timeout that is not a number; a size limit per call", async () => {
    const base = "https://api.example.com/v1";
    expect(() => createClient({ baseUrl: base, apiKey: 12345 as never })).toThrow(
      "createClient: apiKey must be printable ASCII (no line breaks, control characters or surrounding spaces)",
    );
    expect(() => createClient({ baseUrl: base, apiKey: "k", apiSecret: 12345 as never })).toThrow(
      "createClient: apiSecret must be a non-empty string (no line breaks, control characters or surrounding spaces)",
    );
    expect(() => createClient({ baseUrl: base, timeoutMs: "100" as never })).toThrow(
      "createClient: timeoutMs must be a positive number of milliseconds up to 2147483647, or Infinity to disable it; got 100",
    );
    server = await startServer((_req, res) => sendJson(res, 200, rates()));
    const api = createClient({ baseUrl: server.baseUrl });
    await expect(api.GET("/currencies/fiat-rates", { maxResponseBytes: 1.5 })).rejects.toThrow(
      new TypeError("maxResponseBytes must be a positive integer (bytes), or Infinity to disable it; got 1.5"),
    );
  });
});

describe("error messages", () => {
  const info = { method: "GET", path: "/currencies/fiat-rates", operationId: "getFiatRates", url: "u" };

  it("a timeout says the attempt once there were retries; a network error its reason and attempts", async () => {
    server = await startServer(() => {}); // never answers
    useFakeClock();
    const api = createClient({ baseUrl: server.baseUrl, timeoutMs: 30, retry: { retries: 2, baseDelayMs: 0 } });
    const call = track(api.GET("/currencies/fiat-rates"));
    for (const attempt of [1, 2, 3]) {
      await until(() => server!.requests.length === attempt, `attempt ${attempt}`);
      await vi.advanceTimersByTimeAsync(30);
    }
    await until(() => call.settled, "the third timeout");
    vi.useRealTimers();
    const timeout = call.error;
    expect(timeout).toBeInstanceOf(TimeoutError);
    expect((timeout as Error).message).toBe(
      "GET /currencies/fiat-rates (getFiatRates) timed out after 30 ms (attempt 3)",
    );
    expect(new TimeoutError(info, 30, 1).message).toBe(
      "GET /currencies/fiat-rates (getFiatRates) timed out after 30 ms",
    );
    await server.close();
    server = await startServer((req) => req.socket.destroy());
    const dropped = await createClient({ baseUrl: server.baseUrl, retry: { retries: 1, baseDelayMs: 0 } })
      .GET("/currencies/fiat-rates")
      .catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(NetworkError);
    expect((dropped as Error).message).toBe(
      "GET /currencies/fiat-rates (getFiatRates) failed: network error (UND_ERR_SOCKET) after 2 attempts",
    );
  });

  it("the reason of a network error: its code, its cause's code, else its message, else none", () => {
    expect(new NetworkError(info, 1, { code: "EPIPE", message: "m", cause: { code: "X" } }).message).toMatch(
      /network error \(EPIPE\)$/,
    );
    expect(new NetworkError(info, 1, { message: "m", cause: { code: "ECONNRESET" } }).message).toMatch(
      /network error \(ECONNRESET\)$/,
    );
    expect(new NetworkError(info, 1, { message: "went wrong" }).message).toMatch(/network error \(went wrong\)$/);
    expect(new NetworkError(info, 1, undefined).message).toMatch(/network error$/);
    expect(new NetworkError(info, 1, undefined).cause).toBeUndefined();
  });

  it("an invalid response names its reason; it has a cause only when given one", () => {
    const invalidJson = new InvalidResponseError(info, 200, "application/json", "invalid-json", undefined);
    expect(invalidJson.message).toBe(
      "GET /currencies/fiat-rates (getFiatRates) answered HTTP 200 with a body that is not valid JSON",
    );
    expect(Object.hasOwn(invalidJson, "cause")).toBe(false);
    const cause = new SyntaxError("bad");
    expect(new InvalidResponseError(info, 200, "application/json", "invalid-json", undefined, cause).cause).toBe(cause);
  });

  it("unwrap throws for an error status even without an error body, and for an error body even with a 2xx", async () => {
    await expect(unwrap({ response: new Response(null, { status: 500 }) })).rejects.toBeInstanceOf(ApiError);
    await expect(
      unwrap({ data: 1, error: { message: "x" }, response: new Response(null, { status: 200 }) }),
    ).rejects.toBeInstanceOf(ApiError);
  });
});

describe("hooks and the rate-limit state", () => {
  it("each event carries the call's facts: request, response (with a duration), retry (reason, status, delay), rate limit", async () => {
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

  it("a retry after a dropped connection says reason network; the wait for a spent limit carries its delay and state", async () => {
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
});

describe("bodies and statuses", () => {
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
    expect((await api.GET("/currencies/networks/active", { maxResponseBytes: size })).data).toEqual(JSON.parse(body)); // two chunks
    await expect(api.GET("/currencies/fiat-rates", { maxResponseBytes: size - 1 })).rejects.toMatchObject({
      reason: "too-large",
    });
    await expect(api.GET("/currencies/networks/active", { maxResponseBytes: size - 1 })).rejects.toMatchObject({
      reason: "too-large",
    });
  });

  it("answers without a body are not checked for JSON: 204, Content-Length 0, HEAD; a JSON body without a content type parses", async () => {
    server = await startServer((req, res) => {
      if (req.url?.endsWith("/fiat-rates")) {
        res.writeHead(204, { "content-type": "text/plain" });
        return res.end();
      }
      if (req.method === "HEAD") {
        res.writeHead(200, { "content-type": "text/html", "content-length": "10" });
        return res.end();
      }
      if (req.url?.endsWith("/active")) {
        res.writeHead(200, { "content-type": "text/plain", "content-length": "0" });
        return res.end();
      }
      res.writeHead(200); // no content type
      res.end(JSON.stringify({ data: [1] }));
    });
    const api = createClient({ baseUrl: server.baseUrl });
    const noContent = await api.GET("/currencies/fiat-rates");
    expect([noContent.response.status, noContent.data, noContent.error]).toEqual([204, undefined, undefined]);
    const empty = await api.GET("/currencies/networks/active");
    expect([empty.response.status, empty.data]).toEqual([200, undefined]);
    const head = await (api.HEAD as unknown as (path: string) => Promise<{ response: Response; data: unknown }>)(
      "/currencies/fiat-rates/x",
    );
    expect([head.response.status, head.data]).toEqual([200, undefined]);
    const untyped = await api.GET("/wallets/USDT");
    expect(untyped.data).toEqual({ data: [1] });
  });

  it("205 and 304 are handed on without a body (a Response cannot carry one), with and without middleware", async () => {
    server = await startServer((req, res) => {
      res.writeHead(req.url?.endsWith("/fiat-rates") ? 205 : 304, { "content-type": "application/json" });
      res.end();
    });
    for (const withMiddleware of [false, true]) {
      const api = createClient({ baseUrl: server.baseUrl });
      if (withMiddleware) api.use({ onResponse: () => undefined });
      const reset = await api.GET("/currencies/fiat-rates");
      expect(reset.response.status).toBe(205);
      const notModified = await api.GET("/currencies/networks/active");
      expect(notModified.response.status).toBe(304);
    }
  });

  it("sends a form body when the call says so (the call's headers reach the serializer)", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, { data: {} }));
    const api = createClient({ baseUrl: server.baseUrl });
    await api.POST("/trades/quote", {
      body: { sourceId: "USDT", targetId: "NGNX", amount: 1, side: "SELL" },
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    await api.POST("/trades/quote", {
      body: { sourceId: "USDT", targetId: "NGNX", amount: 1, side: "SELL" },
      params: { header: { "content-type": "application/x-www-form-urlencoded" } } as never,
    });
    expect(server.requests.map((r) => r.body)).toEqual([
      "sourceId=USDT&targetId=NGNX&amount=1&side=SELL",
      "sourceId=USDT&targetId=NGNX&amount=1&side=SELL",
    ]);
  });

  it("with middleware, the caller gets the network response itself (its URL), and eject stops a middleware", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, rates()));
    const api = createClient({ baseUrl: server.baseUrl });
    const seen: string[] = [];
    const a = { onResponse: () => void seen.push("a") };
    const b = { onResponse: () => void seen.push("b") };
    api.use(a);
    const result = await api.GET("/currencies/fiat-rates");
    expect(result.response.url).toBe(`${server.baseUrl}/currencies/fiat-rates`);
    expect(result.data).toEqual(rates());
    api.eject(b); // never added: a stays
    await api.GET("/currencies/fiat-rates");
    api.eject(a);
    await api.GET("/currencies/fiat-rates");
    expect(seen).toEqual(["a", "a"]);
    // Ejected while another stays: the other runs alone.
    const c = { onResponse: () => void seen.push("c") };
    api.use(a, c);
    api.eject(a);
    await api.GET("/currencies/fiat-rates");
    expect(seen).toEqual(["a", "a", "c"]);
  });

  it("leaves no timer behind once a call is done (the attempt's timeout is cleared)", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, rates()));
    useFakeClock();
    const api = createClient({ baseUrl: server.baseUrl });
    await api.GET("/currencies/fiat-rates");
    expect(vi.getTimerCount()).toBe(0);
    server.requests.length = 0;
  });
});

describe("small helpers", () => {
  it("hasMorePages (shape A): nothing when total is 0, whatever the page size; undefined where the numbering decides", () => {
    expect(hasMorePages({ page: 0, pageSize: 0, total: 0 } as never)).toBe(false);
    expect(hasMorePages({ page: 0, pageSize: 0, total: 5 } as never)).toBeUndefined();
    expect(hasMorePages({ page: 1, pageSize: 10, total: 20 } as never)).toBeUndefined();
    expect(hasMorePages({ page: 0, pageSize: 10, total: 21 } as never)).toBe(true);
  });

  it("createRedactor replaces the longer secret first, and redacts nothing without secrets", () => {
    expect(createRedactor("abc", "abcdef")("x abcdef abc")).toBe("x [REDACTED] [REDACTED]");
    expect(createRedactor("abcdef", "abc")("abcdef")).toBe("[REDACTED]");
    const none = createRedactor(undefined, "");
    const value = { a: ["b"] };
    expect(redactValue(value, none)).toBe(value);
    expect(none("abc")).toBe("abc");
  });

  it("redactValue copies keys and values to 64 levels, and leaves null and other values as they are", () => {
    const redact = createRedactor("s3cr3t");
    expect(redactValue(null, redact)).toBeNull();
    expect(redactValue(5, redact)).toBe(5);
    expect(redactValue({ "s3cr3t-key": [null, "a s3cr3t", { x: "s3cr3t" }] }, redact)).toEqual({
      "[REDACTED]-key": [null, "a [REDACTED]", { x: "[REDACTED]" }],
    });
    const nested = (depth: number): unknown => (depth === 0 ? "s3cr3t" : { n: nested(depth - 1) });
    const leaf = (value: unknown): unknown => (typeof value === "string" ? value : leaf((value as { n: unknown }).n));
    expect(leaf(redactValue(nested(65), redact))).toBe("[REDACTED]");
    // Past the bound, the rest as its JSON text, redacted: nothing deeper leaks, in objects or in arrays.
    expect(leaf(redactValue(nested(66), redact))).toBe('{"n":"[REDACTED]"}');
    const nestedArray = (depth: number): unknown => (depth === 0 ? "s3cr3t" : [nestedArray(depth - 1)]);
    const arrayLeaf = (value: unknown): unknown =>
      typeof value === "string" ? value : arrayLeaf((value as unknown[])[0]);
    expect(arrayLeaf(redactValue(nestedArray(65), redact))).toBe("[REDACTED]");
    expect(arrayLeaf(redactValue(nestedArray(66), redact))).toBe('["[REDACTED]"]');
    const cyclic: Record<string, unknown> = { note: "s3cr3t" };
    cyclic.self = cyclic;
    let level: unknown = redactValue(cyclic, redact);
    for (let depth = 0; depth < 65; depth++) level = (level as Record<string, unknown>).self;
    expect(level).toBe("[REDACTED]"); // a cycle cannot be written out
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

  it("resolveRetryOptions ignores fields given as undefined", () => {
    expect(resolveRetryOptions(DEFAULT_RETRY, { retries: undefined, baseDelayMs: 7 })).toEqual({
      ...DEFAULT_RETRY,
      baseDelayMs: 7,
    });
  });

  it("sleep leaves neither its timer nor its abort listener behind, whether it ends or is aborted", async () => {
    const ended = new AbortController();
    await sleep(1, ended.signal);
    expect(getEventListeners(ended.signal, "abort")).toHaveLength(0);
    useFakeClock();
    const aborted = new AbortController();
    const sleeping = sleep(60_000, aborted.signal);
    aborted.abort(new Error("stop"));
    await expect(sleeping).rejects.toThrow("stop");
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(aborted.signal, "abort")).toHaveLength(0);
  });

  it("createSigner: a secret Web Crypto refuses fails the signed request, and is no unhandled rejection before it", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const sign = createSigner(""); // an empty HMAC key: importKey rejects
      // The same refusal, asked for after the signer's: once it is in, so is the signer's, and a turn later
      // an unhandled rejection would have been reported.
      await crypto.subtle
        .importKey("raw", new Uint8Array(0), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
        .catch(() => {});
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      await expect(sign("GET", "http://127.0.0.1/v1/x")).rejects.toMatchObject({ name: "DataError" });
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("redactError redacts a message or a stack that holds the secret, drops causes past 4 levels, adds no cause of its own", () => {
    const redact = createRedactor("s3cr3t");
    const inMessage = new Error("has s3cr3t");
    inMessage.stack = "clean stack";
    expect(redactError(inMessage, redact)).toMatchObject({ message: "has [REDACTED]", stack: "clean stack" });
    expect(Object.hasOwn(redactError(inMessage, redact) as object, "cause")).toBe(false);
    const inStack = new Error("clean");
    inStack.stack = "at s3cr3t";
    const copied = redactError(inStack, redact) as Error;
    expect(copied).not.toBe(inStack);
    expect([copied.message, copied.stack]).toEqual(["clean", "at [REDACTED]"]);
    let chain: Error = new Error("bottom s3cr3t");
    for (let i = 0; i < 6; i++) chain = new Error(`level ${i}`, { cause: chain });
    const redacted = redactError(chain, redact) as Error;
    const levels: string[] = [];
    for (let e: unknown = redacted; e instanceof Error; e = e.cause) levels.push(e.message);
    expect(levels).toEqual(["level 5", "level 4", "level 3", "level 2", "level 1"]);
  });
});

describe("the contract middleware", () => {
  const spec = loadSpec();
  const validator = createContractValidator(spec);

  it("throws by default, with one line per violation and the call's facts; passes the result and the exchange to onViolation", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, { unexpected: true }));
    const api = createClient({ baseUrl: server.baseUrl });
    api.use(contractMiddleware(validator));
    const error = (await api.GET("/currencies/fiat-rates").catch((e: unknown) => e)) as ContractViolationError;
    expect(error).toBeInstanceOf(ContractViolationError);
    expect(error.name).toBe("ContractViolationError");
    expect([error.method, error.url, error.status]).toEqual(["GET", `${server.baseUrl}/currencies/fiat-rates`, 200]);
    const lines = error.message.split("\n");
    expect(lines[0]).toBe(`contract violation(s) in GET ${server.baseUrl}/currencies/fiat-rates → 200:`);
    expect(lines.slice(1)).toEqual(error.result.violations.map((v) => `  - [${v.kind}] ${v.message}`));
    expect(lines.length).toBeGreaterThan(1);

    const reports: Array<{ ok: boolean; warnings: number; status: number; method: string }> = [];
    const reporting = createClient({ baseUrl: server.baseUrl });
    reporting.use(
      contractMiddleware(validator, {
        mode: "report",
        onViolation: (result, { request, response }) =>
          reports.push({
            ok: result.ok,
            warnings: result.warnings.length,
            status: response.status,
            method: request.method,
          }),
      }),
    );
    expect((await reporting.GET("/currencies/fiat-rates")).data).toEqual({ unexpected: true });
    expect(reports).toEqual([{ ok: false, warnings: 0, status: 200, method: "GET" }]);
    const silent = createClient({ baseUrl: server.baseUrl });
    silent.use(contractMiddleware(validator, { mode: "report" }));
    expect((await silent.GET("/currencies/fiat-rates")).response.status).toBe(200);
  });

  it("strict only when asked: undocumented fields are warnings then, and nothing otherwise", async () => {
    const body = { ...rates(), extraField: 1 };
    server = await startServer((_req, res) => sendJson(res, 200, body));
    const results: number[] = [];
    for (const strict of [undefined, true]) {
      const api = createClient({ baseUrl: server.baseUrl });
      api.use(
        contractMiddleware(validator, {
          mode: "report",
          ...(strict ? { strict } : {}),
          onViolation: (r) => results.push(r.warnings.length),
        }),
      );
      await api.GET("/currencies/fiat-rates");
    }
    expect(results).toEqual([1]);
  });

  it("validates the path below the client's base URL even when it is not the spec's base path", async () => {
    const validated: Array<string | undefined> = [];
    const answering = http.createServer((_req, res) => {
      res.writeHead(200, {
        "content-type": "application/json",
        ...Object.fromEntries(Object.values(RATE_LIMIT_HEADERS).map((h) => [h, "1"])),
      });
      res.end(JSON.stringify(rates()));
    });
    await new Promise<void>((resolve) => answering.listen(0, "127.0.0.1", resolve));
    try {
      const origin = `http://127.0.0.1:${(answering.address() as { port: number }).port}`;
      for (const baseUrl of [`${origin}/gateway/v1`, `${origin}/gateway/v1//`]) {
        const api = createClient({ baseUrl: `${origin}/gateway/v1` });
        const middleware = contractMiddleware(validator, {
          mode: "report",
          onViolation: (r) => validated.push(r.operation?.path),
        });
        api.use({
          onResponse: (options) =>
            middleware.onResponse!({ ...options, options: { ...options.options, baseUrl }, schemaPath: "/nope" }),
        });
        await api.GET("/currencies/fiat-rates");
      }
    } finally {
      await new Promise((resolve) => answering.close(resolve));
    }
    expect(validated).toEqual([]); // both found /currencies/fiat-rates below the base URL, and it conforms
  });
});
