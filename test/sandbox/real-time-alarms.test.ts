// With the real-time clock, the sandbox's own timers settle withdrawals and retry webhooks at their moments with
// no request. An advance brings those moments nearer in real time, so the timers must wait from the advanced
// clock: a wait armed before the advance would ring late by the whole advance. Fake timers stand in for real
// time (Date and setTimeout only; the deliveries here are in-process, no sockets).
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSandbox } from "../../src/sandbox/index.js";
import { useFakeClock } from "../client/support/clock.js";
import { START } from "./support/sandbox.js";
import { deposit, SECRET, withdraw } from "./support/receiver.js";

const MINUTE = 60_000;

afterEach(() => {
  vi.useRealTimers();
});

/** A real-time sandbox whose key-a holds USDT and hands its webhooks to `onWebhook`, answering its status. */
function realTimeSandbox(options: { onWebhook: (body: any) => number; retry?: number[]; settleAfterMs?: number }) {
  return createSandbox({
    accounts: { "key-a": { balances: { USDT: 1000 }, webhookSecret: SECRET } },
    withdrawals: { settleAfterMs: options.settleAfterMs ?? null },
    webhooks: { retry: options.retry ?? [], onWebhook: (delivery) => options.onWebhook(JSON.parse(delivery.body)) },
  });
}

describe("real-time alarms after an advance", () => {
  it("settles a withdrawal when real time reaches what the advance left of its delay", async () => {
    useFakeClock(START);
    const statuses: string[] = [];
    const sandbox = realTimeSandbox({
      settleAfterMs: 10 * MINUTE,
      onWebhook: (body) => {
        statuses.push(body.status);
        return 200;
      },
    });
    await withdraw(sandbox, "key-a");
    sandbox.clock.advance(9 * MINUTE);
    await vi.advanceTimersByTimeAsync(MINUTE - 1);
    await sandbox.webhooks.settled();
    expect(statuses).toEqual(["PENDING"]);
    await vi.advanceTimersByTimeAsync(1);
    await sandbox.webhooks.settled();
    expect(statuses).toHaveLength(2);
  });

  it("retries a webhook when real time reaches what the advance left of the retry's delay", async () => {
    useFakeClock(START);
    let calls = 0;
    const sandbox = realTimeSandbox({ retry: [10 * MINUTE], onWebhook: () => (calls++ === 0 ? 500 : 200) });
    await deposit(sandbox, "key-a");
    await sandbox.webhooks.settled();
    sandbox.clock.advance(9 * MINUTE);
    await vi.advanceTimersByTimeAsync(MINUTE - 1);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2); // the alarm's attempt, not settled()'s: settled() starts due attempts itself
    await sandbox.webhooks.settled();
    expect((await sandbox.webhooks.list("key-a"))[0]!.status).toBe("delivered");
  });
});
