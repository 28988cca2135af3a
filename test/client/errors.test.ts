// Error shapes in both styles, rate-limit state, non-JSON bodies, and the API key kept out of everything; each
// error's message (attempts, reasons, content type), and unwrap on results with and without this client's facts.
import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ApiError,
  ClientError,
  createClient,
  InvalidResponseError,
  NetworkError,
  TimeoutError,
  unwrap,
  type RateLimitState,
} from "../../src/index.js";
import { parseIntegerHeader, parseRetryAfter, readRateLimit } from "../../src/client/rate-limit.js";
import { track, until, useFakeClock } from "./support/clock.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";
import { RATE_LIMIT_HEADERS, operationIdOf, rateLimitExamples, successExample } from "../support/spec.js";

let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

const KEY = "sk_live_9f8e7d6c5b4a-SECRET";

function exposures(value: unknown): string[] {
  const out = [inspect(value, { depth: Infinity, showHidden: true }), JSON.stringify(value) ?? ""];
  if (value instanceof Error) {
    out.push(value.message, String(value.stack), String(value));
    let cause: unknown = value.cause;
    while (cause instanceof Error) {
      out.push(cause.message, String(cause.stack));
      cause = cause.cause;
    }
  }
  return out;
}

describe("error styles", () => {
  it("non-throwing: { data, error, response } with the parsed error body", async () => {
    server = await startServer((_req, res) => sendJson(res, 404, { code: "not_found" }));
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY });
    const result = await client.GET("/collections/customers/{id}", { params: { path: { id: "c1" } } });
    expect(result.data).toBeUndefined();
    expect(result.error).toEqual({ code: "not_found" });
    expect(result.response.status).toBe(404);
  });

  it("unwrap: data on success; else ApiError with status, method, path, operationId, body, rate limit", async () => {
    const operationId = operationIdOf("POST", "/trades/quote/{quoteId}");
    const reset = Math.ceil(Date.now() / 1000) + 30;
    server = await startServer((_req, res, _seen, i) =>
      i === 0
        ? sendJson(res, 200, successExample("acceptQuote"))
        : sendJson(
            res,
            400,
            { message: "quote expired" },
            {
              [RATE_LIMIT_HEADERS.limit]: "200",
              [RATE_LIMIT_HEADERS.remaining]: "17",
              [RATE_LIMIT_HEADERS.reset]: String(reset),
            },
          ),
    );
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY });
    const call = () => client.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: "qt_1" } }, body: {} });
    expect(await unwrap(call())).toEqual(successExample("acceptQuote"));
    const error = await unwrap(call()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({
      name: "ApiError",
      status: 400,
      method: "POST",
      path: "/trades/quote/{quoteId}",
      operationId,
      url: `${server.baseUrl}/trades/quote/qt_1`,
      body: { message: "quote expired" },
      rateLimit: { limit: 200, remaining: 17, reset },
    });
    expect((error as ApiError).message).toBe(
      `POST /trades/quote/{quoteId} (${operationId}) failed with HTTP 400 Bad Request: quote expired`,
    );
    expect((error as ApiError).response.status).toBe(400);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ name: "ApiError", status: 400, operationId });
  });

  it("a non-JSON error body (a proxy's HTML) is kept as text, not a crash", async () => {
    server = await startServer((_req, res) => {
      res.writeHead(500, { "content-type": "text/html" });
      res.end("<html>Internal error</html>");
    });
    const client = createClient({ baseUrl: server.baseUrl });
    const { error } = await client.GET("/wallets/USDT");
    expect(error).toBe("<html>Internal error</html>");
  });
});

describe("non-JSON success bodies", () => {
  it("a non-JSON content type gives InvalidResponseError with a preview", async () => {
    const operationId = operationIdOf("GET", "/currencies/fiat-rates");
    server = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end("<html>Captive portal</html>");
    });
    const client = createClient({ baseUrl: server.baseUrl, retry: false });
    const error = await client.GET("/currencies/fiat-rates").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({
      reason: "content-type",
      status: 200,
      contentType: "text/html; charset=utf-8",
      bodyPreview: "<html>Captive portal</html>",
      operationId,
    });
    expect((error as Error).message).toBe(
      `GET /currencies/fiat-rates (${operationId}) answered HTTP 200 with ` +
        "content-type text/html; charset=utf-8 instead of JSON",
    );
  });

  it("invalid JSON under a JSON content type gives InvalidResponseError", async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{not json");
    });
    const client = createClient({ baseUrl: server.baseUrl });
    const error = await client.GET("/currencies/fiat-rates").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ reason: "invalid-json", status: 200 });
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
  });

  it("parseAs: 'text' opts out of the JSON check", async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("plain");
    });
    const client = createClient({ baseUrl: server.baseUrl });
    const { data } = await client.GET("/currencies/fiat-rates", { parseAs: "text" });
    expect(data).toBe("plain");
  });
});

describe("rate-limit state", () => {
  it("is undefined before the first response and follows each response", async () => {
    server = await startServer((_req, res, _seen, i) =>
      sendJson(res, 200, successExample("getFiatRates"), {
        [RATE_LIMIT_HEADERS.remaining]: String(199 - i),
        [RATE_LIMIT_HEADERS.reset]: "1900000000",
      }),
    );
    const states: RateLimitState[] = [];
    const client = createClient({ baseUrl: server.baseUrl, hooks: { onRateLimit: (s) => states.push(s) } });
    expect(client.rateLimit).toBeUndefined();
    await client.GET("/currencies/fiat-rates");
    await client.GET("/currencies/fiat-rates");
    expect(client.rateLimit).toMatchObject({
      limit: rateLimitExamples()[RATE_LIMIT_HEADERS.limit],
      remaining: 198,
      reset: 1_900_000_000,
    });
    expect(states.map((s) => s.remaining)).toEqual([199, 198]);
  });

  it("ignores malformed values instead of throwing", async () => {
    server = await startServer((_req, res) =>
      sendJson(res, 200, successExample("getFiatRates"), {
        [RATE_LIMIT_HEADERS.limit]: "abc",
        [RATE_LIMIT_HEADERS.remaining]: "-1",
        [RATE_LIMIT_HEADERS.reset]: "1.5e9",
      }),
    );
    const client = createClient({ baseUrl: server.baseUrl });
    const { response } = await client.GET("/currencies/fiat-rates");
    expect(response.status).toBe(200);
    expect(client.rateLimit).toBeUndefined();
  });

  it("keeps each valid field and drops each malformed one", () => {
    const state = readRateLimit(
      new Headers({
        [RATE_LIMIT_HEADERS.limit]: " 200 ",
        [RATE_LIMIT_HEADERS.remaining]: "twelve",
        [RATE_LIMIT_HEADERS.reset]: "1900000000",
      }),
      5,
    );
    expect(state).toEqual({ limit: 200, remaining: undefined, reset: 1_900_000_000, observedAt: 5 });
    for (const bad of ["", " ", "-1", "1.5", "0x10", "1e3", "99999999999999999999", "NaN", "12abc"])
      expect(parseIntegerHeader(bad), bad).toBeUndefined();
    expect(parseIntegerHeader("0")).toBe(0);
    expect(parseRetryAfter("2", 0)).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfter("soon", 0)).toBeUndefined();
  });
});

// The key is sent; the secret never is (it only signs). Both get the same protection: each case runs for both,
// and a server that knows the credential echoes it back wherever it can.
const SECRET = "whsec_4b3a29f1e8d7-PRIVATE";
describe.each([
  ["API key", KEY],
  ["API secret", SECRET],
] as const)("the %s never leaks", (_, credential) => {
  const options = { apiKey: KEY, apiSecret: SECRET };

  it("from the client object", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, successExample("getFiatRates")));
    const client = createClient({ baseUrl: server.baseUrl, ...options });
    await client.GET("/currencies/fiat-rates");
    for (const text of exposures(client)) expect(text).not.toContain(credential);
  });

  it("from ApiError, even when the server echoes it in its body", async () => {
    server = await startServer((_req, res) =>
      sendJson(res, 401, { message: `invalid credential ${credential}`, [credential]: true }),
    );
    const client = createClient({ baseUrl: server.baseUrl, ...options });
    const error = await unwrap(client.GET("/trades/summary/me")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).body).toEqual({ message: "invalid credential [REDACTED]", "[REDACTED]": true });
    for (const text of exposures(error)) expect(text).not.toContain(credential);
  });

  it("from TimeoutError, NetworkError and InvalidResponseError", async () => {
    server = await startServer((req, res) => {
      if (req.url?.includes("fiat-rates")) return; // never answers
      if (req.url?.includes("wallets")) return req.socket.destroy();
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(`your credential is ${credential}`);
    });
    useFakeClock(); // the timeout fires when the clock is moved, once the other two calls have ended
    const client = createClient({ baseUrl: server.baseUrl, ...options, timeoutMs: 100, retry: false });
    const calls = [
      client.GET("/currencies/fiat-rates"),
      client.GET("/wallets/USDT"),
      client.GET("/transactions/me"),
    ].map((call) => track<unknown>(call));
    await until(
      () => calls[1]!.settled && calls[2]!.settled && server!.requests.length === 3,
      "the other calls to end",
    );
    await vi.advanceTimersByTimeAsync(100);
    await until(() => calls[0]!.settled, "the timeout");
    const errors = calls.map((call) => call.error);
    expect(errors[0]).toBeInstanceOf(TimeoutError);
    expect(errors[1]).toBeInstanceOf(NetworkError);
    expect(errors[2]).toBeInstanceOf(InvalidResponseError);
    expect((errors[2] as InvalidResponseError).bodyPreview).toBe("your credential is [REDACTED]");
    for (const error of errors) for (const text of exposures(error)) expect(text).not.toContain(credential);
  });

  it("from every occurrence: a body that repeats it has none left", async () => {
    server = await startServer((req, res) => {
      if (req.url?.includes("summary"))
        return sendJson(res, 401, { message: `${credential} twice: ${credential}`, list: [credential, credential] });
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(`${credential}/${credential}`);
    });
    const client = createClient({ baseUrl: server.baseUrl, ...options, retry: false });
    const result = await client.GET("/trades/summary/me");
    expect(result.error).toEqual({ message: "[REDACTED] twice: [REDACTED]", list: ["[REDACTED]", "[REDACTED]"] });
    const error = await unwrap(client.GET("/trades/summary/me")).catch((e: unknown) => e);
    expect((error as ApiError).body).toEqual({
      message: "[REDACTED] twice: [REDACTED]",
      list: ["[REDACTED]", "[REDACTED]"],
    });
    const invalid = await client.GET("/currencies/fiat-rates").catch((e: unknown) => e);
    expect((invalid as InvalidResponseError).bodyPreview).toBe("[REDACTED]/[REDACTED]");
    for (const text of [...exposures(error), ...exposures(invalid)]) expect(text).not.toContain(credential);
  });

  it("from a body preview that the 200-character cut would split it in (redacted first, then cut)", async () => {
    // The credential starts 10 characters before the cut: cutting first would leave its first 10 characters.
    const padding = "p".repeat(190);
    server = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`${padding}${credential} and more after it`);
    });
    const client = createClient({ baseUrl: server.baseUrl, ...options, retry: false });
    const error = (await client.GET("/currencies/fiat-rates").catch((e: unknown) => e)) as InvalidResponseError;
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.bodyPreview).toBe(`${padding}[REDACTED] and more after it`.slice(0, 200));
    expect(error.bodyPreview).not.toContain(credential.slice(0, 6));
    for (const text of exposures(error)) expect(text).not.toContain(credential.slice(0, 6));
  });

  it("from a NetworkError whose cause mentions it (custom fetch)", async () => {
    const client = createClient({
      baseUrl: "http://127.0.0.1:9/v1",
      ...options,
      retry: false,
      fetch: () => Promise.reject(new TypeError(`failed with ${credential}`)),
    });
    const error = await client.GET("/currencies/fiat-rates").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(((error as NetworkError).cause as Error).message).toBe("failed with [REDACTED]");
    for (const text of exposures(error)) expect(text).not.toContain(credential);
  });

  it("from hook events", async () => {
    server = await startServer((_req, res, _seen, i) =>
      i === 0 ? sendJson(res, 503, {}) : sendJson(res, 200, successExample("getFiatRates")),
    );
    const events: unknown[] = [];
    const record = (e: unknown) => events.push(e);
    const client = createClient({
      baseUrl: server.baseUrl,
      ...options,
      retry: { baseDelayMs: 0 },
      hooks: { onRequest: record, onResponse: record, onRetry: record, onRateLimit: record },
    });
    await client.GET("/currencies/fiat-rates");
    expect(events.length).toBeGreaterThanOrEqual(6);
    for (const text of exposures(events)) expect(text).not.toContain(credential);
  });
});

describe("error messages", () => {
  const info = { method: "GET", path: "/currencies/fiat-rates", operationId: "getFiatRates", url: "u" };

  it("an API error ends with the error body's message: on one line, shortened; nothing for another body", () => {
    const apiError = (body: unknown) => new ApiError(info, 422, "", body, undefined, new Response(null)).message;
    const start = "GET /currencies/fiat-rates (getFiatRates) failed with HTTP 422";
    expect(apiError({ message: "amount\n  too low", errors: [{ message: "amount too low" }] })).toBe(
      `${start}: amount too low`,
    );
    expect(apiError({ message: "x".repeat(300) })).toBe(`${start}: ${"x".repeat(199)}…`);
    expect(apiError({ message: "x".repeat(200) })).toBe(`${start}: ${"x".repeat(200)}`);
    for (const body of [{ message: " " }, { message: 7 }, { errors: [] }, "text", null, ["message"]])
      expect(apiError(body), JSON.stringify(body)).toBe(start);
  });

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
});

describe("unwrap", () => {
  it("unwrap throws for an error status without an error body, and for an error body with a 2xx", async () => {
    await expect(unwrap({ response: new Response(null, { status: 500 }) })).rejects.toBeInstanceOf(ApiError);
    await expect(
      unwrap({ data: 1, error: { message: "x" }, response: new Response(null, { status: 200 }) }),
    ).rejects.toBeInstanceOf(ApiError);
  });

  it("unwrap of a result another client made: method UNKNOWN, the URL's path (or the URL without one)", async () => {
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
    expect((error as ApiError).message).toBe("UNKNOWN /v1/networks failed with HTTP 503 Service Unavailable: down");
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
});
