// The docs site (npm run docs) as a person reads it: built once for this file into a scratch folder, served on
// 127.0.0.1 by `npm start` (its command, in a child process, as a reader starts it) and opened in Debian's Chromium
// (playwright-core) with the network cut (every request that leaves 127.0.0.1 is aborted and recorded). Every page
// the navigation and the sidebar link to loads without a page error; the references are reached from the navigation;
// the local search finds what a reader looks for; axe finds no WCAG A/AA violation on the home page and every guide;
// screenshots go to test-output/docs/.
import { existsSync, readdirSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENTRY_POINTS } from "../../scripts/docs-site.js";
import { CHROMIUM } from "../../scripts/lib/chromium.js";
import { binPath, runNode } from "../../scripts/lib/node-cli.js";
import { type DocsServer, startDocsServer } from "../../scripts/serve-docs.js";
import { repoRoot } from "../support/spec.js";
import { type NpmStart, startNpmStart } from "./support/npm-start.js";
import { launchOfflineChromium, type OfflineChromium } from "./support/offline-chromium.js";
import { type MenuOperation, openFromMenu, pixelSpread } from "./support/redoc.js";

const SCREENSHOTS = path.join(repoRoot, "test-output", "docs");
const AXE_SOURCE = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const controlDocument = JSON.parse(await readFile(path.join(repoRoot, "generated", "sandbox-control.json"), "utf8"));
const controlTagLabels = new Map<string, string>(
  ((controlDocument.tags ?? []) as { name: string; "x-displayName"?: string }[]).map((t) => [
    t.name,
    t["x-displayName"] ?? t.name,
  ]),
);
/** The control API's operations, as Redoc's menu lists them under their first tag. */
const controlOperations: (MenuOperation & { path: string })[] = Object.entries(
  controlDocument.paths as Record<string, Record<string, { summary?: string; operationId?: string; tags?: string[] }>>,
).flatMap(([route, item]) =>
  Object.entries(item)
    .filter(([method]) => ["get", "put", "post", "patch", "delete"].includes(method))
    .map(([method, op]) => ({
      method,
      path: route,
      summary: String(op.summary),
      operationId: String(op.operationId),
      tagLabel: controlTagLabels.get(String(op.tags?.[0])) ?? String(op.tags?.[0]),
    })),
);

let outDir: string;
let browser: OfflineChromium | undefined;
/** Where the pages are served: `npm start`'s docs server, else (the last test) `npm run docs:serve`'s. */
let docs: DocsServer;
let started: NpmStart | undefined;
let page: Page;
/** Page errors (console errors, uncaught exceptions, failed or 4xx/5xx local requests) since the last read. */
let problems: string[] = [];

function watch(target: Page) {
  target.on("console", (message) => {
    if (message.type() === "error") problems.push(`${target.url()}: ${message.text()}`);
  });
  target.on("pageerror", (error) => problems.push(`${target.url()}: uncaught ${error.message}`));
  target.on("requestfailed", (request) => {
    const url = new URL(request.url());
    const error = request.failure()?.errorText;
    // VitePress prefetches the pages its visible links lead to; leaving the page aborts those (ERR_ABORTED).
    if (url.hostname === "127.0.0.1" && error !== "net::ERR_ABORTED") problems.push(`${request.url()}: ${error}`);
  });
  target.on("response", (response) => {
    if (response.status() >= 400) problems.push(`${response.url()}: HTTP ${response.status()}`);
  });
}

/** Every guide of the site (docs/guide/*.md), by path. */
const GUIDES = readdirSync(path.join(repoRoot, "docs", "guide"))
  .filter((name) => name.endsWith(".md"))
  .map((name) => `/guide/${name.slice(0, -3)}`);

/** The Redoc pages the site holds (copied into it from docs/public/), by path. */
const REDOC_PAGES = ["/api/index.html", "/control-api/index.html"];

/**
 * Opens a page of the site (a path such as /guide/sandbox) and waits until VitePress has shown it (a Redoc page:
 * until its heading is shown).
 */
async function open(pathname: string) {
  const response = await page.goto(new URL(pathname, docs.url).href, { waitUntil: "load" });
  expect(response?.status(), pathname).toBe(200);
  const shown = REDOC_PAGES.includes(pathname) ? '[data-component-name="Typography/H1"]' : ".VPDoc, .VPHome";
  await page.locator(shown).first().waitFor({ state: "visible" });
}

/** The same-origin paths the navigation bar and the sidebar of the current page link to. */
async function navigationLinks(): Promise<string[]> {
  const hrefs = await page
    .locator(".VPNav a[href], .VPSidebar a[href]")
    .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
  const origin = new URL(docs.url).origin;
  return [...new Set(hrefs.filter((href) => href.startsWith(origin)).map((href) => new URL(href).pathname))];
}

/** Types `query` into VitePress's local search box and reads the results' text. */
async function search(query: string): Promise<string[]> {
  await page.locator(".VPNavBarSearch button").first().click();
  const input = page.locator("#localsearch-input");
  await input.waitFor({ state: "visible" });
  await input.fill(query);
  const results = page.locator(".VPLocalSearchBox .results .result");
  await results.first().waitFor({ state: "visible" });
  const texts = await results.allInnerTexts();
  await page.keyboard.press("Escape");
  await input.waitFor({ state: "detached" });
  return texts;
}

/** axe's WCAG 2.x A and AA violations of the current page, one line each. */
async function axeViolations(): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<any> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
    });
    return (result.violations as { id: string; nodes: { target: string[] }[] }[]).map(
      (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
    );
  });
  return violations;
}

describe("the docs site in Chromium, offline", () => {
  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (never \`playwright install\`)`);
    await mkdir(SCREENSHOTS, { recursive: true });
    outDir = await mkdtemp(path.join(tmpdir(), "docs-site-"));
    // As `npm run docs` builds it, in a process of its own (not under vitest's NODE_ENV=test).
    const built = await runNode(binPath("tsx"), [path.join(repoRoot, "scripts", "docs-site.ts"), "--out", outDir], {
      cwd: repoRoot,
    });
    console.log(built.stdout.trim().split("\n").at(-1));
    started = await startNpmStart(outDir);
    docs = { url: started.docsUrl, close: started.stop };
    browser = await launchOfflineChromium("docs-site");
    ({ page } = browser);
    watch(page);
  }, 600_000);

  // Each step runs even when an earlier one throws: the browser, the server, the folders.
  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      try {
        await docs?.close();
      } finally {
        if (outDir) await rm(outDir, { recursive: true, force: true });
      }
    }
  });

  it("serves the pages at their clean URLs and a 404 page for a path with none", async () => {
    for (const pathname of ["/", "/guide/getting-started", "/guide/sandbox", "/typescript/", "/control-api/"]) {
      const response = await fetch(new URL(pathname, docs.url));
      expect(response.status, pathname).toBe(200);
      expect(response.headers.get("content-type"), pathname).toMatch(/^text\/html/);
    }
    const missing = await fetch(new URL("/guide/no-such-page", docs.url));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("404");
  });

  it("shows the home page with its guides, and saves a screenshot", async () => {
    problems = [];
    await open("/");
    await expect.poll(() => page.locator(".VPHero .name").innerText()).toContain("API contract");
    expect(await page.locator(".VPHero .actions").innerText()).toContain("Getting started in five minutes");
    const png = await page.screenshot({ path: path.join(SCREENSHOTS, "site-home.png"), fullPage: true });
    expect(await pixelSpread(page, png)).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });

  it("loads every page the navigation and the sidebar link to without a page error", async () => {
    await open("/guide/getting-started");
    const links = await navigationLinks();
    const guides = GUIDES;
    for (const wanted of [...guides, "/typescript/", "/api/index.html", "/control-api/index.html"])
      expect(links, wanted).toContain(wanted);
    // The TypeScript sidebar lists a page per export; the guides' sidebars add nothing else.
    await open("/typescript/");
    const all = [...new Set([...links, ...(await navigationLinks())])];
    expect(all.filter((link) => link.startsWith("/typescript/")).length).toBeGreaterThan(20);
    const failed: string[] = [];
    for (const link of all) {
      problems = [];
      await open(link);
      failed.push(...problems);
    }
    expect(failed).toEqual([]);
    expect(browser!.externalRequests).toEqual([]);
  }, 600_000);

  // The page is generated/docs/index.html byte for byte, whose every operation docs-page.test.ts reaches.
  it("reaches the API reference from the navigation: the Redoc page of generated/docs", async () => {
    await open("/");
    problems = [];
    await page.locator(".VPNavBarMenuGroup").filter({ hasText: "References" }).hover();
    await page.getByRole("link", { name: "API reference", exact: true }).first().click();
    await page.waitForURL(/\/api\/index\.html$/);
    const title = page.locator('[data-component-name="Typography/H1"]').first();
    await title.waitFor({ state: "visible" });
    const spec = JSON.parse(await readFile(path.join(repoRoot, "generated", "openapi.json"), "utf8"));
    expect(await title.innerText()).toContain(spec.info.title);
    const served = await (await fetch(new URL("/api/index.html", docs.url))).text();
    expect(served === (await readFile(path.join(repoRoot, "generated", "docs", "index.html"), "utf8"))).toBe(true);
    expect(problems).toEqual([]);
  });

  it("reaches the control API reference from the navigation, every route on it; saves a screenshot", async () => {
    await open("/guide/sandbox");
    problems = [];
    await page.locator(".VPSidebar").getByRole("link", { name: "Control API reference", exact: true }).click();
    await page.waitForURL(/\/control-api\/index\.html$/);
    const title = page.locator('[data-component-name="Typography/H1"]').first();
    await title.waitFor({ state: "visible" });
    expect(await title.innerText()).toContain(controlDocument.info.title);
    const png = await page.screenshot({ path: path.join(SCREENSHOTS, "site-control-api.png") });
    expect(await pixelSpread(page, png)).toBeGreaterThan(10);
    // Each route from the menu (its tag opened), as docs-page.test.ts reaches the API's operations.
    expect(controlOperations.length).toBeGreaterThan(10);
    for (const op of controlOperations) {
      const text = await (await openFromMenu(page, op)).innerText();
      expect(text, op.operationId).toContain(op.summary);
      expect(text, op.operationId).toContain(op.path);
    }
    expect(problems).toEqual([]);
  });

  it("reaches the TypeScript reference from the navigation, with the package's entry points", async () => {
    await open("/");
    await page.locator(".VPNavBarMenuGroup").filter({ hasText: "References" }).hover();
    await page.getByRole("link", { name: "TypeScript reference", exact: true }).first().click();
    await page.waitForURL(/\/typescript\/$/);
    const text = await page.locator(".VPDoc").innerText();
    for (const entry of ["contract", "mock", "sandbox", "msw", "types"]) expect(text, entry).toContain(entry);
  });

  // Every value an entry point exports (its types are not seen at run time) has its page in the sidebar, under the
  // entry's folder of the reference (src/index.ts: index/, src/mock/index.ts: mock/), or, re-exported from another
  // entry, a link to that entry's page on its own entry's page.
  it.for(ENTRY_POINTS)(
    "reaches every value src/%s exports from the TypeScript reference's navigation",
    async (entry) => {
      const folder = path.dirname(entry) === "." ? path.basename(entry, ".ts") : path.dirname(entry);
      const names = Object.keys(await import(path.join(repoRoot, "src", entry)));
      await open(`/typescript/${folder}/`);
      // The text of each link of `selector` into the TypeScript reference (hrefs resolved: the pages' are relative).
      const texts = (selector: string) =>
        page
          .locator(selector)
          .evaluateAll((links) =>
            (links as HTMLAnchorElement[])
              .filter((link) => new URL(link.href).pathname.startsWith("/typescript/"))
              .map((link) => link.textContent?.trim() ?? ""),
          );
      const listed = await texts(`.VPSidebar a[href^="/typescript/${folder}/"]`);
      expect(listed.length, folder).toBeGreaterThan(0);
      const linked = [...listed, ...(await texts(".VPDoc a"))];
      expect(names.filter((name) => !linked.includes(name))).toEqual([]);
    },
  );

  it.for([
    ["sandbox", /sandbox/i],
    ["verifyWebhookSignature", /verifyWebhookSignature/],
    ["429", /429/],
  ] as const)('finds "%s" with the search box', async ([query, shown]) => {
    await open("/");
    const results = await search(query);
    expect(results.length, query).toBeGreaterThan(0);
    expect(
      results.some((text) => shown.test(text)),
      results.join("\n---\n"),
    ).toBe(true);
  });

  it("shows the sandbox guide with its sample, and saves a screenshot", async () => {
    problems = [];
    await open("/guide/sandbox");
    const sample = page.locator(".VPDoc div[class*='language-ts'] code").first();
    expect(await sample.innerText()).toContain("createSandboxControl");
    const png = await page.screenshot({ path: path.join(SCREENSHOTS, "site-sandbox-guide.png"), fullPage: true });
    expect(await pixelSpread(page, png)).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });

  it.for(["/", ...GUIDES])("finds no WCAG A/AA violation with axe on %s", async (pathname) => {
    await open(pathname);
    expect(await axeViolations()).toEqual([]);
  });

  it("shows the built folder as `npm run docs:serve` serves it too", async () => {
    const viaStart = docs;
    docs = await startDocsServer({ host: "127.0.0.1", port: 0, dir: outDir });
    try {
      problems = [];
      for (const pathname of ["/", "/guide/sandbox"]) await open(pathname);
      expect(await page.locator(".VPDoc h1").first().innerText()).toContain("sandbox");
      expect(problems).toEqual([]);
    } finally {
      await docs.close();
      docs = viaStart;
    }
  });

  it("sent no request off 127.0.0.1", () => {
    expect(browser!.externalRequests).toEqual([]);
  });
});
