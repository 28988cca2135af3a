// pins: webhooks.retry, webhooks.timeout
// The delivery policy as a reader checks it by hand: a webhook is tried at once, then 1 min, 5 min, 30 min, 2 h and
// 8 h after the attempt before it on the sandbox clock (10:00:00, 10:01:00, 10:06:00, 10:36:00, 12:36:00,
// 20:36:00 for one made at 10:00:00), never earlier; after those 6 attempts it has failed and is tried no more. An
// attempt waits 10 s (real time) for the receiver's answer, then fails.
import { afterEach, describe, expect, it, vi } from "vitest";
import { useFakeClock } from "../client/support/clock.js";
import { deposit, SECRET } from "./support/receiver.js";
import { newSandbox, START } from "./support/sandbox.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("the webhook delivery policy", () => {
  it("tries at once, then 1 min, 5 min, 30 min, 2 h and 8 h after each attempt; failed after 6", async () => {
    const sandbox = newSandbox({ webhooks: { onWebhook: () => 503 } });
    sandbox.putAccount("key-a", { webhookSecret: SECRET });
    expect(new Date(START).toISOString()).toBe("2026-11-26T10:00:00.000Z");
    await deposit(sandbox, "key-a");
    await sandbox.webhooks.settled();
    const attempts = async () => (await sandbox.webhooks.list("key-a"))[0]!.attempts.map((attempt) => attempt.at);
    const due = [
      "2026-11-26T10:01:00.000Z",
      "2026-11-26T10:06:00.000Z",
      "2026-11-26T10:36:00.000Z",
      "2026-11-26T12:36:00.000Z",
      "2026-11-26T20:36:00.000Z",
    ];
    const made = ["2026-11-26T10:00:00.000Z"];
    expect(await attempts()).toEqual(made);
    for (const moment of due) {
      const [webhook] = await sandbox.webhooks.list("key-a");
      expect([webhook!.status, webhook!.nextAttemptAt]).toEqual(["pending", moment]);
      sandbox.clock.advance(Date.parse(moment) - sandbox.clock.now() - 1); // a millisecond before it is due
      await sandbox.webhooks.settled();
      expect(await attempts()).toEqual(made);
      sandbox.clock.advance(1);
      await sandbox.webhooks.settled();
      made.push(moment);
      expect(await attempts()).toEqual(made);
    }
    const [failed] = await sandbox.webhooks.list("key-a");
    expect([failed!.status, failed!.nextAttemptAt, failed!.attempts.length]).toEqual(["failed", undefined, 6]);
    sandbox.clock.advance(7 * 24 * 3_600_000);
    await sandbox.webhooks.settled();
    expect(await attempts()).toHaveLength(6);
  });

  it("waits 10 s for an answer, then fails the attempt and retries 1 min later", async () => {
    useFakeClock(START);
    const sandbox = newSandbox({ webhooks: { onWebhook: () => new Promise(() => {}) } });
    sandbox.putAccount("key-a", { webhookSecret: SECRET });
    await deposit(sandbox, "key-a");
    expect((await sandbox.webhooks.list("key-a"))[0]!.attempts).toEqual([{ at: "2026-11-26T10:00:00.000Z" }]);
    await vi.advanceTimersByTimeAsync(9_999);
    expect((await sandbox.webhooks.list("key-a"))[0]!.attempts).toEqual([{ at: "2026-11-26T10:00:00.000Z" }]);
    await vi.advanceTimersByTimeAsync(1);
    await sandbox.webhooks.settled();
    expect((await sandbox.webhooks.list("key-a"))[0]).toMatchObject({
      status: "pending",
      attempts: [{ at: "2026-11-26T10:00:00.000Z", error: "no answer within 10000 ms" }],
      nextAttemptAt: "2026-11-26T10:01:00.000Z",
    });
  });
});
