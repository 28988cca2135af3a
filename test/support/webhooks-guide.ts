// The webhooks guide (docs/guide/webhooks.md) and the samples it includes, read as the site shows them, for the
// tests that run or compile them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./spec.js";

/** The guide's Markdown. */
export const webhooksGuide = () => readFileSync(path.join(repoRoot, "docs", "guide", "webhooks.md"), "utf8");

/** A sample of docs/samples/, exactly as the guide includes it. */
export const webhooksSample = (name: string) => readFileSync(path.join(repoRoot, "docs", "samples", name), "utf8");

/**
 * What the guide's worked example (webhooks-sandbox-flow.mjs) prints against a fresh sandbox: the deposit of 25
 * USDT (CONFIRMED, to the address made for it) in the wallet, the history and the deposits list; USDT 125, then
 * 83 while two withdrawals of 20 (fee 1) are out, then 104 once the FAILED one is returned; the deposit's webhook
 * taken after one 503 and its retry; each withdrawal's states in order; the resend byte for byte; 6 webhooks in
 * the outbox.
 */
export const WEBHOOKS_GUIDE_OUTCOME = {
  deposit: ["DEPOSIT", "CONFIRMED", true],
  usdt: [125, 83, 104],
  seenIn: [true, true],
  depositWebhook: ["DEPOSIT", "CONFIRMED", 25],
  retried: [503, 200],
  withdrawals: [
    ["PENDING", "SUCCESSFUL"],
    ["PENDING", "FAILED"],
  ],
  resentIdentical: true,
  outbox: 6,
};
