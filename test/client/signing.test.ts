// Request signing (observed in a real client): the exact signed string and signature against a vector
// computed independently, and on real sockets what the server receives, including a query and a retry; a signer
// needs Web Crypto, and a secret it refuses fails the signed request (no unhandled rejection before).
import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient, createSigner, MOCK_BASE_URL, SIGNING_HEADERS, signingString } from "../../src/index.js";
import { track, until, useFakeClock } from "./support/clock.js";
import { sendJson, startServer, type SeenRequest, type TestServer } from "./support/server.js";
import { signingHeaderNames } from "../../src/openapi/index.js";
import { API_KEY_HEADER, BASE_PATH, loadSpec, successExample } from "../support/spec.js";

let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

const SECRET = "s3cret";

// Computed with OpenSSL, not with the code under test:
//   printf '%s' 'GET/v1/currencies/fiat-rates1700000000000' | openssl dgst -sha256 -hmac s3cret
//   printf '%s' 'GET/v1/transactions/me?page=1&pageSize=30&category=DEPOSIT1700000000000' \
//     | openssl dgst -sha256 -hmac s3cret
const VECTORS = [
  {
    method: "GET",
    url: "https://api.example.com/v1/currencies/fiat-rates",
    signed: "GET/v1/currencies/fiat-rates1700000000000",
    signature: "ece0ab4cc6577304fa2104f6c84454050b3b5ead1ede4e961ed1f4dcea9830ae",
  },
  {
    method: "get",
    url: "https://api.example.com/v1/transactions/me?page=1&pageSize=30&category=DEPOSIT",
    signed: "GET/v1/transactions/me?page=1&pageSize=30&category=DEPOSIT1700000000000",
    signature: "d7afb1938a19a2d6d8f6ccba38ccefc7d9883abebf4ad2d6cf7a5e1afc123cdc",
  },
];

/** What the server can check on its own: the signature of what it received, with node:crypto (not Web Crypto). */
function expectSigned(seen: SeenRequest): string {
  const timestamp = seen.headers[SIGNING_HEADERS.timestamp];
  const signature = seen.headers[SIGNING_HEADERS.signature];
  expect(timestamp).toMatch(/^[0-9]+$/);
  expect(signature).toMatch(/^[0-9a-f]{64}$/);
  expect(signature).toBe(createHmac("sha256", SECRET).update(`${seen.method}${seen.url}${timestamp}`).digest("hex"));
  return String(timestamp);
}

describe("signing", () => {
  it("uses the header names the spec marks x-signing", () => {
    expect(SIGNING_HEADERS).toEqual(signingHeaderNames(loadSpec()));
  });

  it.each(VECTORS)("signs METHOD + PATH + TIMESTAMP exactly: $signed", async ({ method, url, signed, signature }) => {
    const pathWithQuery = url.slice("https://api.example.com".length);
    expect(signingString(method, pathWithQuery, "1700000000000")).toBe(signed);
    expect(await createSigner(SECRET, () => 1_700_000_000_000)(method, url)).toEqual({
      timestamp: "1700000000000",
      signature,
    });
  });

  it("sends a valid timestamp and signature with the key, for a GET with a query and a POST with a body", async () => {
    server = await startServer((req, res) =>
      sendJson(res, 200, successExample(req.method === "GET" ? "getUserTransactions" : "resendWebhooks")),
    );
    const now = Date.UTC(2030, 0, 1);
    useFakeClock(now); // the timestamps are the fake clock's moment, exactly
    const client = createClient({ baseUrl: server.baseUrl, apiKey: "key-1", apiSecret: SECRET });
    await client.GET("/transactions/me", { params: { query: { page: 1, pageSize: 30, category: "DEPOSIT" } } });
    await client.POST("/transactions/resendWebhooks", { body: { ids: ["txn-1"] } });
    expect(server.requests.map((r) => r.url)).toEqual([
      `${BASE_PATH}/transactions/me?page=1&pageSize=30&category=DEPOSIT`,
      `${BASE_PATH}/transactions/resendWebhooks`,
    ]);
    for (const seen of server.requests) {
      expect(seen.headers[API_KEY_HEADER]).toBe("key-1");
      expect(Number(expectSigned(seen))).toBe(now);
    }
    expect(server.requests[1]!.body).toBe(JSON.stringify({ ids: ["txn-1"] }));
  });

  it("signs a retry anew: a fresh timestamp and its own signature", async () => {
    // On the fake clock: the first attempt's 503 is held until the clock has moved on 20 ms, and the retry's
    // backoff (under 1 ms) is waited out on the same clock.
    useFakeClock(Date.UTC(2030, 0, 1));
    let holdFirst: (() => void) | undefined;
    server = await startServer((_req, res, _seen, index) => {
      if (index === 0) holdFirst = () => sendJson(res, 503, {});
      else sendJson(res, 200, successExample("getFiatRates"));
    });
    const client = createClient({
      baseUrl: server.baseUrl,
      apiKey: "key-1",
      apiSecret: SECRET,
      retry: { baseDelayMs: 1 },
    });
    const call = track(client.GET("/currencies/fiat-rates"));
    await until(() => holdFirst !== undefined, "the first attempt");
    await vi.advanceTimersByTimeAsync(20);
    holdFirst!();
    await until(() => server!.requests.length === 2, "the retry");
    await until(() => call.settled, "the retried call");
    expect(call.value?.response.status).toBe(200);
    const [first, second] = server.requests.map(expectSigned);
    expect(Number(second) - Number(first)).toBe(20);
    expect(server.requests[1]!.headers[SIGNING_HEADERS.signature]).not.toBe(
      server.requests[0]!.headers[SIGNING_HEADERS.signature],
    );
  });

  it("signs an Accept Quote sent without a body", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, successExample("acceptQuote")));
    const client = createClient({ baseUrl: server.baseUrl, apiKey: "key-1", apiSecret: SECRET });
    await client.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: "qt_1" } } });
    expect(server.requests[0]!.url).toBe("/v1/trades/quote/qt_1");
    expect(server.requests[0]!.body).toBe("");
    expectSigned(server.requests[0]!);
  });

  it("sends no signing headers without a secret", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, successExample("getFiatRates")));
    await createClient({ baseUrl: server.baseUrl, apiKey: "key-1" }).GET("/currencies/fiat-rates");
    expect(server.requests[0]!.headers[SIGNING_HEADERS.timestamp]).toBeUndefined();
    expect(server.requests[0]!.headers[SIGNING_HEADERS.signature]).toBeUndefined();
  });

  it("refuses an unusable secret, or a secret without a key, without echoing it", () => {
    for (const apiSecret of [
      "",
      " padded",
      "line\nbreak",
      "bell\u0007",
      "\u0007",
      "tab\tinside",
      "nul\u0000",
      "del\u007f",
      "esc\u001b[0m",
      "cr\r",
    ]) {
      const attempt = () => createClient({ baseUrl: MOCK_BASE_URL, apiKey: "key-1", apiSecret });
      expect(attempt, JSON.stringify(apiSecret)).toThrow(
        /apiSecret must be a non-empty string \(no line breaks, control characters or surrounding spaces\)/,
      );
      try {
        attempt();
      } catch (error) {
        if (apiSecret) expect((error as Error).message).not.toContain(apiSecret);
      }
    }
    expect(() => createClient({ baseUrl: MOCK_BASE_URL, apiSecret: SECRET })).toThrow(/give apiKey too/);
  });
});

describe("createSigner's failures", () => {
  it("createSigner: a secret Web Crypto refuses fails the signed request, no unhandled rejection before", async () => {
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
