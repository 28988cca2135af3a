// pins: webhooks.retry, webhooks.destination
// What an attempt's outcome is: only a 2xx answer (200 to 299) delivers a webhook, a status just outside
// (199, 300) is a failed attempt; a receiver that throws or is down gives the attempt an error in a line, the
// message with the cause's code (or else its message) in brackets, and anything thrown, even null, as text.
import { describe, expect, it } from "vitest";
import type { WebhookDelivery } from "../../src/sandbox/index.js";
import { newSandbox } from "./support/sandbox.js";
import { deposit, downUrl, outbox, SECRET, withWebhooks } from "./support/receiver.js";

/** The one attempt of a deposit's webhook whose callback answers with `answer` (no retries). */
async function oneAttempt(answer: (delivery: WebhookDelivery) => unknown) {
  const sandbox = newSandbox({ webhooks: { retry: [], onWebhook: answer } });
  sandbox.putAccount("key-a", { webhookSecret: SECRET });
  sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 25 });
  await sandbox.webhooks.settled();
  const [webhook] = await sandbox.webhooks.list("key-a");
  return { status: webhook!.status, attempts: webhook!.attempts };
}

const AT = "2026-11-26T10:00:00.000Z";

describe("a webhook attempt's outcome", () => {
  it("delivers on 200 to 299 only: 199 and 300 are failed attempts", async () => {
    for (const [answered, status] of [
      [199, "failed"],
      [200, "delivered"],
      [299, "delivered"],
      [300, "failed"],
    ] as const)
      expect(await oneAttempt(() => answered), String(answered)).toEqual({
        status,
        attempts: [{ at: AT, status: answered }],
      });
  });

  it("records why a callback failed: its message, the cause's code or message, anything thrown as text", async () => {
    const thrown: [unknown, string][] = [
      [
        new Error("socket closed", { cause: { code: "ECONNRESET", message: "read ECONNRESET" } }),
        "socket closed (ECONNRESET)",
      ],
      [
        new Error("socket closed", { cause: { code: 104, message: "read ECONNRESET" } }),
        "socket closed (read ECONNRESET)",
      ],
      [new TypeError("bad answer", { cause: new Error("no body") }), "bad answer (no body)"],
      [new Error("plain"), "plain"],
      ["a string", "a string"],
      [null, "null"],
      [undefined, "undefined"],
    ];
    for (const [error, why] of thrown)
      expect(await oneAttempt(() => Promise.reject(error)), why).toEqual({
        status: "failed",
        attempts: [{ at: AT, error: why }],
      });
  });

  it("records a refused connection to a receiver that is down as fetch's message with the code", async () => {
    const down = await downUrl();
    const sandbox = newSandbox({ webhooks: { retry: [] } });
    await withWebhooks(sandbox, "key-a", down.url);
    await deposit(sandbox, "key-a");
    await sandbox.webhooks.settled();
    expect((await outbox(sandbox, "key-a"))[0]!.attempts).toEqual([{ at: AT, error: "fetch failed (ECONNREFUSED)" }]);
  });
});
