// Client basics against real node:http servers: key header, base URL, timeouts and the timers they leave (none once
// a call is done; aborts: abort.test.ts).
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient, MOCK_BASE_URL, TimeoutError, unwrap } from "../../src/index.js";
import { track, until, useFakeClock } from "./support/clock.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";
import { API_KEY_HEADER, BASE_PATH, loadSpec, operationIdOf, successExample } from "../support/spec.js";

const spec = loadSpec();

let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

describe("API key", () => {
  it("sends the API key header on every request, GET and POST", async () => {
    const rates = successExample("getFiatRates");
    server = await startServer((_req, res) => sendJson(res, 200, rates));
    const client = createClient({ baseUrl: server.baseUrl, apiKey: "key-123" });
    await client.GET("/currencies/fiat-rates");
    await client.POST("/transactions/resendWebhooks", { body: { ids: ["a"] } });
    expect(server.requests.map((r) => r.headers[API_KEY_HEADER])).toEqual(["key-123", "key-123"]);
    expect(server.requests[1]?.headers["content-type"]).toBe("application/json");
  });

  it("sends the headers option as given when no apiKey is set, an x-api-key among them included", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, successExample("getFiatRates")));
    const client = createClient({
      baseUrl: server.baseUrl,
      headers: { [API_KEY_HEADER]: "from-headers", "x-extra": "1" },
    });
    await client.GET("/currencies/fiat-rates");
    expect([server.requests[0]?.headers[API_KEY_HEADER], server.requests[0]?.headers["x-extra"]]).toEqual([
      "from-headers",
      "1",
    ]);
  });

  it("sends no API key header when none is configured", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, successExample("getFiatRates")));
    const client = createClient({ baseUrl: server.baseUrl });
    await client.GET("/currencies/fiat-rates");
    expect(server.requests[0]?.headers[API_KEY_HEADER]).toBeUndefined();
  });

  it("rejects an unusable key without echoing it", () => {
    // Line breaks (header injection), control characters (every call would fail as a network error),
    // surrounding spaces (fetch would trim them) and characters a header cannot carry.
    for (const apiKey of [
      "",
      "abc\r\nx-evil: 1",
      "bell\u0007",
      "\u0007",
      "nul\u0000byte",
      "del\u007f",
      "esc\u001b[0m",
      "tab\tinside",
      "vt\u000binside",
      "c1\u0085",
      " padded",
      "padded ",
      "kéy",
      "key\u2028",
    ]) {
      expect(() => createClient({ baseUrl: MOCK_BASE_URL, apiKey }), JSON.stringify(apiKey)).toThrow(
        /apiKey must be printable ASCII \(no line breaks, control characters or surrounding spaces\)/,
      );
    }
    let error: unknown;
    try {
      createClient({ baseUrl: MOCK_BASE_URL, apiKey: "secret\nvalue" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).not.toContain("secret");
  });
});

describe("baseUrl", () => {
  it("is required and must be an absolute http(s) URL ending in the spec's base path", () => {
    const segment = `must end with the version segment "${BASE_PATH}"`;
    const cases: Array<[unknown, string | RegExp]> = [
      [undefined, /baseUrl is required/],
      ["", /baseUrl is required/],
      [BASE_PATH, /must be an absolute http:\/\/ or https:\/\/ URL/],
      [`api.example.com${BASE_PATH}`, /must be an absolute http:\/\/ or https:\/\/ URL/],
      [`ftp://api.example.com${BASE_PATH}`, /must be an absolute http:\/\/ or https:\/\/ URL; got "ftp:/],
      ["https://api.example.com", `${segment} (its path is "/")`],
      [`https://api.example.com${BASE_PATH}/other`, segment],
      [`https://api.example.com${BASE_PATH}?x=1`, /must not contain a query string/],
      [`https://api.example.com${BASE_PATH}#top`, /must not contain a query string or a fragment/],
      [`https://api.example.com${BASE_PATH}?`, /must not contain a query string/],
      [`https://user:pw@api.example.com${BASE_PATH}`, /must not contain credentials/],
    ];
    for (const [baseUrl, message] of cases) {
      expect(() => createClient({ baseUrl } as { baseUrl: string }), String(baseUrl)).toThrow(message);
    }
    expect(() => createClient({ baseUrl: `https://api.example.com/prefix${BASE_PATH}` })).not.toThrow();
  });

  it("names the offending value, except credentials", () => {
    expect(() => createClient({ baseUrl: "https://api.example.com/elsewhere" })).toThrow(
      'got "https://api.example.com/elsewhere"',
    );
    expect(() => createClient({ baseUrl: `https://user:pw@api.example.com${BASE_PATH}` })).toThrow(/credentials/);
    expect(() => createClient({ baseUrl: `https://user:pw@api.example.com${BASE_PATH}` })).not.toThrow(/pw/);
  });

  it("accepts a trailing slash and keeps the base path in requests", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, successExample("getFiatRates")));
    const client = createClient({ baseUrl: `${server.baseUrl}/` });
    expect(client.baseUrl).toBe(server.baseUrl);
    await client.GET("/currencies/fiat-rates");
    expect(server.requests[0]?.url).toBe(`${BASE_PATH}/currencies/fiat-rates`);
  });

  it("exports the mock URL of the spec's local server", () => {
    const urls = (spec.servers as Array<{ url: string }>).map((s) => s.url);
    expect(urls).toContain(MOCK_BASE_URL);
    expect(MOCK_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(new URL(MOCK_BASE_URL).pathname).toBe(BASE_PATH);
  });
});

describe("timeouts", () => {
  it("defaults to 30 s: a call without timeoutMs fails with TimeoutError at 30 s, not before", async () => {
    server = await startServer(() => {}); // never answers
    useFakeClock();
    const client = createClient({ baseUrl: server.baseUrl, retry: false });
    const call = track(client.GET("/currencies/fiat-rates"));
    await until(() => server!.requests.length === 1, "the request to arrive");
    await vi.advanceTimersByTimeAsync(29_999);
    expect(call.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => call.settled, "the call to fail at 30 s", 2000);
    expect(call.error).toBeInstanceOf(TimeoutError);
    expect(call.error).toMatchObject({ timeoutMs: 30_000, attempts: 1 });
  });

  it("raises TimeoutError when the server never answers", async () => {
    server = await startServer(() => {});
    useFakeClock();
    const client = createClient({ baseUrl: server.baseUrl, timeoutMs: 150, retry: false });
    const call = track(client.GET("/currencies/fiat-rates"));
    await until(() => server!.requests.length === 1, "the request to arrive");
    await vi.advanceTimersByTimeAsync(149);
    expect(call.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => call.settled, "the call to time out");
    expect(call.error).toBeInstanceOf(TimeoutError);
    expect(call.error).toMatchObject({
      timeoutMs: 150,
      method: "GET",
      path: "/currencies/fiat-rates",
      operationId: operationIdOf("GET", "/currencies/fiat-rates"),
      attempts: 1,
    });
    expect(server.requests).toHaveLength(1);
  });

  it("takes a per-request override", async () => {
    server = await startServer(() => {});
    useFakeClock();
    const client = createClient({ baseUrl: server.baseUrl, timeoutMs: 60_000, retry: false });
    const call = track(client.GET("/currencies/fiat-rates", { timeoutMs: 100 }));
    await until(() => server!.requests.length === 1, "the request to arrive");
    await vi.advanceTimersByTimeAsync(100);
    await until(() => call.settled, "the call to time out");
    expect(call.error).toBeInstanceOf(TimeoutError);
    expect((call.error as TimeoutError).timeoutMs).toBe(100);
  });

  it("covers the body: headers sent, body never finished", async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"message":"ok","data":[');
    });
    let headers = 0;
    useFakeClock();
    const client = createClient({
      baseUrl: server.baseUrl,
      timeoutMs: 200,
      retry: false,
      hooks: { onResponse: () => headers++ },
    });
    const call = track(client.GET("/currencies/fiat-rates"));
    await until(() => headers === 1, "the headers to arrive");
    await vi.advanceTimersByTimeAsync(200);
    await until(() => call.settled, "the call to time out");
    expect(call.error).toBeInstanceOf(TimeoutError);
  });

  it("rejects invalid timeouts at construction and per request", async () => {
    expect(() => createClient({ baseUrl: MOCK_BASE_URL, timeoutMs: 0 })).toThrow(/timeoutMs must be a positive number/);
    expect(() => createClient({ baseUrl: MOCK_BASE_URL, timeoutMs: Number.NaN })).toThrow(/timeoutMs/);
    const client = createClient({ baseUrl: MOCK_BASE_URL });
    await expect(client.GET("/currencies/fiat-rates", { timeoutMs: -1 })).rejects.toThrow(
      /timeoutMs must be a positive number/,
    );
  });
});

describe("injectable fetch", () => {
  it("calls the given fetch with a Request carrying the key and a timeout signal", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, successExample("getFiatRates")));
    const seen: Request[] = [];
    const client = createClient({
      baseUrl: server.baseUrl,
      apiKey: "k",
      fetch: (request) => {
        seen.push(request);
        return fetch(request);
      },
    });
    const data = await unwrap(client.GET("/currencies/fiat-rates"));
    expect(data).toEqual(successExample("getFiatRates"));
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers.get(API_KEY_HEADER)).toBe("k");
    expect(seen[0]?.signal).toBeInstanceOf(AbortSignal);
  });

  it("applies the timeout through the Request's signal to a custom fetch", async () => {
    server = await startServer(() => {});
    useFakeClock();
    const client = createClient({
      baseUrl: server.baseUrl,
      timeoutMs: 100,
      retry: false,
      fetch: (request) => fetch(request),
    });
    const calls = [
      track<unknown>(client.POST("/trades/quote", { body: { side: "BUY" } })),
      track<unknown>(client.GET("/wallets/USDT")),
    ];
    await until(() => server!.requests.length === 2, "both requests to arrive");
    await vi.advanceTimersByTimeAsync(100);
    await until(() => calls.every((call) => call.settled), "both calls to time out");
    expect(calls.map((call) => call.error)).toEqual([expect.any(TimeoutError), expect.any(TimeoutError)]);
    expect(server.requests.map((r) => r.body).sort()).toEqual(["", '{"side":"BUY"}']);
  });
});

describe("timers", () => {
  const rates = () => successExample("getFiatRates");

  it("leaves no timer behind once a call is done (the attempt's timeout is cleared)", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, rates()));
    useFakeClock();
    const api = createClient({ baseUrl: server.baseUrl });
    await api.GET("/currencies/fiat-rates");
    expect(vi.getTimerCount()).toBe(0);
    server.requests.length = 0;
  });
});
