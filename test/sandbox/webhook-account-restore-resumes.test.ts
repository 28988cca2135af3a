// pins: webhooks.retry
// Restoring one key's store (restoreAccount) resumes its pending webhooks from the restore itself: a retry already
// due on the key's clock goes out before any advance or settled(), and a retry due later waits for its moment. The
// store it replaces takes its webhooks with it: their retries are never sent.
import { describe, expect, it } from "vitest";
import { callbackSandbox } from "./support/receiver.js";

const AT = "2026-11-26T10:00:00.000Z";
const MINUTE_LATER = "2026-11-26T10:01:00.000Z";

/** key-a's store holding a deposit's webhook answered 500 at 10:00:00, its retry due at 10:01:00; its id. */
async function storeWithRetry() {
  const saving = callbackSandbox(() => 500);
  const id = saving.deposit(25);
  await saving.sandbox.webhooks.settled();
  return { id, saved: saving.sandbox.accountState("key-a")! };
}

describe("webhooks of one key's restored store", () => {
  it("start a retry already due from restoreAccount itself, before advance or settled()", async () => {
    const { id, saved } = await storeWithRetry();
    const { sandbox, deliveries } = callbackSandbox(() => 200);
    sandbox.clock.advance(60_000); // 10:01:00: the saved retry is due
    sandbox.restoreAccount("key-a", saved);
    expect(deliveries.map((delivery) => [delivery.transactionId, delivery.attempt])).toEqual([[id, 2]]);
    await sandbox.webhooks.settled();
    const [webhook] = await sandbox.webhooks.list("key-a");
    expect(webhook!.status).toBe("delivered");
    expect(webhook!.attempts).toEqual([
      { at: AT, status: 500 },
      { at: MINUTE_LATER, status: 200 },
    ]);
  });

  it("wait for a retry due later until the clock reaches it", async () => {
    const { id, saved } = await storeWithRetry();
    const { sandbox, deliveries } = callbackSandbox(() => 200);
    sandbox.restoreAccount("key-a", saved);
    sandbox.clock.advance(59_999);
    await sandbox.webhooks.settled();
    expect(deliveries).toEqual([]);
    sandbox.clock.advance(1);
    await sandbox.webhooks.settled();
    expect(deliveries.map((delivery) => [delivery.transactionId, delivery.attempt])).toEqual([[id, 2]]);
    expect((await sandbox.webhooks.list("key-a"))[0]!.status).toBe("delivered");
  });

  it("drop the retry of the store they replace: it is never sent", async () => {
    const { sandbox, deliveries, deposit } = callbackSandbox((delivery) => (delivery.attempt === 1 ? 500 : 200));
    const empty = sandbox.accountState("key-a")!;
    deposit(25);
    await sandbox.webhooks.settled(); // answered 500: its retry is due at 10:01:00
    sandbox.restoreAccount("key-a", empty);
    sandbox.clock.advance(60_000);
    await sandbox.webhooks.settled();
    expect(deliveries.map((delivery) => delivery.attempt)).toEqual([1]);
    expect(await sandbox.webhooks.list("key-a")).toEqual([]);
  });
});
