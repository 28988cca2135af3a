// Reading a call's answer: answers without a body (204, 205, 304, HEAD, Content-Length 0), a JSON body without a
// content type, parseAs "blob" and "arrayBuffer", and the body a call sends (serialized once, with the call's
// headers). body.ts's readAnswer is also tested alone, on Response objects.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient } from "../../src/index.js";
import { successExample } from "../support/spec.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";

let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

describe("answers without a body, and bodies a call sends", () => {
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
