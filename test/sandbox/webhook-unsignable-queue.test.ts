// pins: webhooks.destination, webhooks.order
// A webhook that cannot be signed (Web Crypto refuses the key) fails at once and leaves its transaction's queue:
// the webhook queued behind it goes out, and so does another transaction's retry; its one attempt says why, in
// the words signing rejected with (an Error's message, anything else as text). One whose account was deleted while it
// was being signed fails with nothing left to break: the webhooks of the account put again go out.
import { afterEach, describe, expect, it, vi } from "vitest";
import { api } from "./support/sandbox.js";
import { callbackSandbox, SECRET } from "./support/receiver.js";

const AT = "2026-11-26T10:00:00.000Z";

/**
 * Web Crypto whose next importKey (the next webhook's key) waits until the test rejects it; the others are the
 * real ones.
 */
function heldKeyCrypto() {
  const real = globalThis.crypto;
  let reject: ((reason: unknown) => void) | undefined;
  let armed = false;
  const subtle = {
    importKey(...args: Parameters<SubtleCrypto["importKey"]>) {
      if (!armed) return real.subtle.importKey(...args);
      armed = false;
      return new Promise((_, rejecting) => {
        reject = rejecting;
      });
    },
    sign: real.subtle.sign.bind(real.subtle),
  };
  vi.stubGlobal("crypto", {
    getRandomValues: real.getRandomValues.bind(real),
    randomUUID: real.randomUUID.bind(real),
    subtle,
  });
  return {
    /** The next webhook's key is held. */
    holdNext() {
      armed = true;
    },
    /** Rejects the held key with `reason`. */
    refuse(reason: unknown) {
      reject!(reason);
    },
  };
}

/** A sandbox whose callback answers 500 to the first delivery of the 10 USDT deposit, 200 to the rest. */
const sandboxWithCallback = () =>
  callbackSandbox((delivery) => (JSON.parse(delivery.body).amount === 10 && delivery.attempt === 1 ? 500 : 200));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("a webhook that cannot be signed", () => {
  it("leaves its queue: the next webhook of its transaction and another transaction's retry go out", async () => {
    const keys = heldKeyCrypto();
    const { sandbox, deliveries, deposit } = sandboxWithCallback();
    const retried = deposit(10);
    await sandbox.webhooks.settled(); // answered 500: its retry is due in 1 min
    keys.holdNext();
    const unsigned = deposit(20);
    // Resent while the first is being signed: queued behind it.
    expect((await api(sandbox, "POST", `/transactions/${unsigned}/resendWebhook`)).status).toBe(200);
    keys.refuse(new Error("key unusable"));
    await sandbox.webhooks.settled();
    sandbox.clock.advance(60_000);
    await sandbox.webhooks.settled();
    const webhooks = await sandbox.webhooks.list("key-a");
    expect(webhooks.map((webhook) => [webhook.transactionId, webhook.status, webhook.attempts])).toEqual([
      [
        retried,
        "delivered",
        [
          { at: AT, status: 500 },
          { at: "2026-11-26T10:01:00.000Z", status: 200 },
        ],
      ],
      [unsigned, "failed", [{ at: AT, error: "not signed: key unusable" }]],
      [unsigned, "delivered", [{ at: AT, status: 200 }]],
    ]);
    expect(deliveries.map((delivery) => [delivery.transactionId, delivery.attempt])).toEqual([
      [retried, 1],
      [unsigned, 1],
      [retried, 2],
    ]);
  });

  it("says why in its one attempt, whatever signing rejected with", async () => {
    for (const [reason, error] of [
      [new TypeError("key unusable"), "not signed: key unusable"],
      ["no key", "not signed: no key"],
      [undefined, "not signed: undefined"],
    ] as const) {
      const keys = heldKeyCrypto();
      const { sandbox, deposit } = sandboxWithCallback();
      keys.holdNext();
      deposit(25);
      keys.refuse(reason);
      await sandbox.webhooks.settled();
      const [webhook] = await sandbox.webhooks.list("key-a");
      expect(webhook!.attempts, String(reason)).toEqual([{ at: AT, error }]);
      expect(webhook!.status).toBe("failed");
      vi.unstubAllGlobals();
    }
  });

  it("breaks nothing when its account was deleted while it was being signed: the next account's go out", async () => {
    const keys = heldKeyCrypto();
    const { sandbox, deliveries, deposit } = sandboxWithCallback();
    keys.holdNext();
    deposit(25);
    expect(sandbox.deleteAccount("key-a")).toBe(true);
    keys.refuse(new Error("key unusable"));
    await sandbox.webhooks.settled();
    expect(await sandbox.webhooks.list()).toEqual([]);
    sandbox.putAccount("key-a", { webhookSecret: SECRET });
    deposit(30);
    await sandbox.webhooks.settled();
    expect(deliveries.map((delivery) => JSON.parse(delivery.body).amount)).toEqual([30]);
    expect((await sandbox.webhooks.list("key-a")).map((webhook) => webhook.status)).toEqual(["delivered"]);
  });
});
