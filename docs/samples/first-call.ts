// A typed call against the mock, started in this process on a free port of 127.0.0.1 (needs the optional peer
// @stoplight/prism-http). With `npx api-contract mock` running instead, use MOCK_BASE_URL as the base URL.
import { createClient, isQuoteExpired, unwrap } from "@trading-wallet-settlement/api-contract";
import { startMock } from "@trading-wallet-settlement/api-contract/mock";

const mock = await startMock();
try {
  // The mock takes any API key, but needs one.
  const api = createClient({ baseUrl: mock.baseUrl, apiKey: "any-key-for-the-mock" });
  const rates = await unwrap(api.GET("/currencies/fiat-rates")); // rates.data: FiatRate[]
  const quote = await unwrap(
    api.POST("/trades/quote", { body: { sourceId: "USDT", targetId: "NGNX", amount: 100, side: "SELL" } }),
  );
  console.log(JSON.stringify({ rates: rates.data.length, expired: isQuoteExpired(quote.data) }));
} finally {
  await mock.stop();
}
