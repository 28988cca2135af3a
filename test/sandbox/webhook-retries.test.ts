// pins: webhooks.retry, webhooks.timeout, webhooks.destination
// A webhook that is not delivered (a non-2xx answer, a refused connection, no answer in time) stays pending
// and is tried again on the sandbox clock as the registered policy says (choices.ts, "webhooks.retry"): the
// attempts and their times follow the policy as the test advances the clock, and after the last one the
// webhook has failed. A receiver that is down loses nothing: once it is back, the next attempt delivers.
import { afterEach, describe, expect, it, vi } from "vitest";
import { WEBHOOK_RETRY_DELAYS_MS, WEBHOOK_TIMEOUT_MS } from "../../src/sandbox/rules.js";
import { createSandbox } from "../../src/sandbox/index.js";
import { newSandbox, START } from "./support/sandbox.js";
import { deposit, downUrl, outbox, receiversClosedAfterEach, SECRET, withWebhooks } from "./support/receiver.js";
import { useFakeClock } from "../client/support/clock.js";
import { WEBHOOK_SIGNATURE_HEADER } from "../support/spec.js";

const receiver = receiversClosedAfterEach();

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A delivery timeout the test ends itself (webhooks.startTimeout): the waits started and not cancelled, each
 * ending only when the test calls `expire()`; no real time passes.
 */
function manualTimeouts() {
  const waits = new Set<{ ms: number; expire: () => void }>();
  return {
    start(ms: number, expire: () => void) {
      const wait = { ms, expire };
      waits.add(wait);
      return () => waits.delete(wait);
    },
    /** The running waits' lengths (ms), oldest first. */
    running: () => [...waits].map((wait) => wait.ms),
    /** Ends every running wait: their attempts fail as timed out. */
    expire() {
      for (const wait of [...waits]) {
        waits.delete(wait);
        wait.expire();
      }
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("webhook retries", () => {
  it("retries after a 500 when the policy's first delay has passed on the clock, not before", async () => {
    const hook = await receiver((_, index) => (index === 0 ? 500 : 200));
    const sandbox = newSandbox();
    await withWebhooks(sandbox, "key-a", hook.url);
    await deposit(sandbox, "key-a");
    await sandbox.webhooks.settled();
    const [first] = await outbox(sandbox, "key-a");
    expect(first).toMatchObject({
      status: "pending",
      attempts: [{ at: iso(START), status: 500 }],
      nextAttemptAt: iso(START + WEBHOOK_RETRY_DELAYS_MS[0]!),
    });
    sandbox.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]! - 1);
    await sandbox.webhooks.settled();
    expect(hook.requests).toHaveLength(1);
    sandbox.clock.advance(1);
    await sandbox.webhooks.settled();
    expect(hook.requests).toHaveLength(2);
    expect(hook.requests[1]!.raw.equals(hook.requests[0]!.raw)).toBe(true);
    expect(hook.requests[1]!.headers[WEBHOOK_SIGNATURE_HEADER]).toBe(
      hook.requests[0]!.headers[WEBHOOK_SIGNATURE_HEADER],
    );
    const [after] = await outbox(sandbox, "key-a");
    expect(after!.status).toBe("delivered");
    expect(after!.attempts).toEqual([
      { at: iso(START), status: 500 },
      { at: iso(START + WEBHOOK_RETRY_DELAYS_MS[0]!), status: 200 },
    ]);
    expect(after!.nextAttemptAt).toBeUndefined();
  });

  it("follows the whole registered policy, then gives up: failed after the last attempt", async () => {
    const hook = await receiver(() => 503);
    const sandbox = newSandbox();
    await withWebhooks(sandbox, "key-a", hook.url);
    await deposit(sandbox, "key-a");
    await sandbox.webhooks.settled();
    const expected = [START];
    for (const delay of WEBHOOK_RETRY_DELAYS_MS) {
      sandbox.clock.advance(delay);
      expected.push(expected.at(-1)! + delay);
      await sandbox.webhooks.settled();
    }
    const [webhook] = await outbox(sandbox, "key-a");
    expect(webhook!.status).toBe("failed");
    expect(webhook!.attempts).toEqual(expected.map((at) => ({ at: iso(at), status: 503 })));
    sandbox.clock.advance(24 * 3_600_000);
    await sandbox.webhooks.settled();
    expect(hook.requests).toHaveLength(WEBHOOK_RETRY_DELAYS_MS.length + 1);
    expect(sandbox.choices.find((choice) => choice.id === "webhooks.retry")!.choice).toContain(
      "1 min, 5 min, 30 min, 2 h, 8 h",
    );
  });

  it("takes another policy from webhooks.retry, a big advance sending one attempt at a time", async () => {
    const hook = await receiver(() => 500);
    const sandbox = newSandbox({ webhooks: { retry: [1_000, 10_000] } });
    await withWebhooks(sandbox, "key-a", hook.url);
    await deposit(sandbox, "key-a");
    await sandbox.webhooks.settled();
    sandbox.clock.advance(3_600_000);
    await sandbox.webhooks.settled();
    // One advance makes one attempt due; the next is due 10 s after it, which the clock has not moved past.
    const [webhook] = await outbox(sandbox, "key-a");
    expect(webhook!.attempts.map((attempt) => attempt.at)).toEqual([iso(START), iso(START + 3_600_000)]);
    expect(webhook!.nextAttemptAt).toBe(iso(START + 3_600_000 + 10_000));
    sandbox.clock.advance(10_000);
    await sandbox.webhooks.settled();
    expect((await outbox(sandbox, "key-a"))[0]!.status).toBe("failed");
    expect(hook.requests).toHaveLength(3);
  });

  it("loses nothing while the receiver is down: refused attempts stay pending, delivered once it is back", async () => {
    const down = await downUrl();
    const sandbox = newSandbox();
    await withWebhooks(sandbox, "key-a", down.url);
    const ids = [await deposit(sandbox, "key-a", 10), await deposit(sandbox, "key-a", 20)];
    await sandbox.webhooks.settled();
    const refused = await outbox(sandbox, "key-a");
    expect(refused.map((webhook) => webhook.status)).toEqual(["pending", "pending"]);
    for (const webhook of refused) {
      expect(webhook.attempts).toHaveLength(1);
      expect(webhook.attempts[0]!.status).toBeUndefined();
      expect(webhook.attempts[0]!.error).toMatch(/ECONNREFUSED|fetch failed/);
    }
    sandbox.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]!);
    await sandbox.webhooks.settled();
    const back = await receiver(() => 200, down.port);
    sandbox.clock.advance(WEBHOOK_RETRY_DELAYS_MS[1]!);
    await sandbox.webhooks.settled();
    const delivered = await outbox(sandbox, "key-a");
    expect(delivered.map((webhook) => [webhook.transactionId, webhook.status, webhook.attempts.length])).toEqual([
      [ids[0], "delivered", 3],
      [ids[1], "delivered", 3],
    ]);
    expect(back.requests.map((request) => JSON.parse(request.raw.toString()).transactionId).sort()).toEqual(
      [...ids].sort(),
    );
  });

  it("refuses a retry policy or a delivery timeout it cannot keep when the sandbox is made", () => {
    for (const webhooks of [{ retry: [-1] }, { retry: [1.5] }, { timeoutMs: 0 }, { timeoutMs: 2 ** 31 }])
      expect(() => newSandbox({ webhooks }), JSON.stringify(webhooks)).toThrow(RangeError);
    expect(() => newSandbox({ webhooks: { retry: [], timeoutMs: 2 ** 31 - 1 } })).not.toThrow();
  });

  it("waits the registered 10 s for an answer by default (fake timers, a receiver that never answers)", async () => {
    useFakeClock(START);
    const sandbox = newSandbox({ webhooks: { onWebhook: () => new Promise(() => {}) } });
    sandbox.putAccount("key-a", { webhookSecret: SECRET });
    await deposit(sandbox, "key-a");
    // Listing waits for the signature, after which the attempt has started and its timeout runs.
    expect((await sandbox.webhooks.list("key-a"))[0]!.attempts).toEqual([{ at: iso(START) }]);
    await vi.advanceTimersByTimeAsync(WEBHOOK_TIMEOUT_MS - 1);
    expect((await sandbox.webhooks.list("key-a"))[0]!.attempts).toEqual([{ at: iso(START) }]);
    await vi.advanceTimersByTimeAsync(1);
    await sandbox.webhooks.settled();
    const [webhook] = await sandbox.webhooks.list("key-a");
    expect(webhook!.attempts).toEqual([{ at: iso(START), error: `no answer within ${WEBHOOK_TIMEOUT_MS} ms` }]);
    expect(sandbox.choices.find((choice) => choice.id === "webhooks.timeout")!.choice).toContain("10 s");
  });

  it("counts no answer within the delivery timeout as a failed attempt, retried after the policy's delay", async () => {
    const hook = await receiver((_, index) => (index === 0 ? "hold" : 200));
    const waits = manualTimeouts();
    const sandbox = newSandbox({ webhooks: { timeoutMs: 50, startTimeout: waits.start } });
    await withWebhooks(sandbox, "key-a", hook.url);
    await deposit(sandbox, "key-a");
    await hook.received(1);
    // The receiver holds the request and the attempt's 50 ms wait runs: no outcome until the test ends the wait.
    expect(waits.running()).toEqual([50]);
    expect((await outbox(sandbox, "key-a"))[0]!.attempts).toEqual([{ at: iso(START) }]);
    waits.expire();
    await sandbox.webhooks.settled();
    expect((await outbox(sandbox, "key-a"))[0]).toMatchObject({
      status: "pending",
      attempts: [{ at: iso(START), error: "no answer within 50 ms" }],
      nextAttemptAt: iso(START + 60_000), // the register's first delay, 1 min after the attempt
    });
    sandbox.clock.advance(59_999);
    await sandbox.webhooks.settled();
    expect(hook.requests).toHaveLength(1);
    sandbox.clock.advance(1);
    await sandbox.webhooks.settled();
    expect(hook.requests).toHaveLength(2);
    expect(hook.requests[1]!.raw.equals(hook.requests[0]!.raw)).toBe(true);
    const [retried] = await outbox(sandbox, "key-a");
    expect(retried!.status).toBe("delivered");
    expect(retried!.attempts).toEqual([
      { at: iso(START), error: "no answer within 50 ms" },
      { at: iso(START + 60_000), status: 200 },
    ]);
    // The answered retry cancelled its own wait: nothing is left to expire.
    expect(waits.running()).toEqual([]);
  });

  it("ends an in-process callback's attempt when its wait expires, and cancels the wait of one answered", async () => {
    const answers: (() => Promise<number>)[] = [() => new Promise<number>(() => {}), async () => 200];
    const waits = manualTimeouts();
    const sandbox = newSandbox({
      webhooks: {
        timeoutMs: 7_000,
        startTimeout: waits.start,
        onWebhook: (delivery) => answers[delivery.attempt - 1]!(),
      },
    });
    sandbox.putAccount("key-a", { webhookSecret: SECRET });
    await deposit(sandbox, "key-a");
    expect((await sandbox.webhooks.list("key-a"))[0]!.attempts).toEqual([{ at: iso(START) }]);
    expect(waits.running()).toEqual([7_000]);
    waits.expire();
    await sandbox.webhooks.settled();
    expect((await sandbox.webhooks.list("key-a"))[0]!.attempts).toEqual([
      { at: iso(START), error: "no answer within 7000 ms" },
    ]);
    sandbox.clock.advance(60_000);
    await sandbox.webhooks.settled();
    const [webhook] = await sandbox.webhooks.list("key-a");
    expect(webhook!.status).toBe("delivered");
    expect(webhook!.attempts[1]).toEqual({ at: iso(START + 60_000), status: 200 });
    expect(waits.running()).toEqual([]);
  });

  it("with the real-time clock, a timer sends a retry once it is due, no advance needed", async () => {
    const hook = await receiver((_, index) => (index === 0 ? 500 : 200));
    const sandbox = createSandbox({ webhooks: { retry: [20] } });
    await withWebhooks(sandbox, "key-a", hook.url);
    await deposit(sandbox, "key-a");
    await hook.received(2);
    await sandbox.webhooks.settled();
    const [webhook] = await outbox(sandbox, "key-a");
    expect(webhook!.status).toBe("delivered");
    const [first, second] = webhook!.attempts.map((attempt) => Date.parse(attempt.at));
    expect(second! - first!).toBeGreaterThanOrEqual(20);
  });

  it("counts a redirect as a failure and never follows it to another URL", async () => {
    const other = await receiver(() => 200);
    const hook = await receiver(() => ({ status: 307, headers: { location: other.url } }));
    const sandbox = newSandbox({ webhooks: { retry: [] } });
    await withWebhooks(sandbox, "key-a", hook.url);
    await deposit(sandbox, "key-a");
    await sandbox.webhooks.settled();
    expect((await outbox(sandbox, "key-a"))[0]).toMatchObject({ status: "failed", attempts: [{ status: 307 }] });
    expect(other.requests).toHaveLength(0);
  });
});
