// Edges of the client that the other client tests do not reach, on local servers: the option checks' messages, a
// missing path parameter, blob and arrayBuffer bodies, call headers next to a serialized body, unwrap on a result
// the client did not make, error messages without an operation or a status text, redacted causes of causes,
// sleep's abort, and a signer without Web Crypto.
import { afterEach, describe, expect, it, vi } from "vitest";
import { redactError, createRedactor } from "../../src/client/redact.js";
import { sleep } from "../../src/client/retry.js";
import { ApiError, createClient, createSigner, InvalidResponseError, NetworkError, unwrap } from "../../src/index.js";
import { track, until, useFakeClock } from "./support/clock.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";
import { successExample } from "../support/spec.js";

let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

describe("createClient's checks", () => {
  it("names what is wrong: no options, a fetch that is not a function", () => {
    expect(() => createClient(null as never)).toThrow(new TypeError("createClient: options are required"));
    expect(() => createClient("https://api.example.com/v1" as never)).toThrow(
      new TypeError("createClient: options are required"),
    );
    expect(() => createClient({ baseUrl: "https://api.example.com/v1", fetch: "fetch" as never })).toThrow(
      new TypeError("createClient: fetch must be a function"),
    );
  });

  it("refuses a call whose path parameter is missing, naming it, and sends nothing", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, {}));
    const api = createClient({ baseUrl: server.baseUrl, apiKey: "k" });
    await expect(api.POST("/trades/quote/{quoteId}", { params: {} as never, body: {} })).rejects.toThrow(
      new TypeError(
        'POST /trades/quote/{quoteId}: path parameter "quoteId" is undefined, which sends the request to another path',
      ),
    );
    await expect(
      api.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: null as never } }, body: {} }),
    ).rejects.toThrow('path parameter "quoteId" is null');
    expect(server.requests).toEqual([]);
  });
});

describe("bodies", () => {
  it('parseAs "blob" keeps the content type (or none), "arrayBuffer" the bytes', async () => {
    server = await startServer((req, res) => {
      if (req.url?.endsWith("/fiat-rates")) res.writeHead(200, { "content-type": "application/octet-stream" });
      else res.writeHead(200);
      res.end(Buffer.from([1, 2, 3, 250]));
    });
    const api = createClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const typed = await api.GET("/currencies/fiat-rates", { parseAs: "blob" });
    expect(typed.data).toBeInstanceOf(Blob);
    expect((typed.data as unknown as Blob).type).toBe("application/octet-stream");
    expect([...new Uint8Array(await (typed.data as unknown as Blob).arrayBuffer())]).toEqual([1, 2, 3, 250]);
    const untyped = await api.GET("/currencies/networks/active", { parseAs: "blob" });
    expect((untyped.data as unknown as Blob).type).toBe("");
    const buffer = await api.GET("/currencies/networks/active", { parseAs: "arrayBuffer" });
    expect(buffer.data).toBeInstanceOf(ArrayBuffer);
    expect([...new Uint8Array(buffer.data as unknown as ArrayBuffer)]).toEqual([1, 2, 3, 250]);
  });

  it("a call without a body sends none, whatever bodySerializer it gives (openapi-fetch never calls it then)", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, successExample("acceptQuote")));
    const api = createClient({ baseUrl: server.baseUrl });
    const serializer = vi.fn(() => "serialized");
    await api.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: "q1" } }, bodySerializer: serializer });
    expect(serializer).not.toHaveBeenCalled();
    expect([server.requests[0]?.body, server.requests[0]?.headers["content-type"]]).toEqual(["", undefined]);
  });

  it("an arrayBuffer body is exactly the bytes received, when a custom fetch's chunk is a view into a larger buffer", async () => {
    const backing = new Uint8Array([9, 9, 1, 2, 3, 9]);
    const fetch = async () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(backing.subarray(2, 5));
            controller.close();
          },
        }),
        { headers: { "content-type": "application/octet-stream" } },
      );
    const api = createClient({ baseUrl: "http://127.0.0.1:1/v1", fetch });
    const { data } = await api.GET("/currencies/fiat-rates", { parseAs: "arrayBuffer" });
    expect([...new Uint8Array(data as unknown as ArrayBuffer)]).toEqual([1, 2, 3]);
  });

  it("serializes a body once with the call's headers and header parameters merged in, and sends them", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, { data: {} }));
    const api = createClient({ baseUrl: server.baseUrl, apiKey: "k", headers: { "x-client": "c" } });
    const seen: Array<string | null> = [];
    await api.POST("/trades/quote", {
      body: { sourceId: "USDT", targetId: "NGNX", amount: 1, side: "SELL" },
      headers: { "x-call": "1" },
      params: { header: { "x-param": "2" } } as never,
      bodySerializer: (body: unknown, headers?: Headers) => {
        seen.push(headers?.get("x-client") ?? null, headers?.get("x-call") ?? null, headers?.get("x-param") ?? null);
        return JSON.stringify({ wrapped: body });
      },
    });
    expect(seen).toEqual(["c", "1", "2"]);
    const sent = server.requests[0]!;
    expect(JSON.parse(sent.body)).toEqual({ wrapped: { sourceId: "USDT", targetId: "NGNX", amount: 1, side: "SELL" } });
    expect([sent.headers["x-client"], sent.headers["x-call"], sent.headers["x-param"]]).toEqual(["c", "1", "2"]);
  });
});

describe("unwrap and the error messages", () => {
  it("unwrap of a result this client did not make: method UNKNOWN, the URL's path (or the URL when it has none)", async () => {
    server = await startServer((_req, res) => sendJson(res, 503, { message: "down" }));
    const response = await fetch(`${server.baseUrl}/networks?x=1`);
    const error = await unwrap({ error: { message: "down" }, response }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      method: "UNKNOWN",
      path: "/v1/networks",
      operationId: undefined,
      url: `${server.baseUrl}/networks?x=1`,
      status: 503,
      statusText: "Service Unavailable",
      body: { message: "down" },
    });
    expect((error as ApiError).message).toBe("UNKNOWN /v1/networks failed with HTTP 503 Service Unavailable");
    const bare = await unwrap({ error: "x", response: new Response(null, { status: 500 }) }).catch((e: unknown) => e);
    expect(bare).toMatchObject({
      method: "UNKNOWN",
      path: "",
      url: "",
      statusText: "",
      message: "UNKNOWN  failed with HTTP 500",
    });
    expect(await unwrap({ data: 1, response: new Response(null, { status: 200 }) })).toBe(1);
  });

  it("says (none) for a missing content type, and no reason for a network error without one", () => {
    const info = {
      method: "GET",
      path: "/networks",
      operationId: "listNetworks",
      url: "https://api.example.com/v1/networks",
    };
    expect(new InvalidResponseError(info, 200, null, "content-type", undefined).message).toBe(
      "GET /networks (listNetworks) answered HTTP 200 with content-type (none) instead of JSON",
    );
    expect(
      new InvalidResponseError(
        { ...info, operationId: undefined },
        200,
        "text/html",
        "too-large",
        undefined,
        undefined,
        10,
      ).message,
    ).toBe("GET /networks answered HTTP 200 with a body over maxResponseBytes (10 bytes)");
    expect(new NetworkError(info, 1, {}).message).toBe("GET /networks (listNetworks) failed: network error");
    expect(new NetworkError(info, 3, { cause: { code: "ECONNRESET" } }).message).toBe(
      "GET /networks (listNetworks) failed: network error (ECONNRESET) after 3 attempts",
    );
  });

  it("redactError copies an error whose cause (at any depth up to 4) holds the secret, keeping the chain", () => {
    const redact = createRedactor("s3cr3t");
    const inner = new Error("inner with s3cr3t");
    const outer = new Error("outer is clean", { cause: new Error("middle is clean", { cause: inner }) });
    const copy = redactError(outer, redact) as Error;
    expect(copy).not.toBe(outer);
    expect(copy.message).toBe("outer is clean");
    expect(copy.name).toBe("Error");
    const middle = copy.cause as Error;
    expect(middle.message).toBe("middle is clean");
    expect((middle.cause as Error).message).toBe("inner with [REDACTED]");
    const clean = new Error("clean", { cause: new Error("also clean") });
    expect(redactError(clean, redact)).toBe(clean);
    const named = Object.assign(new TypeError("s3cr3t"), { name: "CustomError" });
    expect(redactError(named, redact)).toMatchObject({ name: "CustomError", message: "[REDACTED]" });
    expect((redactError(named, redact) as Error).cause).toBeUndefined();
  });
});

describe("sleep and the signer", () => {
  it("sleep rejects with the signal's reason when it aborts first, at once when already aborted; resolves otherwise", async () => {
    useFakeClock(); // never moved but where said: what ends a sleep early is the abort
    const controller = new AbortController();
    const waiting = track(sleep(10_000, controller.signal));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(waiting.settled).toBe(false);
    controller.abort(new Error("stop"));
    await until(() => waiting.settled, "the aborted sleep");
    expect(waiting.error).toEqual(new Error("stop"));
    await expect(sleep(10, AbortSignal.abort(new Error("already")))).rejects.toThrow("already");
    const done = new AbortController();
    const finished = track(sleep(5, done.signal));
    await vi.advanceTimersByTimeAsync(5);
    expect(finished).toEqual({ settled: true, value: undefined });
    done.abort(new Error("late")); // after the sleep: nothing happens
    await expect(sleep(0)).resolves.toBeUndefined();
  });

  it("a signer needs Web Crypto", () => {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, "crypto")!;
    Object.defineProperty(globalThis, "crypto", { value: undefined, configurable: true });
    try {
      expect(() => createSigner("s")).toThrow(new Error("request signing needs Web Crypto (crypto.subtle)"));
    } finally {
      Object.defineProperty(globalThis, "crypto", descriptor);
    }
    expect(typeof createSigner("s")).toBe("function");
  });
});
