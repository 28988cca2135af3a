// pins: webhooks.destination
// Deleting an account stops its webhooks: a retry that was due later is never sent (its outbox went with the
// account), while another key's retry goes out as due.
import { describe, expect, it } from "vitest";
import type { WebhookDelivery } from "../../src/sandbox/index.js";
import { newSandbox } from "./support/sandbox.js";
import { SECRET } from "./support/receiver.js";

const deposit = { currency: "USDT", network: "TRX", amount: 25 } as const;

describe("webhooks of a deleted account", () => {
  it("never sends the retry of a webhook whose account was deleted", async () => {
    const deliveries: WebhookDelivery[] = [];
    const onWebhook = (delivery: WebhookDelivery) => {
      deliveries.push(delivery);
      return 500; // every attempt fails: a retry is due a minute later
    };
    const sandbox = newSandbox({ webhooks: { onWebhook } });
    sandbox.putAccount("key-a", { webhookSecret: SECRET });
    sandbox.putAccount("key-b", { webhookSecret: SECRET });
    sandbox.deposit({ apiKey: "key-a", ...deposit });
    sandbox.deposit({ apiKey: "key-b", ...deposit });
    await sandbox.webhooks.settled();
    expect(sandbox.deleteAccount("key-a")).toBe(true);
    sandbox.clock.advance(60_000);
    await sandbox.webhooks.settled();
    expect(deliveries.map((delivery) => [delivery.apiKey, delivery.attempt])).toEqual([
      ["key-a", 1],
      ["key-b", 1],
      ["key-b", 2],
    ]);
  });
});
