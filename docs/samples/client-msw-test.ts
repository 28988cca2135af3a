// api.test.mts (vitest; ./msw is ESM only)
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { createHandlers, createHttp } from "@trading-wallet-settlement/api-contract/msw";
import { createClient, isQuoteExpired, MOCK_BASE_URL, unwrap } from "@trading-wallet-settlement/api-contract";

const server = setupServer(...createHandlers()); // every operation answers its documented example
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());
const api = createClient({ baseUrl: MOCK_BASE_URL, apiKey: "test", retry: false });

it("gets the documented answers; a new quote has not expired", async () => {
  const summary = await unwrap(api.GET("/trades/summary/me"));
  expect(summary.data.totalDollarVolume).toBeGreaterThan(0);
  const quote = await unwrap(
    api.POST("/trades/quote", { body: { sourceId: "USDT", targetId: "NGNX", amount: 100, side: "SELL" } }),
  );
  expect(isQuoteExpired(quote.data)).toBe(false);
});

it("takes one operation's answer from the test", async () => {
  const http = createHttp(); // typed by the contract: paths, params, bodies
  server.use(
    http.get("/trades/summary/me", ({ response }) =>
      response(200).json({ message: "ok", data: { totalDollarVolume: 42 } }),
    ),
  );
  expect((await unwrap(api.GET("/trades/summary/me"))).data.totalDollarVolume).toBe(42);
});

it("answers a documented error: 429 when asked, 401 without a key", async () => {
  const limited = await api.GET("/trades/summary/me", { headers: { prefer: "code=429" } });
  expect(limited.response.status).toBe(429);
  const noKey = await createClient({ baseUrl: MOCK_BASE_URL, retry: false }).GET("/trades/summary/me");
  expect(noKey.response.status).toBe(401);
});
