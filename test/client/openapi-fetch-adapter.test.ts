// The openapi-fetch adapter (src/client/openapi-fetch-adapter.ts) alone: what a call's attempts are given, with and
// without middleware, and what the caller gets back; the attempts are a stub, no socket is opened. Also pins that a
// call the adapter builds itself (no middleware) is the request openapi-fetch would build and gets the data and error
// openapi-fetch would give: a newer openapi-fetch that builds or answers otherwise fails here first.
import { readFileSync } from "node:fs";
import createOpenApiClient, { type Middleware } from "openapi-fetch";
import { describe, expect, it } from "vitest";
import { type BodyReading, type ReadAnswer, readAnswer } from "../../src/client/body.js";
import { type AdapterCall, createOpenApiFetchAdapter } from "../../src/client/openapi-fetch-adapter.js";
import { createRedactor } from "../../src/client/redact.js";
import { REQUEST_INFO } from "../../src/client/unwrap.js";
import type { RequestInfo } from "../../src/index.js";
import { API_KEY_HEADER, BASE_PATH } from "../support/spec.js";

const BASE_URL = `https://api.example.com${BASE_PATH}`;
const KEY = "k3y";

function adapterOf() {
  return createOpenApiFetchAdapter(BASE_URL, { [API_KEY_HEADER]: KEY }, createRedactor(KEY));
}

type Sent = { url: string; init: RequestInit };

/** A call whose attempts record what they are given and answer `network` (read as `data`). */
function callOf(
  adapter: ReturnType<typeof adapterOf>,
  init: Record<string, unknown>,
  network = new Response('{"a":1}', { headers: { "content-type": "application/json" } }),
) {
  const info: RequestInfo = { method: "POST", path: "/trades/quote", operationId: "createQuote", url: "" };
  const reading: BodyReading = {
    parseAs: "json",
    maxBytes: 1000,
    redact: createRedactor(KEY),
    info,
    middlewareSees: adapter.seesMiddleware(init),
  };
  const sent: Sent[] = [];
  const call: AdapterCall = {
    method: "POST",
    path: "/trades/quote",
    init,
    body: '{"amount":1}',
    info,
    reading,
    attempts: async (url, requestInit): Promise<ReadAnswer> => {
      sent.push({ url, init: requestInit });
      const forOpenApiFetch = network.ok ? network : new Response(await network.text(), { status: network.status });
      return { network, forOpenApiFetch, data: network.ok ? { a: 1 } : undefined, streaming: false };
    },
  };
  return { call, sent, info, network };
}

describe("the adapter", () => {
  it("no middleware: attempts get openapi-fetch's URL and RequestInit, the caller the network response", async () => {
    const adapter = adapterOf();
    const { call, sent, info, network } = callOf(adapter, { params: { query: { page: 2 } }, timeoutMs: 5 });
    const result = (await adapter.send(call)) as { data: unknown; response: Response; [REQUEST_INFO]: RequestInfo };
    expect(sent).toHaveLength(1);
    const [{ url, init }] = sent as [Sent];
    expect(url).toBe(`${BASE_URL}/trades/quote?page=2`);
    expect(init.method).toBe("POST");
    expect(init.body).toBe('{"amount":1}'); // as serialized by the client: the identity serializer
    const headers = new Headers(init.headers);
    expect([headers.get(API_KEY_HEADER), headers.get("content-type")]).toEqual([KEY, "application/json"]);
    expect(result.data).toEqual({ a: 1 });
    expect(result.response).toBe(network);
    expect(result[REQUEST_INFO]).toBe(info);
    expect(Object.keys(result)).toEqual(["data", "response"]);
  });

  it("with middleware: the attempts get the Request it hands on (headers and body), use and eject decide", async () => {
    const adapter = adapterOf();
    const tag: Middleware = {
      onRequest: ({ request }) => {
        request.headers.set("x-tag", "1");
        return request;
      },
    };
    expect(adapter.seesMiddleware({})).toBe(false);
    expect(adapter.seesMiddleware({ middleware: [tag] })).toBe(true);
    adapter.use(tag);
    expect(adapter.seesMiddleware({})).toBe(true);
    const { call, sent } = callOf(adapter, {});
    const result = (await adapter.send(call)) as { data: unknown };
    const [{ url, init }] = sent as [Sent];
    expect(url).toBe(`${BASE_URL}/trades/quote`);
    expect(new Headers(init.headers).get("x-tag")).toBe("1");
    expect(new TextDecoder().decode(init.body as ArrayBuffer)).toBe('{"amount":1}');
    expect(result.data).toEqual({ a: 1 });
    adapter.eject(tag);
    expect(adapter.seesMiddleware({})).toBe(false);
  });

  it("a middleware that answers itself: nothing sent, its body read here, the URL recorded redacted", async () => {
    const adapter = adapterOf();
    adapter.use({
      onRequest: () => new Response('{"mine":true}', { headers: { "content-type": "application/json" } }),
    });
    const { call, sent, info } = callOf(adapter, { params: { query: { key: KEY } } });
    const result = (await adapter.send(call)) as { data: unknown };
    expect(sent).toEqual([]);
    expect(result.data).toEqual({ mine: true });
    expect(info.url).toBe(`${BASE_URL}/trades/quote?key=[REDACTED]`);
  });

  it("an error body reaches the caller parsed by openapi-fetch and redacted", async () => {
    const adapter = adapterOf();
    const answer = new Response(JSON.stringify({ message: `bad key ${KEY}` }), { status: 401 });
    const { call } = callOf(adapter, {}, answer);
    const result = (await adapter.send(call)) as { error: unknown; response: Response };
    expect(result.error).toEqual({ message: "bad key [REDACTED]" });
    expect(result.response).toBe(answer);
  });
});

describe("what the adapter relies on in openapi-fetch", () => {
  it("is the pinned version", () => {
    const manifest = readFileSync(new URL(import.meta.resolve("openapi-fetch/package.json")), "utf8");
    expect(JSON.parse(manifest).version).toBe("0.17.0");
  });
});

/** What a Request carries that a server sees, for comparing two ways of building one. */
async function sentOf(request: Request) {
  const { url, method, redirect, cache, keepalive } = request;
  const body = request.body ? await request.text() : null;
  const headers: Array<[string, string]> = [];
  request.headers.forEach((value, name) => {
    headers.push([name, value]);
  });
  return { url, method, redirect, cache, keepalive, headers, body };
}

/** openapi-fetch's own client: the Request it builds for a call, and its result for `answer`. */
async function throughOpenApiFetch(
  clientHeaders: Record<string, string>,
  method: string,
  path: string,
  init: Record<string, unknown>,
  answer: () => Response,
) {
  let request: Request | undefined;
  const client = createOpenApiClient({
    baseUrl: BASE_URL,
    headers: clientHeaders,
    fetch: async (sent: Request) => {
      request = sent;
      return answer();
    },
  });
  const request_ = client.request as (m: string, p: string, i: unknown) => Promise<Record<string, unknown>>;
  const { data, error } = await request_(method, path, init);
  return { sent: await sentOf(request!), data, error };
}

/** The adapter's direct path for the same call: the attempts read the answer as the client does. */
async function throughAdapter(
  clientHeaders: Record<string, string>,
  method: string,
  path: string,
  init: Record<string, unknown>,
  answer: () => Response,
) {
  const adapter = createOpenApiFetchAdapter(BASE_URL, clientHeaders, createRedactor(KEY));
  const info: RequestInfo = { method, path, operationId: undefined, url: "" };
  const parseAs = (init.parseAs as string | undefined) ?? "json";
  const reading: BodyReading = { parseAs, maxBytes: 1e6, redact: createRedactor(KEY), info, middlewareSees: false };
  let sent: Awaited<ReturnType<typeof sentOf>> | undefined;
  const body = init.body === undefined || init.body instanceof FormData ? init.body : JSON.stringify(init.body);
  const result = (await adapter.send({
    method,
    path,
    init,
    body,
    info,
    reading,
    attempts: async (url, requestInit) => {
      sent = await sentOf(new Request(url, requestInit));
      return readAnswer(answer(), method, reading);
    },
  })) as Record<string, unknown>;
  return { sent: sent!, data: result.data, error: result.error, response: result.response };
}

const json =
  (status: number, value: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(status === 204 ? null : JSON.stringify(value), {
      status,
      headers: { "content-type": "application/json", ...headers },
    });

describe("a call no middleware sees, built by the adapter, is the call openapi-fetch builds and answers", () => {
  const form = new FormData();
  form.set("file", new Blob(["%PDF"], { type: "application/pdf" }), "invoice.pdf");
  const calls: Array<[string, Record<string, string>, string, string, Record<string, unknown>]> = [
    ["a GET", {}, "GET", "/currencies/fiat-rates", {}],
    ["a query", {}, "GET", "/transactions/me", { params: { query: { page: 2, category: ["SWAP", "DEPOSIT"] } } }],
    ["a path parameter to encode", {}, "POST", "/trades/quote/{quoteId}", { params: { path: { quoteId: "a b/c" } } }],
    ["a JSON body", {}, "POST", "/trades/quote", { body: { amount: 1, side: "SELL" } }],
    ["call headers", {}, "POST", "/trades/quote", { body: { a: 1 }, headers: { "x-extra": "1", accept: "*/*" } }],
    ["header params", {}, "GET", "/wallets/me", { params: { header: { "x-h": "v" } } }],
    [
      "the client's own Content-Type, in lower case",
      { "content-type": "application/vnd.x+json" },
      "POST",
      "/trades/quote",
      { body: {} },
    ],
    [
      "a content type of the call",
      {},
      "POST",
      "/trades/quote",
      { body: { a: 1 }, headers: { "content-type": "text/x" } },
    ],
    ["RequestInit fields", {}, "GET", "/wallets/me", { cache: "no-store", redirect: "manual", keepalive: true }],
    ["a multipart body", {}, "POST", "/uploads/invoices", { body: form }],
    ["a query serializer of the call", {}, "GET", "/wallets/me", { querySerializer: () => "own=1", params: {} }],
    ["a base URL of the call", {}, "GET", "/wallets/me", { baseUrl: "https://other.example/v1" }],
  ];
  it.for(calls)("%s: the same request", async ([, clientHeaders, method, path, init]) => {
    const headers = { [API_KEY_HEADER]: KEY, ...clientHeaders };
    const reference = await throughOpenApiFetch(headers, method, path, init, json(200, {}));
    const ours = await throughAdapter(headers, method, path, init, json(200, {}));
    const withoutBoundary = (sent: typeof ours.sent) =>
      init.body instanceof FormData ? { ...sent, headers: [], body: sent.body?.length } : sent;
    expect(withoutBoundary(ours.sent)).toEqual(withoutBoundary(reference.sent));
    if (init.body instanceof FormData) expect(new Headers(ours.sent.headers).get("content-type")).toMatch(/^multipart/);
  });

  const answers: Array<[string, string, Record<string, unknown>, () => Response]> = [
    ["a JSON success", "GET", {}, json(200, { data: [1] })],
    ["a success without Content-Length", "GET", {}, () => new Response(new Blob(['{"a":1}']).stream())],
    ["an empty JSON success without Content-Length", "GET", {}, () => new Response(new Blob([]).stream())],
    ["204", "POST", {}, json(204, null)],
    ["Content-Length 0", "GET", {}, () => new Response("", { headers: { "content-length": "0" } })],
    ["a HEAD", "HEAD", {}, json(200, { a: 1 }, { "content-length": "7" })],
    ["no body at all", "GET", {}, () => new Response(null, { status: 200 })],
    ["a JSON error", "GET", {}, json(404, { message: "no such quote" })],
    ["a text error", "GET", {}, () => new Response("bad gateway", { status: 502 })],
    ["an error without a body", "GET", {}, () => new Response(null, { status: 500 })],
    [
      "an error with Content-Length 0",
      "GET",
      {},
      () => new Response("", { status: 500, headers: { "content-length": "0" } }),
    ],
    ["parseAs text", "GET", { parseAs: "text" }, () => new Response("plain words")],
    ["a HEAD answered 404", "HEAD", {}, () => new Response(null, { status: 404, headers: { "content-length": "9" } })],
    ["204 with parseAs stream", "GET", { parseAs: "stream" }, () => new Response(null, { status: 204 })],
  ];
  it.for(answers)("%s: the same data and error", async ([, method, init, answer]) => {
    const headers = { [API_KEY_HEADER]: KEY };
    const reference = await throughOpenApiFetch(headers, method, "/currencies/fiat-rates", init, answer);
    const ours = await throughAdapter(headers, method, "/currencies/fiat-rates", init, answer);
    expect({ data: ours.data, error: ours.error }).toEqual({ data: reference.data, error: reference.error });
    expect(ours.response).toBeInstanceOf(Response);
  });

  it("parseAs stream through middleware: the body stream, unread", async () => {
    const adapter = adapterOf();
    adapter.use({ onRequest: ({ request }: { request: Request }) => request });
    const { call } = callOf(adapter, { parseAs: "stream" });
    call.reading.parseAs = "stream";
    const streamed = new Response('{"a":1}', { headers: { "content-type": "application/json" } });
    call.attempts = async () => ({ network: streamed, forOpenApiFetch: streamed, data: undefined, streaming: true });
    const result = (await adapter.send(call)) as { data: unknown };
    expect(await new Response(result.data as ReadableStream).json()).toEqual({ a: 1 });
  });

  it("parseAs stream: the body stream, unread", async () => {
    const init = { parseAs: "stream" };
    const ours = await throughAdapter({}, "GET", "/currencies/fiat-rates", init, json(200, { a: 1 }));
    expect(await new Response(ours.data as ReadableStream).json()).toEqual({ a: 1 });
  });
});
