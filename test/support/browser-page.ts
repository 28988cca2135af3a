// A page of a test's own in Debian's Chromium (playwright-core): a script bundled from src/ by esbuild for the
// browser, served with the test's other files from 127.0.0.1 (a secure context, as Web Crypto and service workers
// need). The script puts its outcome in window.outcome; `outcome()` loads the page and returns it.
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { type BrowserContext, chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS } from "../../scripts/lib/chromium.js";
import { repoRoot } from "./spec.js";

/** A file the page's server serves: its content type and its content. */
type ServedFile = [contentType: string, content: string | Uint8Array];

interface BrowserPageOptions {
  /** The page's title (and the name of its profile directory). */
  name: string;
  /** The page's module script, TypeScript, imports resolved from the repository's root. */
  script: string;
  /** More files, by URL path. */
  files?: Record<string, ServedFile>;
  /** Sees every request that reaches the server (a service worker's escapes, for instance). */
  onRequest?: (request: http.IncomingMessage) => void;
}

export interface BrowserPage {
  origin: string;
  /** Loads the page and waits for its script's window.outcome. */
  outcome(): Promise<unknown>;
  /** Closes the browser and the server and removes the profile. */
  close(): Promise<void>;
}

async function bundlePage(script: string): Promise<Uint8Array> {
  const bundle = await build({
    stdin: { contents: script, resolveDir: repoRoot, loader: "ts", sourcefile: "page.ts" },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return bundle.outputFiles[0]!.contents;
}

function serve(files: Record<string, ServedFile>, onRequest: BrowserPageOptions["onRequest"]): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    onRequest?.(request);
    const file = files[request.url ?? "/"];
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": file[0] }).end(file[1]);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function closeAll(context: BrowserContext | undefined, server: http.Server, profile: string): Promise<void> {
  await context?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(profile, { recursive: true, force: true });
}

/** Serves the page and starts Chromium on it; the caller closes it (afterAll). */
export async function openBrowserPage(options: BrowserPageOptions): Promise<BrowserPage> {
  const html = `<!doctype html><meta charset="utf-8"><title>${options.name}</title>`;
  const files: Record<string, ServedFile> = {
    "/": ["text/html", `${html}<script type="module" src="/page.js"></script>`],
    "/page.js": ["text/javascript", await bundlePage(options.script)],
    ...options.files,
  };
  const server = await serve(files, options.onRequest);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const profile = await mkdtemp(path.join(tmpdir(), `${options.name}-chromium-`));
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
    });
  } catch (error) {
    await closeAll(context, server, profile);
    throw error;
  }
  const browser = context;
  return {
    origin,
    async outcome() {
      const page = browser.pages()[0] ?? (await browser.newPage());
      await page.goto(`${origin}/`);
      const handle = await page.waitForFunction(() => (window as unknown as { outcome?: unknown }).outcome, undefined, {
        timeout: 30_000,
      });
      return handle.jsonValue();
    },
    close: () => closeAll(browser, server, profile),
  };
}
