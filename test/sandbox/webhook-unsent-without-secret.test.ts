// pins: webhooks.destination
// An account without a webhook secret has its webhooks kept unsent (failed, no attempt, no signature): also in a
// sandbox with an onWebhook callback that could take them, which is never called.
import { describe, expect, it } from "vitest";
import type { WebhookDelivery } from "../../src/sandbox/index.js";
import { newSandbox } from "./support/sandbox.js";

describe("webhooks of an account without a secret", () => {
  it("keeps the webhooks of an account without a secret unsent, even with an onWebhook callback", async () => {
    const deliveries: WebhookDelivery[] = [];
    const sandbox = newSandbox({ webhooks: { onWebhook: (delivery) => void deliveries.push(delivery) } });
    sandbox.putAccount("key-a", {});
    sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 25 });
    await sandbox.webhooks.settled();
    expect(await sandbox.webhooks.list("key-a")).toMatchObject([
      { url: null, signature: null, status: "failed", attempts: [] },
    ]);
    expect(deliveries).toEqual([]);
  });
});
