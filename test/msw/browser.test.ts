// The ./msw handlers in a browser: MSW's service worker (msw/browser's setupWorker) in Debian's Chromium, on a
// page of this test's own served from 127.0.0.1, with the handlers and the package's client bundled from src/
// by esbuild. The page calls the client as a consumer's browser test would: the documented answer, one
// operation overridden, a documented 429 on request, the documented 401 without a key. The server serves
// only the page, its script and the worker: any request under the base path that reaches it was not mocked.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { readFile, rm } from "node:fs/promises";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_FLAGS } from "../../scripts/lib/chromium.js";
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

let server: http.Server;
let origin: string;
let context: BrowserContext;
let userDataDir: string;
/** Requests under the base path that reached the server: each one escaped the worker. */
const unmocked: string[] = [];

beforeAll(async () => {
  const bundle = await build({
    stdin: { contents: PAGE_SCRIPT, resolveDir: repoRoot, loader: "ts", sourcefile: "page.ts" },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const files: Record<string, [string, string | Uint8Array]> = {
    "/": [
      "text/html",
      '<!doctype html><meta charset="utf-8"><title>msw</title><script type="module" src="/page.js"></script>',
    ],
    "/page.js": ["text/javascript", bundle.outputFiles[0]!.contents],
    "/mockServiceWorker.js": [
      "text/javascript",
      await readFile(path.join(repoRoot, "node_modules", "msw", "lib", "mockServiceWorker.js")),
    ],
  };
  server = http.createServer((req, res) => {
    const url = req.url ?? "/";
    const file = files[url];
    if (url.startsWith(BASE_PATH)) unmocked.push(`${req.method} ${url}`);
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  userDataDir = await mkdtemp(path.join(tmpdir(), "msw-chromium-"));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
  });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
});

it("answers the client in Chromium through MSW's service worker: documented answer, override, 429, 401", async () => {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${origin}/`);
  const outcome = await (
    await page.waitForFunction(() => (window as unknown as { outcome?: unknown }).outcome, undefined, {
      timeout: 30_000,
    })
  ).jsonValue();
  expect(outcome).toEqual({
    documented: (successExample("getTradesSummary") as { data: { totalDollarVolume: number } }).data.totalDollarVolume,
    overridden: OVERRIDDEN_VOLUME,
    limited: [429, String(rateLimitExamples()[RATE_LIMIT_HEADERS.limit])],
    anonymous: 401,
  });
  expect(unmocked).toEqual([]);
});
