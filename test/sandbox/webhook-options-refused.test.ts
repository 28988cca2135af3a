// A sandbox refuses webhook options it cannot keep when it is made, saying which one and what it takes: a retry
// delay below 0 ms or not whole, a delivery timeout below 1 ms, above setTimeout's 2147483647 ms or not whole.
// The edges themselves are taken: a retry after 0 ms (the next attempt at the same moment of the sandbox clock)
// and a timeout of 1 ms.
import { describe, expect, it } from "vitest";
import type { WebhookDelivery } from "../../src/sandbox/index.js";
import { newSandbox, START, thrownBy } from "./support/sandbox.js";
import { SECRET } from "./support/receiver.js";

const RETRY = "sandbox webhooks: retry must list whole numbers of milliseconds, 0 or more";
const TIMEOUT = "sandbox webhooks: timeoutMs must be a whole number of milliseconds, 1 to 2147483647";

describe("webhook options", () => {
  it("refuses a retry delay or a delivery timeout it cannot keep, with a message naming the option", () => {
    const refused: [object, string][] = [
      [{ retry: [60_000, -1] }, RETRY],
      [{ retry: [1.5] }, RETRY],
      [{ timeoutMs: 0 }, TIMEOUT],
      [{ timeoutMs: 2.5 }, TIMEOUT],
      [{ timeoutMs: 2 ** 31 }, TIMEOUT],
    ];
    for (const [webhooks, message] of refused) {
      const error = thrownBy(() => newSandbox({ webhooks }));
      expect(error, JSON.stringify(webhooks)).toBeInstanceOf(RangeError);
      expect(error!.message, JSON.stringify(webhooks)).toBe(message);
    }
  });

  it("takes a 1 ms delivery timeout and a 0 ms retry delay: the retry goes out at the same moment", async () => {
    expect(thrownBy(() => newSandbox({ webhooks: { timeoutMs: 1 } }))).toBeUndefined();
    const attempts: number[] = [];
    const onWebhook = (delivery: WebhookDelivery) => {
      attempts.push(delivery.attempt);
      return delivery.attempt === 1 ? 503 : 200;
    };
    const sandbox = newSandbox({ webhooks: { retry: [0], onWebhook } });
    sandbox.putAccount("key-a", { webhookSecret: SECRET });
    sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 25 });
    await sandbox.webhooks.settled();
    const [webhook] = await sandbox.webhooks.list("key-a");
    expect(webhook!.status).toBe("delivered");
    expect(webhook!.attempts).toEqual([
      { at: "2026-11-26T10:00:00.000Z", status: 503 },
      { at: "2026-11-26T10:00:00.000Z", status: 200 },
    ]);
    expect(attempts).toEqual([1, 2]);
    expect(sandbox.clock.now()).toBe(START);
  });
});
