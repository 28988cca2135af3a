// The webhook signature helpers in a browser (Debian's Chromium): the package's entry bundled from src/ by esbuild
// for the browser, on a page served from 127.0.0.1 (a secure context, as Web Crypto requires). The page signs
// and verifies a published sample; the result must be OpenSSL's vector (support/vectors.ts), either hex case
// accepted, one changed byte refused.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_FLAGS } from "../../scripts/lib/chromium.js";
import { repoRoot } from "../support/spec.js";
import { bodyOf, SECRET, VECTORS } from "./support/vectors.js";

const [WITHDRAWAL] = VECTORS;
const TEXT = bodyOf(WITHDRAWAL!.file).toString("utf8");

/** The page's script: its outcome goes to window.outcome. */
const PAGE_SCRIPT = `
import { signWebhook, verifyWebhookSignature } from "./src/index.ts";

const body = ${JSON.stringify(TEXT)};
const secret = ${JSON.stringify(SECRET)};
try {
  const signature = await signWebhook(body, secret);
  const bytes = new TextEncoder().encode(body);
  const changed = bytes.slice();
  changed[0] ^= 1;
  window.outcome = {
    secure: window.isSecureContext,
    signature,
    upperCase: await verifyWebhookSignature(bytes.buffer, signature.toUpperCase(), secret),
    changedByte: await verifyWebhookSignature(changed, signature, secret),
  };
} catch (error) {
  window.outcome = { error: String((error && error.stack) || error) };
}
`;

let server: http.Server;
let origin: string;
let context: BrowserContext;
let userDataDir: string;

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
    "/": ["text/html", '<!doctype html><meta charset="utf-8"><script type="module" src="/p.js"></script>'],
    "/p.js": ["text/javascript", bundle.outputFiles[0]!.contents],
  };
  server = http.createServer((req, res) => {
    const file = files[req.url ?? "/"];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  userDataDir = await mkdtemp(path.join(tmpdir(), "webhooks-chromium-"));
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

it("signs and verifies in Chromium: OpenSSL's vector, either hex case, a changed byte refused", async () => {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${origin}/`);
  const outcome = await (
    await page.waitForFunction(() => (window as unknown as { outcome?: unknown }).outcome, undefined, {
      timeout: 30_000,
    })
  ).jsonValue();
  expect(outcome).toEqual({ secure: true, signature: WITHDRAWAL!.signature, upperCase: true, changedByte: false });
});
