// pins: webhooks.order
// The webhooks of one transaction reach the receiver in the order they were made (choices.ts,
// "webhooks.order"): a withdrawal's SUCCESSFUL webhook is not sent while its PENDING one is unanswered or being
// retried, and goes out once that one is delivered or has failed. Webhooks of other transactions do not wait.
import { describe, expect, it } from "vitest";
import { WEBHOOK_RETRY_DELAYS_MS } from "../../src/sandbox/rules.js";
import { newSandbox } from "./support/sandbox.js";
import {
  deposit,
  outbox,
  type Receiver,
  type Received,
  settle,
  withdraw,
  withWebhooks,
  receiversClosedAfterEach,
} from "./support/receiver.js";

/** Starts a receiver, closed after the test. */
const startClosedAfterEach = receiversClosedAfterEach();
let receiver: Receiver | undefined;

const payloadOf = (request: Received) => JSON.parse(request.raw.toString("utf8"));

describe("webhook order", () => {
  it("holds a withdrawal's later webhook while its first is being retried, then sends both in order", async () => {
    receiver = await startClosedAfterEach((_, index) => (index === 0 ? 500 : 200));
    const sandbox = newSandbox();
    await withWebhooks(sandbox, "key-a", receiver.url);
    const id = await withdraw(sandbox, "key-a");
    await settle(sandbox, id, "SUCCESSFUL");
    await sandbox.webhooks.settled();
    const waiting = await outbox(sandbox, "key-a");
    expect(waiting.map((webhook) => [webhook.status, webhook.attempts.length])).toEqual([
      ["pending", 1],
      ["pending", 0],
    ]);
    expect(receiver.requests).toHaveLength(1);
    sandbox.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]!);
    await sandbox.webhooks.settled();
    expect(receiver.requests.map((request) => [payloadOf(request).transactionId, payloadOf(request).status])).toEqual([
      [id, "PENDING"],
      [id, "PENDING"],
      [id, "SUCCESSFUL"],
    ]);
    expect((await outbox(sandbox, "key-a")).map((webhook) => webhook.status)).toEqual(["delivered", "delivered"]);
  });

  it("sends the later webhook only once the earlier is answered, while other transactions' go at once", async () => {
    receiver = await startClosedAfterEach((_, index) => (index === 0 ? "hold" : 200));
    const sandbox = newSandbox();
    await withWebhooks(sandbox, "key-a", receiver.url);
    const id = await withdraw(sandbox, "key-a");
    await settle(sandbox, id, "FAILED");
    const depositId = await deposit(sandbox, "key-a");
    const [first, second] = await receiver.received(2);
    expect(payloadOf(first!)).toMatchObject({ transactionId: id, status: "PENDING" });
    expect(payloadOf(second!)).toMatchObject({ transactionId: depositId, type: "DEPOSIT" });
    const held = (await outbox(sandbox, "key-a")).find((w) => w.transactionId === id && w.attempts.length === 0);
    expect(JSON.parse(held!.body)).toMatchObject({ status: "FAILED" });
    receiver.release();
    const [, , third] = await receiver.received(3);
    expect(payloadOf(third!)).toMatchObject({ transactionId: id, status: "FAILED" });
    await sandbox.webhooks.settled();
    expect(receiver.requests).toHaveLength(3);
  });

  it("sends the later webhook after the earlier has failed for good", async () => {
    receiver = await startClosedAfterEach((request) => (payloadOf(request).status === "PENDING" ? 500 : 200));
    const sandbox = newSandbox({ webhooks: { retry: [] } });
    await withWebhooks(sandbox, "key-a", receiver.url);
    const id = await withdraw(sandbox, "key-a");
    await settle(sandbox, id, "SUCCESSFUL");
    await sandbox.webhooks.settled();
    expect((await outbox(sandbox, "key-a")).map((webhook) => webhook.status)).toEqual(["failed", "delivered"]);
    expect(receiver.requests.map((request) => payloadOf(request).status)).toEqual(["PENDING", "SUCCESSFUL"]);
  });
});
