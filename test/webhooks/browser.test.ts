// The webhook signature helpers in a browser (Debian's Chromium): the package's entry bundled from src/ by esbuild
// for the browser, on a page served from 127.0.0.1 (a secure context, as Web Crypto requires). The page signs
// and verifies a published sample; the result must be OpenSSL's vector (support/vectors.ts), either hex case
// accepted, one changed byte refused.
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BrowserPage, openBrowserPage } from "../support/browser-page.js";
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

let browserPage: BrowserPage;

beforeAll(async () => {
  browserPage = await openBrowserPage({ name: "webhooks", script: PAGE_SCRIPT });
}, 60_000);

afterAll(async () => {
  await browserPage?.close();
});

it("signs and verifies in Chromium: OpenSSL's vector, either hex case, a changed byte refused", async () => {
  const outcome = await browserPage.outcome();
  expect(outcome).toEqual({ secure: true, signature: WITHDRAWAL!.signature, upperCase: true, changedByte: false });
});
