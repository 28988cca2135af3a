// The sandbox in this process: the client and the control client send their requests to sandbox.fetch (no server).
// A quote accepted, a quote refused once the sandbox clock has moved past its 30 s, and a 429 once the hour's
// quotes are spent.
import { createClient, unwrap } from "@trading-wallet-settlement/api-contract";
import { createSandbox, createSandboxControl } from "@trading-wallet-settlement/api-contract/sandbox";

const sandbox = createSandbox({ clock: { start: Date.parse("2026-01-01T00:00:00Z") }, limits: { quotesPerHour: 3 } });
const baseUrl = "http://sandbox.test/v1";
const fetch = (request: Request) => sandbox.fetch(request);
// The control API, typed: a step it refuses throws a SandboxControlError.
const control = createSandboxControl({ baseUrl, fetch });
await control.putAccount("flow-key", { balances: { USDT: 100, NGNX: 0 } });
const api = createClient({ baseUrl, apiKey: "flow-key", fetch, retry: false });

const sell = { sourceId: "USDT", targetId: "NGNX", amount: 10, side: "SELL" } as const;
const accept = (quoteId: string) => api.POST("/trades/quote/{quoteId}", { params: { path: { quoteId } }, body: {} });

const quote = await unwrap(api.POST("/trades/quote", { body: sell }));
const trade = await unwrap(accept(quote.data.id));
const usdt = await unwrap(api.GET("/wallets/USDT"));

// A quote lives 30 s on the sandbox clock: move that clock, not the wall clock.
const late = await unwrap(api.POST("/trades/quote", { body: sell }));
await control.advanceClock(31_000);
const expired = await accept(late.data.id);

// The third quote of the hour is the last the limit allows: the fourth is refused 429.
await unwrap(api.POST("/trades/quote", { body: sell }));
const limited = await api.POST("/trades/quote", { body: sell });

console.log(
  JSON.stringify({
    received: trade.data.amountReceived,
    usdt: usdt.data.availableBalance,
    expired: expired.response.status,
    limited: [limited.response.status, limited.response.headers.get("x-ratelimit-remaining")],
  }),
);
