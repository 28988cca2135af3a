// Reading a call's answer: answers without a body (204, 205, 304, HEAD, Content-Length 0), a JSON body without a
// content type, parseAs "blob" and "arrayBuffer", and the body a call sends (serialized once, with the call's
// headers). body.ts's readAnswer is also tested alone, on Response objects.
import { afterEach, describe, expect, it, vi } from "vitest";
import { type BodyReading, readAnswer, readReplacedBody } from "../../src/client/body.js";
import { createRedactor } from "../../src/client/redact.js";
import { createClient, InvalidResponseError } from "../../src/index.js";
import { successExample } from "../support/spec.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";

let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

describe("answers without a body, and bodies a call sends", () => {
  it("no JSON check without a body (204, Content-Length 0, HEAD); JSON without a content type parses", async () => {
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

  it("205 and 304 are handed on without a body (a Response cannot carry one), with or without middleware", async () => {
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
});

describe("parseAs and serialized bodies", () => {
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

  it("a call without a body sends none, whatever its bodySerializer (openapi-fetch never calls it then)", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, successExample("acceptQuote")));
    const api = createClient({ baseUrl: server.baseUrl });
    const serializer = vi.fn(() => "serialized");
    await api.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: "q1" } }, bodySerializer: serializer });
    expect(serializer).not.toHaveBeenCalled();
    expect([server.requests[0]?.body, server.requests[0]?.headers["content-type"]]).toEqual(["", undefined]);
  });

  it("an arrayBuffer body is the bytes received, when a custom fetch's chunk views a larger buffer", async () => {
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

describe("readAnswer, on Response objects", () => {
  const info = { method: "GET", path: "/currencies/fiat-rates", operationId: "getFiatRates", url: "u" };
  const reading = (overrides: Partial<BodyReading> = {}): BodyReading => ({
    parseAs: "json",
    maxBytes: 100,
    redact: createRedactor("k3y"),
    info,
    middlewareSees: false,
    ...overrides,
  });
  const json = (body: string, init: ResponseInit = {}) =>
    new Response(body, { ...init, headers: { "content-type": "application/json", ...init.headers } });

  it("parses a JSON success body; hands on the network response itself unless middleware reads it too", async () => {
    const response = json('{"a":1}');
    const answer = await readAnswer(response, "GET", reading());
    expect(answer).toEqual({ network: response, forOpenApiFetch: response, data: { a: 1 }, streaming: false });
    const seen = await readAnswer(json('{"a":1}', { statusText: "Fine" }), "GET", reading({ middlewareSees: true }));
    expect(seen.forOpenApiFetch).not.toBe(seen.network);
    expect([seen.forOpenApiFetch.status, seen.forOpenApiFetch.statusText, await seen.forOpenApiFetch.text()]).toEqual([
      200,
      "Fine",
      '{"a":1}',
    ]);
    expect(seen.forOpenApiFetch.headers.get("content-type")).toBe("application/json");
  });

  it("hands on an error body as a readable copy (openapi-fetch reads it), parsed by nobody here", async () => {
    const answer = await readAnswer(new Response("<html>down</html>", { status: 503 }), "GET", reading());
    expect([answer.data, answer.streaming]).toEqual([undefined, false]); // read whole: the timeout is cleared
    expect([answer.forOpenApiFetch.status, await answer.forOpenApiFetch.text()]).toEqual([503, "<html>down</html>"]);
    expect(answer.network.bodyUsed).toBe(true);
  });

  it("leaves unread what has no body (204, HEAD, Content-Length 0) and a stream the caller reads", async () => {
    for (const [response, method] of [
      [new Response(null, { status: 204 }), "GET"],
      [json("not read"), "HEAD"],
      [json("", { headers: { "content-length": "0" } }), "GET"],
    ] as const) {
      const answer = await readAnswer(response, method, reading());
      expect([answer.forOpenApiFetch, answer.data, answer.streaming, response.bodyUsed]).toEqual([
        response,
        undefined,
        false,
        false,
      ]);
    }
    const stream = json('{"a":1}');
    const answer = await readAnswer(stream, "GET", reading({ parseAs: "stream" }));
    expect([answer.forOpenApiFetch, answer.streaming, stream.bodyUsed]).toEqual([stream, true, false]);
  });

  it("refuses a body over the limit: unread when Content-Length says so, else once the count goes over", async () => {
    const declared = json("{}", { headers: { "content-length": "101" } });
    const refusal = await readAnswer(declared, "GET", reading()).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(InvalidResponseError);
    expect(refusal).toMatchObject({ reason: "too-large", status: 200, path: info.path });
    expect((refusal as Error).message).toContain("maxResponseBytes (100 bytes)");
    expect(declared.bodyUsed).toBe(false);
    const exact = `"${"x".repeat(98)}"`;
    expect((await readAnswer(json(exact), "GET", reading())).data).toBe("x".repeat(98));
    await expect(readAnswer(json(`${exact} `), "GET", reading())).rejects.toMatchObject({ reason: "too-large" });
  });

  it("refuses a JSON call's success body of another content type, with the start of the body, redacted", async () => {
    const html = new Response(`k3y${"<p>".repeat(100)}`, { headers: { "content-type": "text/html" } });
    const refusal = (await readAnswer(html, "GET", reading({ maxBytes: 1000 })).catch((e: unknown) => e)) as {
      reason: string;
      bodyPreview: string;
    };
    expect(refusal.reason).toBe("content-type");
    expect(refusal.bodyPreview).toBe(`[REDACTED]${"<p>".repeat(100)}`.slice(0, 200));
    const text = new Response("plain", { headers: { "content-type": "text/plain" } });
    expect((await readAnswer(text, "GET", reading({ parseAs: "text" }))).data).toBe("plain");
    const suffixed = new Response('{"a":1}', {
      headers: { "content-type": "application/problem+json; charset=utf-8" },
    });
    expect((await readAnswer(suffixed, "GET", reading())).data).toEqual({ a: 1 });
  });

  it("refuses JSON that does not parse, with the parse error as its cause; an empty body is undefined", async () => {
    const refusal = await readAnswer(json("{nope"), "GET", reading()).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ reason: "invalid-json" });
    expect((refusal as Error).cause).toBeInstanceOf(SyntaxError);
    const empty = new Response("", { headers: { "content-type": "application/json" } });
    expect((await readAnswer(empty, "GET", reading())).data).toBeUndefined();
  });

  it("readReplacedBody reads and parses a response a middleware answered with, under the same limit", async () => {
    expect(await readReplacedBody(json('{"b":2}'), reading())).toEqual({ b: 2 });
    const bytes = new Response(new Uint8Array([1, 2]));
    expect(new Uint8Array((await readReplacedBody(bytes, reading({ parseAs: "arrayBuffer" }))) as ArrayBuffer)).toEqual(
      new Uint8Array([1, 2]),
    );
    await expect(readReplacedBody(json("x".repeat(101)), reading())).rejects.toMatchObject({ reason: "too-large" });
  });
});
