// The sandbox engine in a browser: createSandbox bundled from src/ for the browser by esbuild (no Node built-in
// can be in it) and run in Debian's Chromium on a page served from 127.0.0.1. The page signs its requests with
// Web Crypto as the package's client does, quotes, accepts and reads its wallets, and puts its state back (read and
// checked a store at a time, a turn of the page's event loop between two stores), all through sandbox.fetch.
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BrowserPage, openBrowserPage } from "../support/browser-page.js";

const PAGE_SCRIPT = `
import { createSigner } from "./src/client/signing.ts";
import { createSandbox } from "./src/sandbox/index.ts";
import { API_KEY_HEADER, SIGNING_HEADERS } from "./generated/client-meta.ts";

try {
  const bugs = [];
  const sandbox = createSandbox({
    clock: { start: Date.UTC(2026, 10, 26, 10) },
    accounts: { browser: { balances: { USDT: 500 }, apiSecret: "page-secret" } },
    log: (line) => bugs.push(line),
  });
  const sign = createSigner("page-secret", () => sandbox.clock.now());
  const call = async (method, path, body) => {
    const url = "http://sandbox.page" + path;
    const { timestamp, signature } = await sign(method, url);
    const headers = {
      [API_KEY_HEADER]: "browser",
      [SIGNING_HEADERS.timestamp]: timestamp,
      [SIGNING_HEADERS.signature]: signature,
    };
    if (body) headers["content-type"] = "application/json";
    const response = await sandbox.fetch(new Request(url, { method, headers, body: body && JSON.stringify(body) }));
    return { status: response.status, body: await response.json() };
  };
  const terms = { sourceId: "USDT", targetId: "NGNX", amount: 100, side: "SELL" };
  const quote = await call("POST", "/v1/trades/quote", terms);
  const trade = await call("POST", "/v1/trades/quote/" + quote.body.data.id, {});
  const again = await call("POST", "/v1/trades/quote/" + quote.body.data.id, {});
  const wallet = await call("GET", "/v1/wallets/USDT");
  const keyOnly = { headers: { [API_KEY_HEADER]: "browser" } };
  const unsigned = await sandbox.fetch(new Request("http://sandbox.page/v1/wallets/USDT", keyOnly));
  // A state put back: read and checked a store at a time, a turn of the page's event loop between two stores.
  for (let n = 0; n < 20; n++) sandbox.putAccount("other-" + n, {});
  const saved = sandbox.snapshot();
  const put = await sandbox.fetch(
    new Request("http://sandbox.page/_sandbox/state", { method: "PUT", body: JSON.stringify(saved) }),
  );
  const state = await sandbox.fetch(new Request("http://sandbox.page/_sandbox/state?secrets=true"));
  // The export writes the stores first: the parts are compared by name.
  const byName = (whole) => JSON.stringify(Object.entries(whole).sort(([a], [b]) => (a < b ? -1 : 1)));
  const restored = [put.status, byName(await state.json()) === byName(sandbox.snapshot())];
  window.outcome = {
    statuses: [quote.status, trade.status, again.status, wallet.status, unsigned.status],
    usdt: wallet.body.data.availableBalance,
    restored,
    bugs,
  };
} catch (error) {
  window.outcome = { error: String((error && error.stack) || error) };
}
`;

let page: BrowserPage;

beforeAll(async () => {
  page = await openBrowserPage({ name: "sandbox", script: PAGE_SCRIPT });
}, 60_000);

afterAll(async () => {
  await page?.close();
});

it("runs in a browser: signed quote, accept once, wallet moved, unsigned refused, state put back", async () => {
  const outcome = await page.outcome();
  expect(outcome).toEqual({ statuses: [200, 200, 400, 200, 401], usdt: 400, restored: [204, true], bugs: [] });
});
