// The sandbox in a browser: createSandbox and ./msw's createSandboxHandlers bundled from src/ by esbuild for the
// browser (no Node built-in, no Prism), behind MSW's service worker (msw/browser's setupWorker) in Debian's
// Chromium. The page sets up an account through the control API, trades with the package's client, reads the
// wallet the trade moved, and finds the second accept of the same quote refused. The server serves only the page,
// its script and the worker: any request under the base path or /_sandbox that reaches it was not intercepted.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { type BrowserPage, openBrowserPage } from "../support/browser-page.js";
import { BASE_PATH, repoRoot } from "../support/spec.js";

/** The page's script: what a consumer's browser test does with the sandbox. Its outcome goes to window.outcome. */
const PAGE_SCRIPT = `
import { setupWorker } from "msw/browser";
import { createClient, unwrap } from "./src/index.ts";
import { createSandboxHandlers } from "./src/msw/index.ts";
import { createSandbox } from "./src/sandbox/index.ts";

const baseUrl = location.origin + ${JSON.stringify(BASE_PATH)};
try {
  const sandbox = createSandbox({ clock: { start: Date.UTC(2026, 0, 1) } });
  const worker = setupWorker(...createSandboxHandlers(sandbox, { baseUrl }));
  await worker.start({ quiet: true, serviceWorker: { url: "/mockServiceWorker.js" }, onUnhandledRequest: "error" });
  const account = await fetch(location.origin + "/_sandbox/accounts/browser-key", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ balances: { USDT: 25, NGNX: 0 } }),
  });
  const api = createClient({ baseUrl, apiKey: "browser-key", retry: false });
  const sell = { sourceId: "USDT", targetId: "NGNX", amount: 5, side: "SELL" };
  const quote = await unwrap(api.POST("/trades/quote", { body: sell }));
  const accept = () => api.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: quote.data.id } }, body: {} });
  const first = await accept();
  const second = await accept();
  const wallet = await unwrap(api.GET("/wallets/USDT"));
  window.outcome = {
    account: account.status,
    accepts: [first.response.status, second.response.status],
    usdt: wallet.data.availableBalance,
    held: sandbox.getAccount("browser-key").balances.USDT,
  };
} catch (error) {
  window.outcome = { error: String(error && error.stack || error) };
}
`;

/** Requests for the API or the control API that reached the server: each one escaped the worker. */
const escaped: string[] = [];
let browserPage: BrowserPage;

beforeAll(async () => {
  const worker = await readFile(path.join(repoRoot, "node_modules", "msw", "lib", "mockServiceWorker.js"));
  browserPage = await openBrowserPage({
    name: "msw-sandbox",
    script: PAGE_SCRIPT,
    files: { "/mockServiceWorker.js": ["text/javascript", worker] },
    onRequest: (request) => {
      if (request.url?.startsWith(BASE_PATH) || request.url?.startsWith("/_sandbox"))
        escaped.push(`${request.method} ${request.url}`);
    },
  });
}, 60_000);

afterAll(async () => {
  await browserPage?.close();
});

it("runs the sandbox in Chromium behind MSW's service worker: the control API, a trade accepted once", async () => {
  const outcome = (await browserPage.outcome()) as { accepts?: number[] };
  expect(outcome).toEqual({ account: 200, accepts: [200, REFUSAL_STATUS.quoteAccepted], usdt: 20, held: 20 });
  expect(escaped).toEqual([]);
});
