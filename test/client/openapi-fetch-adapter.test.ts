// The openapi-fetch adapter (src/client/openapi-fetch-adapter.ts) alone: what a call's attempts are given, with and
// without middleware, and what the caller gets back; the attempts are a stub, no socket is opened. Also pins what
// the adapter relies on in the pinned openapi-fetch: of the object its `Request` option builds, it reads `method`
// only (UrlAndInit is no Request; a newer openapi-fetch that reads more fails here first).
import { readFileSync } from "node:fs";
import createOpenApiClient, { type Middleware } from "openapi-fetch";
import { describe, expect, it } from "vitest";
import type { BodyReading, ReadAnswer } from "../../src/client/body.js";
import { type AdapterCall, createOpenApiFetchAdapter, UrlAndInit } from "../../src/client/openapi-fetch-adapter.js";
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

  it.for([
    ["GET", { parseAs: "stream" }],
    ["POST", { parseAs: "stream", body: "{}", timeoutMs: 5 }],
    ["HEAD", { parseAs: "stream" }],
  ] as const)("a %s: of what its Request option builds, openapi-fetch reads `method` only", async ([method, init]) => {
    const read: string[] = [];
    let recording = true;
    class Recording extends UrlAndInit {
      constructor(url: string, requestInit: RequestInit) {
        super(url, requestInit);
        // biome-ignore lint/correctness/noConstructorReturn: the proxy records what openapi-fetch reads
        return new Proxy(this, {
          get: (target, key, receiver) => {
            if (recording && typeof key === "string") read.push(key);
            return Reflect.get(target, key, receiver);
          },
        });
      }
    }
    const client = createOpenApiClient({
      baseUrl: BASE_URL,
      Request: Recording as unknown as typeof Request,
      fetch: async () => {
        recording = false; // what the adapter's own fetch reads is not openapi-fetch's reading
        const answer = new Response("{}", { headers: { "content-type": "application/json" } });
        recording = true;
        return answer;
      },
    });
    const { response } = await (
      client.request as (m: string, p: string, i: unknown) => Promise<{ response: Response }>
    )(method, "/currencies/fiat-rates", { ...init, bodySerializer: (body: unknown) => body });
    expect(response.status).toBe(200);
    expect([...new Set(read)]).toEqual(["method"]);
  });
});
