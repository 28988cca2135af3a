// sandbox-flow.ts: the worked flow against `npx api-contract sandbox --config sandbox.json`, whose sandbox.json
// allows 3 quotes an hour. Rates, a quote accepted, the wallet and the history it changed, a quote refused as
// expired once the sandbox clock has moved past its 30 s, and a 429 once the hour's quotes are spent.
import { createClient, unwrap } from "@trading-wallet-settlement/api-contract";
import { createSandboxControl } from "@trading-wallet-settlement/api-contract/sandbox";

const baseUrl = process.env.SANDBOX_URL ?? "http://127.0.0.1:4020/v1";
// The control API, typed; a step it refuses throws a SandboxControlError (with --token, give it { baseUrl, token }).
const control = createSandboxControl({ baseUrl });
// A fresh account for this key (it replaces an earlier one; no other key's data changes).
await control.putAccount("flow-key", { balances: { USDT: 100, NGNX: 0 } });
const api = createClient({ baseUrl, apiKey: "flow-key", retry: false });
const sell = { sourceId: "USDT", targetId: "NGNX", amount: 10, side: "SELL" } as const;

const rates = await unwrap(api.GET("/currencies/fiat-rates"));
const quote = await unwrap(api.POST("/trades/quote", { body: sell }));
const accept = (quoteId: string) => api.POST("/trades/quote/{quoteId}", { params: { path: { quoteId } }, body: {} });
const trade = await unwrap(accept(quote.data.id));
const usdt = await unwrap(api.GET("/wallets/USDT")); // 100 - 10
const history = await unwrap(api.GET("/transactions/me")); // a SWAP DEBIT of USDT, a SWAP CREDIT of NGNX

// A quote lives 30 s on the sandbox's clock: move that clock, not the wall clock.
const late = await unwrap(api.POST("/trades/quote", { body: sell }));
await control.advanceClock(31_000);
const expired = await accept(late.data.id); // refused: the quote has expired
// The contract leaves an error body open (any JSON); the sandbox answers the published { message, errors }.
const refusal = expired.error as { message?: string } | undefined;

// The third quote of the hour is the last the limit allows: the fourth is refused 429.
await unwrap(api.POST("/trades/quote", { body: sell }));
const limited = await api.POST("/trades/quote", { body: sell });

console.log(
  JSON.stringify({
    sellRate: rates.data.find((rate) => rate.currency === "NGNX")?.sellRate,
    received: trade.data.amountReceived,
    usdt: usdt.data.availableBalance,
    swaps: history.data
      .filter((t) => t.category === "SWAP")
      .map((t) => t.type)
      .sort(),
    expired: [expired.response.status, refusal?.message],
    limited: [limited.response.status, limited.response.headers.get("x-ratelimit-remaining")],
  }),
);
