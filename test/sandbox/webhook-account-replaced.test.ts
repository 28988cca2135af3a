// pins: webhooks.destination
// Putting or deleting an account stops its webhooks' deliveries: a retry that was due later is never sent, and
// an attempt under way whose answer comes after the account was deleted changes nothing and breaks nothing
// (settled() resolves, the new account's webhooks go out).
import { describe, expect, it } from "vitest";
import type { WebhookDelivery } from "../../src/sandbox/index.js";
import { newSandbox } from "./support/sandbox.js";
import { SECRET } from "./support/receiver.js";

const deposit = { currency: "USDT", network: "TRX", amount: 25 } as const;

/**
 * Two keys whose first webhook attempts failed (every attempt answers 500: a retry is due a minute later), then
 * `replace` done to key-a, then the clock moved to the retries: the deliveries seen, and key-b's transaction id.
 */
async function retriesAfter(replace: (sandbox: ReturnType<typeof newSandbox>) => void) {
  const deliveries: WebhookDelivery[] = [];
  const onWebhook = (delivery: WebhookDelivery) => {
    deliveries.push(delivery);
    return 500;
  };
  const sandbox = newSandbox({ webhooks: { onWebhook } });
  sandbox.putAccount("key-a", { webhookSecret: SECRET });
  sandbox.putAccount("key-b", { webhookSecret: SECRET });
  sandbox.deposit({ apiKey: "key-a", ...deposit });
  const ofB = sandbox.deposit({ apiKey: "key-b", ...deposit }).id;
  await sandbox.webhooks.settled();
  replace(sandbox);
  sandbox.clock.advance(60_000);
  await sandbox.webhooks.settled();
  return { sandbox, deliveries, ofB };
}

describe("webhooks of an account put again or deleted", () => {
  it("never sends the retry of a webhook whose account was put again", async () => {
    const { sandbox, deliveries, ofB } = await retriesAfter((box) =>
      box.putAccount("key-a", { webhookSecret: SECRET }),
    );
    // key-b's retry goes out; key-a's webhook went with the account it replaced.
    expect(deliveries.map((delivery) => [delivery.apiKey, delivery.attempt])).toEqual([
      ["key-a", 1],
      ["key-b", 1],
      ["key-b", 2],
    ]);
    expect(deliveries[2]!.transactionId).toBe(ofB);
    expect(await sandbox.webhooks.list("key-a")).toEqual([]);
  });

  it("never sends the retry of a webhook whose account was deleted", async () => {
    let deleted: boolean | undefined;
    const { deliveries } = await retriesAfter((box) => {
      deleted = box.deleteAccount("key-a");
    });
    expect(deleted).toBe(true);
    expect(deliveries.map((delivery) => [delivery.apiKey, delivery.attempt])).toEqual([
      ["key-a", 1],
      ["key-b", 1],
      ["key-b", 2],
    ]);
  });

  it("takes an answer that comes after the account was deleted as nothing, and goes on", async () => {
    const answers: ((status: number) => void)[] = [];
    const onWebhook = () => new Promise<number>((resolve) => answers.push(resolve));
    const sandbox = newSandbox({ webhooks: { onWebhook, startTimeout: () => () => {} } });
    sandbox.putAccount("key-a", { webhookSecret: SECRET });
    sandbox.deposit({ apiKey: "key-a", ...deposit });
    await sandbox.webhooks.list("key-a"); // signed: its attempt is under way
    expect(answers).toHaveLength(1);
    expect(sandbox.deleteAccount("key-a")).toBe(true);
    answers[0]!(200);
    await sandbox.webhooks.settled();
    expect(await sandbox.webhooks.list()).toEqual([]);
    sandbox.putAccount("key-a", { webhookSecret: SECRET });
    sandbox.deposit({ apiKey: "key-a", ...deposit });
    await sandbox.webhooks.list("key-a");
    answers[1]!(200);
    await sandbox.webhooks.settled();
    expect((await sandbox.webhooks.list("key-a")).map((webhook) => webhook.status)).toEqual(["delivered"]);
  });
});
