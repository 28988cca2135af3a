// Debian's Chromium for the docs tests: a fresh profile, a 1280×800 page, and every request that leaves
// 127.0.0.1 (or a file: URL) aborted and listed, so a page that needs the network shows it instead of hanging.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS } from "../../../scripts/lib/chromium.js";

export interface OfflineChromium {
  context: BrowserContext;
  page: Page;
  /** The requests aborted because they left 127.0.0.1. */
  externalRequests: string[];
  /** Closes the browser, then removes its profile (even when closing throws). */
  close(): Promise<void>;
}

export async function launchOfflineChromium(name: string): Promise<OfflineChromium> {
  const profile = await mkdtemp(path.join(tmpdir(), `${name}-chromium-`));
  const removeProfile = () => rm(profile, { recursive: true, force: true });
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1280, height: 800 },
    });
  } catch (error) {
    await removeProfile();
    throw error;
  }
  const externalRequests: string[] = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === "file:" || url.hostname === "127.0.0.1") return route.continue();
    externalRequests.push(url.href);
    return route.abort();
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const close = async () => {
    try {
      await context.close();
    } finally {
      await removeProfile();
    }
  };
  return { context, page, externalRequests, close };
}
