// The ./msw handlers in a browser: MSW's service worker (msw/browser's setupWorker) in Debian's Chromium, on a
// page of this test's own served from 127.0.0.1, with the handlers and the package's client bundled from src/
// by esbuild. The page calls the client as a consumer's browser test would: the documented answer, one
// operation overridden, a documented 429 on request, the documented 401 without a key. The server serves
// only the page, its script and the worker: any request under the base path that reaches it was not mocked.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BrowserPage, openBrowserPage } from "../support/browser-page.js";
import { BASE_PATH, RATE_LIMIT_HEADERS, rateLimitExamples, repoRoot, successExample } from "../support/spec.js";

const OVERRIDDEN_VOLUME = 42;

/** The page's script: what a consumer's browser test does with ./msw. Its outcome goes to window.outcome. */
const PAGE_SCRIPT = `
import { setupWorker } from "msw/browser";
import { createClient, unwrap } from "./src/index.ts";
import { createHandlers, createHttp } from "./src/msw/index.ts";

const baseUrl = location.origin + ${JSON.stringify(BASE_PATH)};
try {
  const worker = setupWorker(...createHandlers({ baseUrl }));
  await worker.start({ quiet: true, serviceWorker: { url: "/mockServiceWorker.js" }, onUnhandledRequest: "error" });
  const api = createClient({ baseUrl, apiKey: "browser-key", retry: false });
  const documented = await unwrap(api.GET("/trades/summary/me"));
  worker.use(createHttp(baseUrl).get("/trades/summary/me", ({ response }) =>
    response(200).json({ message: "ok", data: { totalDollarVolume: ${OVERRIDDEN_VOLUME} } })));
  const overridden = await unwrap(api.GET("/trades/summary/me"));
  worker.resetHandlers();
  const limited = await api.GET("/trades/summary/me", { headers: { prefer: "code=429" } });
  const anonymous = await createClient({ baseUrl, retry: false }).GET("/trades/summary/me");
  window.outcome = {
    documented: documented.data.totalDollarVolume,
    overridden: overridden.data.totalDollarVolume,
    limited: [limited.response.status, limited.response.headers.get(${JSON.stringify(RATE_LIMIT_HEADERS.limit)})],
    anonymous: anonymous.response.status,
  };
} catch (error) {
  window.outcome = { error: String(error && error.stack || error) };
}
`;

/** Requests under the base path that reached the server: each one escaped the worker. */
const unmocked: string[] = [];
let browserPage: BrowserPage;

beforeAll(async () => {
  const worker = await readFile(path.join(repoRoot, "node_modules", "msw", "lib", "mockServiceWorker.js"));
  browserPage = await openBrowserPage({
    name: "msw",
    script: PAGE_SCRIPT,
    files: { "/mockServiceWorker.js": ["text/javascript", worker] },
    onRequest: (request) => {
      if (request.url?.startsWith(BASE_PATH)) unmocked.push(`${request.method} ${request.url}`);
    },
  });
}, 60_000);

afterAll(async () => {
  await browserPage?.close();
});

it("answers the client in Chromium through MSW's service worker: documented answer, override, 429, 401", async () => {
  const outcome = await browserPage.outcome();
  expect(outcome).toEqual({
    documented: (successExample("getTradesSummary") as { data: { totalDollarVolume: number } }).data.totalDollarVolume,
    overridden: OVERRIDDEN_VOLUME,
    limited: [429, String(rateLimitExamples()[RATE_LIMIT_HEADERS.limit])],
    anonymous: 401,
  });
  expect(unmocked).toEqual([]);
});
