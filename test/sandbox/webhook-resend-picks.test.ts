// pins: webhooks.resend
// Resend sends again the latest webhook of each transaction it names, not the key's latest webhook of another
// transaction made later; an id the key has no transaction of is refused, the message naming that id.
import { describe, expect, it } from "vitest";
import type { WebhookDelivery } from "../../src/sandbox/index.js";
import { api, newSandbox } from "./support/sandbox.js";
import { SECRET } from "./support/receiver.js";

describe("webhook resend", () => {
  it("resends the named transaction's own latest webhook, with others made after it", async () => {
    const sent: string[] = [];
    const sandbox = newSandbox({
      webhooks: { onWebhook: (delivery: WebhookDelivery) => void sent.push(delivery.body) },
    });
    sandbox.putAccount("key-a", { webhookSecret: SECRET, balances: { USDT: 1000 } });
    const first = sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 10 }).id;
    sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 20 });
    await sandbox.webhooks.settled();
    const answer = await api(sandbox, "POST", "/transactions/resendWebhooks", { ids: [first] });
    expect(answer.status).toBe(200);
    await sandbox.webhooks.settled();
    expect(sent).toHaveLength(3);
    expect(JSON.parse(sent[2]!)).toMatchObject({ transactionId: first, amount: 10 });
    expect(sent[2]).toBe(sent[0]);
  });

  it("names the id that is not one of the key's transactions in the 404's message", async () => {
    const sandbox = newSandbox();
    const answer = await api(sandbox, "POST", "/transactions/no-such-id/resendWebhook");
    expect([answer.status, answer.body.message]).toEqual([404, "no transaction no-such-id was found for this API key"]);
  });
});
