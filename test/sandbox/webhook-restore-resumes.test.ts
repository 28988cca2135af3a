// pins: webhooks.retry
// After a restore the state's webhooks go on exactly as saved: a pending one is retried once when due (also when
// restored into the sandbox that saved it), its attempts unchanged; one saved while being signed is signed and
// sent; one saved signed is sent with its signature even where Web Crypto is missing; an attempt that ran at
// the save counts as failed, retried at once by the restore when the policy says 0 ms, failed for good when no
// retry is left. Delivered or failed webhooks hold nothing up: a resend of their transaction goes out. Restored
// where there is neither a URL nor a callback, the attempt fails saying so.
import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { WebhookDelivery, WebhookOptions } from "../../src/sandbox/index.js";
import { api, newSandbox } from "./support/sandbox.js";
import { callbackSandbox, SECRET } from "./support/receiver.js";

const AT = "2026-11-26T10:00:00.000Z";
const MINUTE_LATER = "2026-11-26T10:01:00.000Z";

/** An attempt's wait that never ends by itself (no real timer is left behind). */
const neverExpires = () => () => {};

/** callbackSandbox, its attempts' waits never ending by themselves. */
const withCallback = (answer: (delivery: WebhookDelivery) => unknown, options: WebhookOptions = {}) =>
  callbackSandbox(answer, { startTimeout: neverExpires, ...options });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("webhooks after a restore", () => {
  it("restored into the same sandbox: the pending one is retried once, unchanged until then", async () => {
    const { sandbox, deliveries, deposit } = withCallback((delivery) =>
      JSON.parse(delivery.body).amount === 20 && delivery.attempt === 1 ? 500 : 200,
    );
    const delivered = deposit(10);
    const pending = deposit(20);
    await sandbox.webhooks.settled();
    const before = await sandbox.webhooks.list("key-a");
    expect(before.map((webhook) => [webhook.status, webhook.attempts, webhook.nextAttemptAt])).toEqual([
      ["delivered", [{ at: AT, status: 200 }], undefined],
      ["pending", [{ at: AT, status: 500 }], MINUTE_LATER],
    ]);
    sandbox.restore(sandbox.snapshot());
    expect(await sandbox.webhooks.list("key-a")).toEqual(before);
    sandbox.clock.advance(60_000);
    await sandbox.webhooks.settled();
    expect(deliveries.map((delivery) => [delivery.transactionId, delivery.attempt])).toEqual([
      [delivered, 1],
      [pending, 1],
      [pending, 2],
    ]);
    // The delivered webhook's transaction holds no queue: its resend goes out at once.
    expect((await api(sandbox, "POST", `/transactions/${delivered}/resendWebhook`)).status).toBe(200);
    await sandbox.webhooks.settled();
    expect(deliveries.map((delivery) => [delivery.transactionId, delivery.attempt])[3]).toEqual([delivered, 1]);
    expect((await sandbox.webhooks.list("key-a")).map((webhook) => webhook.status)).toEqual([
      "delivered",
      "delivered",
      "delivered",
    ]);
  });

  it("fails an attempt that ran at the save for good when no retry is left; the next goes out", async () => {
    const saving = withCallback(() => new Promise(() => {}), { retry: [] });
    const id = saving.deposit(25);
    await saving.sandbox.webhooks.list("key-a"); // signed, its one attempt running
    const { sandbox, deliveries } = withCallback(() => 200, { retry: [] });
    sandbox.restore(saving.sandbox.snapshot());
    const [restored] = await sandbox.webhooks.list("key-a");
    expect(restored).toMatchObject({
      status: "failed",
      attempts: [{ at: AT, error: "no outcome: the state was saved while this attempt ran" }],
    });
    expect(restored!.nextAttemptAt).toBeUndefined();
    expect((await api(sandbox, "POST", `/transactions/${id}/resendWebhook`)).status).toBe(200);
    await sandbox.webhooks.settled();
    expect(deliveries.map((delivery) => [delivery.transactionId, delivery.attempt])).toEqual([[id, 1]]);
    expect((await sandbox.webhooks.list("key-a")).map((webhook) => webhook.status)).toEqual(["failed", "delivered"]);
  });

  it("starts a retry due at once (a 0 ms delay) from the restore itself, before advance or settled()", async () => {
    const saving = withCallback(() => new Promise(() => {}));
    saving.deposit(25);
    await saving.sandbox.webhooks.list("key-a");
    const { sandbox, deliveries } = withCallback(() => 200, { retry: [0] });
    sandbox.restore(saving.sandbox.snapshot());
    expect(deliveries.map((delivery) => delivery.attempt)).toEqual([2]);
    await sandbox.webhooks.settled();
    expect((await sandbox.webhooks.list("key-a"))[0]!.attempts).toEqual([
      { at: AT, error: "no outcome: the state was saved while this attempt ran" },
      { at: AT, status: 200 },
    ]);
  });

  it("signs and sends a webhook saved before its signature was made", async () => {
    const saving = withCallback(() => 200);
    saving.deposit(25);
    const saved = saving.sandbox.snapshot() as any; // at once: the signature is still being made
    expect(saved.accounts["key-a"].outbox[0].signature).toBeUndefined();
    const { sandbox, deliveries } = withCallback(() => 200);
    sandbox.restore(saved);
    await sandbox.webhooks.settled();
    const [webhook] = await sandbox.webhooks.list("key-a");
    expect(webhook!.status).toBe("delivered");
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.signature).toBe(createHmac("sha512", SECRET).update(webhook!.body).digest("hex"));
  });

  it("sends a webhook saved signed with that signature where Web Crypto is missing (signs nothing again)", async () => {
    const saving = withCallback(() => 500);
    saving.deposit(25);
    await saving.sandbox.webhooks.settled();
    const [saved] = await saving.sandbox.webhooks.list("key-a");
    const { sandbox, deliveries } = withCallback(() => 200);
    // A page outside a secure context: crypto without subtle.
    vi.stubGlobal("crypto", { getRandomValues: crypto.getRandomValues.bind(crypto) });
    sandbox.restore(saving.sandbox.snapshot());
    vi.unstubAllGlobals();
    sandbox.clock.advance(60_000);
    await sandbox.webhooks.settled();
    const [webhook] = await sandbox.webhooks.list("key-a");
    expect(webhook).toMatchObject({
      status: "delivered",
      signature: saved!.signature,
      attempts: [
        { at: AT, status: 500 },
        { at: MINUTE_LATER, status: 200 },
      ],
    });
    expect(deliveries.map((delivery) => delivery.signature)).toEqual([saved!.signature]);
  });

  it("fails the retry of a callback's webhook restored where there is no callback: no webhookUrl", async () => {
    const saving = withCallback(() => 500);
    saving.deposit(25);
    await saving.sandbox.webhooks.settled();
    const sandbox = newSandbox();
    sandbox.restore(saving.sandbox.snapshot());
    sandbox.clock.advance(60_000);
    await sandbox.webhooks.settled();
    expect((await sandbox.webhooks.list("key-a"))[0]).toMatchObject({
      status: "pending",
      attempts: [
        { at: AT, status: 500 },
        { at: MINUTE_LATER, error: "the account has no webhookUrl" },
      ],
    });
  });
});
