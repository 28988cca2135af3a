// Middleware registered with use() (or per call) sees one request and the final response, and what it changes
// is what is sent: the call's own options (timeout, retry) and facts still apply to a replaced Request. The caller
// gets the network response itself; eject stops a middleware.
import { afterEach, describe, expect, it } from "vitest";
import type { Middleware } from "openapi-fetch";
import { ApiError, createClient, MOCK_BASE_URL, type RequestEvent, unwrap } from "../../src/index.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";
import { operationIdOf, successExample } from "../support/spec.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Retries without a backoff: these tests are about what is sent, not when. */
const noWait = { baseDelayMs: 0 };
const addHeader: Middleware = {
  onRequest: ({ request }) => {
    const headers = new Headers(request.headers);
    headers.set("x-extra", "1");
    return new Request(request, { headers });
  },
};

describe("middleware", () => {
  it("a replaced Request keeps the call's retry option, timeout and facts", async () => {
    server = await startServer((_req, res) => sendJson(res, 503, {}));
    const events: RequestEvent[] = [];
    const client = createClient({
      baseUrl: server.baseUrl,
      retry: noWait,
      hooks: { onRequest: (e) => events.push(e) },
    });
    client.use(addHeader);
    const { response } = await client.GET("/collections/customers/{id}", {
      params: { path: { id: "c1" } },
      retry: false,
    });
    expect(response.status).toBe(503);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers["x-extra"]).toBe("1");
    expect(events[0]).toMatchObject({
      path: "/collections/customers/{id}",
      operationId: operationIdOf("GET", "/collections/customers/{id}"),
    });
  });

  it("a body the middleware replaced is the body sent, on every attempt", async () => {
    server = await startServer((_req, res, _seen, i) =>
      i === 0 ? sendJson(res, 503, {}) : sendJson(res, 200, successExample("resendWebhooks")),
    );
    const client = createClient({ baseUrl: server.baseUrl, apiKey: "k", apiSecret: "s", retry: noWait });
    const replaceBody: Middleware = {
      onRequest: ({ request }) => new Request(request, { body: JSON.stringify({ ids: ["replaced"] }) }),
    };
    client.use(replaceBody);
    const { response } = await client.POST("/transactions/resendWebhooks", {
      body: { ids: ["original"] },
      retry: true,
    });
    expect(response.status).toBe(200);
    expect(server.requests.map((r) => r.body)).toEqual(Array(2).fill(JSON.stringify({ ids: ["replaced"] })));
    // Ejected: the call's own body again.
    client.eject(replaceBody);
    await client.POST("/transactions/resendWebhooks", { body: { ids: ["original"] } });
    expect(server.requests[2]!.body).toBe(JSON.stringify({ ids: ["original"] }));
  });

  it("a per-call middleware is honoured the same way", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, successExample("resendWebhooks")));
    const client = createClient({ baseUrl: server.baseUrl });
    const middleware: Middleware[] = [
      { onRequest: ({ request }) => new Request(request, { body: '{"ids":["per-call"]}' }) },
    ];
    await client.POST("/transactions/resendWebhooks", { body: { ids: ["original"] }, middleware });
    expect(server.requests[0]!.body).toBe('{"ids":["per-call"]}');
  });

  it("sees a readable response body, and the caller still gets the parsed data", async () => {
    const rates = successExample("getFiatRates");
    server = await startServer((_req, res) => sendJson(res, 200, rates));
    const client = createClient({ baseUrl: server.baseUrl });
    const seen: unknown[] = [];
    client.use({
      onResponse: async ({ response }) => {
        seen.push(await response.clone().json());
      },
    });
    const { data } = await client.GET("/currencies/fiat-rates");
    expect(data).toEqual(rates);
    expect(seen).toEqual([rates]);
  });

  it("a response the middleware replaces, or answers itself, is what the caller gets", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, successExample("getFiatRates")));
    const client = createClient({ baseUrl: server.baseUrl });
    const json = (value: unknown, status = 200) =>
      new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
    const replace: Middleware = { onResponse: () => json({ replaced: true }) };
    client.use(replace);
    expect((await client.GET("/currencies/fiat-rates")).data).toEqual({ replaced: true });
    expect((await client.GET("/currencies/fiat-rates", { parseAs: "text" })).data).toBe('{"replaced":true}');
    expect(
      new Uint8Array((await client.GET("/currencies/fiat-rates", { parseAs: "arrayBuffer" })).data as ArrayBuffer),
    ).toEqual(new TextEncoder().encode('{"replaced":true}'));
    client.eject(replace);
    const answer: Middleware = { onRequest: () => json({ answered: true }, 404) };
    client.use(answer);
    const { error, response } = await client.GET("/currencies/fiat-rates");
    expect(response.status).toBe(404);
    expect(error).toEqual({ answered: true });
    expect(server.requests).toHaveLength(3); // the three calls the replacing middleware saw; none for the answered one
  });

  it("a middleware's own answer: ApiError.url is the URL the call was made for (registered or per call)", async () => {
    const refuse: Middleware = {
      onRequest: () =>
        new Response('{"error":"refused"}', { status: 409, headers: { "content-type": "application/json" } }),
    };
    const client = createClient({ baseUrl: MOCK_BASE_URL });
    const customer = { params: { path: { id: "c 1" } } };
    const perCall = await unwrap(
      client.GET("/collections/customers/{id}", { ...customer, middleware: [refuse] }),
    ).catch((e: unknown) => e);
    client.use(refuse);
    const registered = await unwrap(client.GET("/collections/customers/{id}", customer)).catch((e: unknown) => e);
    for (const error of [perCall, registered]) {
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        status: 409,
        url: `${MOCK_BASE_URL}/collections/customers/c%201`,
        path: "/collections/customers/{id}",
      });
    }
  });

  it("a 204 a middleware puts in place of the answer gives no data, however the call reads it", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, successExample("getFiatRates")));
    const client = createClient({ baseUrl: server.baseUrl });
    client.use({ onResponse: () => new Response(null, { status: 204 }) });
    for (const parseAs of ["json", "text", "arrayBuffer", "blob"] as const) {
      const { data, response } = await client.GET("/currencies/fiat-rates", { parseAs });
      expect([response.status, data], parseAs).toEqual([204, undefined]);
    }
  });
});

describe("the response and eject", () => {
  const rates = () => successExample("getFiatRates");

  it("with middleware, the caller gets the network response itself (its URL); eject stops a middleware", async () => {
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
});
