// In-process: the package's client hands its requests to sandbox.fetch (no server, no interception), and so does
// the control API's typed client, which drives this sandbox as it would one over HTTP.
import { createClient, unwrap } from "@trading-wallet-settlement/api-contract";
import { createSandbox, createSandboxControl } from "@trading-wallet-settlement/api-contract/sandbox";

const sandbox = createSandbox({ clock: { start: Date.parse("2026-01-01T00:00:00Z") }, limits: { quotesPerHour: 3 } });
const baseUrl = "http://sandbox.test/v1";
const fetch = (request: Request) => sandbox.fetch(request);
const api = createClient({ baseUrl, apiKey: "test-key", fetch });
const control = createSandboxControl({ baseUrl, fetch });

await control.putAccount("test-key", { balances: { USDT: 100 } });
const usdt = await unwrap(api.GET("/wallets/USDT"));
const sell = { sourceId: "USDT", targetId: "NGNX", amount: 10, side: "SELL" } as const;
// The sandbox clock stands at its start until a test moves it: the quote expires 30 s after it.
const quote = await unwrap(api.POST("/trades/quote", { body: sell }));
console.log(JSON.stringify({ usdt: usdt.data.availableBalance, expiryDate: quote.data.expiryDate }));
