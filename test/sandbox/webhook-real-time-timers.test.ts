// pins: webhooks.retry, webhooks.timeout
// With the real-time clock (no clock.start), retries run on timers: the timer waits for the earliest retry due,
// not a later one of another transaction, and rings no sooner; settled() starts a retry already due even before
// its timer rang.
// A delivery's wait also works with a browser's timers, whose setTimeout answers a number with no unref.
// Time is vitest's fake timers (setTimeout, clearTimeout, Date) or a stubbed setTimeout: no real waiting.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSandbox, type WebhookDelivery } from "../../src/sandbox/index.js";
import { newSandbox, START } from "./support/sandbox.js";
import { SECRET } from "./support/receiver.js";
import { useFakeClock } from "../client/support/clock.js";

/** A real-time sandbox retrying after 1 s whose callback answers 500 to each webhook's first delivery. */
function realTimeSandbox() {
  const deliveries: WebhookDelivery[] = [];
  const onWebhook = (delivery: WebhookDelivery) => {
    deliveries.push(delivery);
    return delivery.attempt === 1 ? 500 : 200;
  };
  const sandbox = createSandbox({ webhooks: { retry: [1_000], onWebhook } });
  sandbox.putAccount("key-a", { webhookSecret: SECRET });
  const deposit = (amount: number) => sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount }).id;
  return { sandbox, deliveries, deposit };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("webhook timers with real time", () => {
  it("rings for the earliest retry due when another transaction's is due later", async () => {
    useFakeClock(START);
    const { sandbox, deliveries, deposit } = realTimeSandbox();
    const early = deposit(10);
    await sandbox.webhooks.settled(); // its retry is due at 10:00:01.000
    await vi.advanceTimersByTimeAsync(500);
    const late = deposit(20);
    await sandbox.webhooks.settled(); // its retry is due at 10:00:01.500
    await vi.advanceTimersByTimeAsync(499);
    expect(deliveries).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    // The timer rang and started the early retry: no settled() or advance in between.
    expect(deliveries.map((delivery) => [delivery.transactionId, delivery.attempt])).toEqual([
      [early, 1],
      [late, 1],
      [early, 2],
    ]);
    await sandbox.webhooks.settled();
    expect((await sandbox.webhooks.list("key-a"))[0]!.attempts).toEqual([
      { at: "2026-11-26T10:00:00.000Z", status: 500 },
      { at: "2026-11-26T10:00:01.000Z", status: 200 },
    ]);
  });

  it("rings first when the retry is due: no timer of its own rings before it", async () => {
    useFakeClock(START);
    const { sandbox, deliveries, deposit } = realTimeSandbox();
    deposit(25);
    await sandbox.webhooks.settled(); // its retry is due at 10:00:01.000; the attempt's wait was cleared
    await vi.advanceTimersToNextTimerAsync();
    expect(Date.now()).toBe(START + 1_000);
    expect(deliveries.map((delivery) => delivery.attempt)).toEqual([1, 2]);
  });

  it("settled() starts a retry already due although its timer has not rung yet", async () => {
    useFakeClock(START);
    const { sandbox, deliveries, deposit } = realTimeSandbox();
    deposit(25);
    await sandbox.webhooks.settled();
    vi.setSystemTime(START + 1_000); // the time moves, no timer runs
    await sandbox.webhooks.settled();
    expect(deliveries.map((delivery) => delivery.attempt)).toEqual([1, 2]);
    expect((await sandbox.webhooks.list("key-a"))[0]!.status).toBe("delivered");
  });

  it("waits for an answer on a browser's timers (setTimeout answering a number, no unref)", async () => {
    const sandbox = newSandbox({ webhooks: { onWebhook: () => 200 } });
    sandbox.putAccount("key-a", { webhookSecret: SECRET });
    const started: number[] = [];
    const cleared: unknown[] = [];
    vi.stubGlobal("setTimeout", (_expire: () => void, ms: number) => started.push(ms));
    vi.stubGlobal("clearTimeout", (id: unknown) => cleared.push(id));
    sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 25 });
    await sandbox.webhooks.settled();
    vi.unstubAllGlobals();
    expect((await sandbox.webhooks.list("key-a"))[0]!.status).toBe("delivered");
    // The attempt's wait (the default 10 s) started, and stopped once the callback answered.
    expect(started).toEqual([10_000]);
    expect(cleared).toEqual([1]);
  });
});
