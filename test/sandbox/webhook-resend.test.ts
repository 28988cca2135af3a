// pins: webhooks.resend
// Resend Webhooks (a list of transaction ids) and Resend Transaction Webhook (one id in the path) send each
// transaction's latest webhook again, byte for byte: the receiver gets the same body and the same signature
// as the first delivery, as a new webhook of the outbox. Another key's transaction or an unknown id answers
// the register's 404 and sends nothing (choices.ts, "webhooks.resend").
import { describe, expect, it } from "vitest";
import { REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { api, newSandbox, quoteId } from "./support/sandbox.js";
import {
  deposit,
  outbox,
  type Receiver,
  settle,
  withdraw,
  withWebhooks,
  receiversClosedAfterEach,
} from "./support/receiver.js";
import { WEBHOOK_SIGNATURE_HEADER } from "../support/spec.js";

/** Starts a receiver, closed after the test. */
const startClosedAfterEach = receiversClosedAfterEach();
let receiver: Receiver | undefined;

const signatureOf = (index: number) => receiver!.requests[index]!.headers[WEBHOOK_SIGNATURE_HEADER];

describe("webhook resend", () => {
  it("Resend Webhooks sends the transaction's webhook again, the same bytes and signature", async () => {
    receiver = await startClosedAfterEach();
    const sandbox = newSandbox();
    await withWebhooks(sandbox, "key-a", receiver.url);
    const id = await deposit(sandbox, "key-a");
    await receiver.received(1);
    const answer = await api(sandbox, "POST", "/transactions/resendWebhooks", { ids: [id] });
    expect(answer.status).toBe(200);
    expect(answer.violations).toEqual([]);
    const [first, again] = await receiver.received(2);
    expect(again!.raw.equals(first!.raw)).toBe(true);
    expect(signatureOf(1)).toBe(signatureOf(0));
    await sandbox.webhooks.settled();
    const [original, resent] = await outbox(sandbox, "key-a");
    expect(resent).toMatchObject({ transactionId: id, body: original!.body, signature: original!.signature });
    expect(resent!.id).not.toBe(original!.id);
    expect(resent!.resendOf).toBe(original!.id);
    expect(original).not.toHaveProperty("resendOf");
    expect(resent!.status).toBe("delivered");
  });

  it("the single-transaction form sends the latest webhook: a settled withdrawal's last state", async () => {
    receiver = await startClosedAfterEach();
    const sandbox = newSandbox();
    await withWebhooks(sandbox, "key-a", receiver.url);
    const id = await withdraw(sandbox, "key-a");
    await settle(sandbox, id, "SUCCESSFUL");
    await receiver.received(2);
    const answer = await api(sandbox, "POST", `/transactions/${id}/resendWebhook`);
    expect(answer.status).toBe(200);
    expect(answer.violations).toEqual([]);
    const requests = await receiver.received(3);
    expect(requests[2]!.raw.equals(requests[1]!.raw)).toBe(true);
    expect(signatureOf(2)).toBe(signatureOf(1));
    expect(JSON.parse(requests[2]!.raw.toString("utf8")).status).toBe("SUCCESSFUL");
  });

  it("answers 404 and sends nothing for another key's transaction or an unknown id, in either form", async () => {
    receiver = await startClosedAfterEach();
    const sandbox = newSandbox();
    await withWebhooks(sandbox, "key-a", receiver.url);
    await withWebhooks(sandbox, "key-b", receiver.url);
    const ofA = await deposit(sandbox, "key-a");
    const ofB = await deposit(sandbox, "key-b");
    await sandbox.webhooks.settled();
    const refusals = [
      await api(sandbox, "POST", "/transactions/resendWebhooks", { ids: [ofA] }, { key: "key-b" }),
      await api(sandbox, "POST", "/transactions/resendWebhooks", { ids: [ofB, "no-such-id"] }, { key: "key-b" }),
      await api(sandbox, "POST", `/transactions/${ofA}/resendWebhook`, undefined, { key: "key-b" }),
      await api(sandbox, "POST", "/transactions/no-such-id/resendWebhook", undefined, { key: "key-b" }),
    ];
    expect(refusals.map((answer) => answer.status)).toEqual(Array(4).fill(REFUSAL_STATUS.notFound));
    expect(refusals.flatMap((answer) => answer.violations)).toEqual([]);
    await sandbox.webhooks.settled();
    expect(receiver.requests).toHaveLength(2);
    expect(await outbox(sandbox, "key-a")).toHaveLength(1);
    expect(await outbox(sandbox, "key-b")).toHaveLength(1);
  });

  it("sends nothing for a transaction that has no webhook (a swap)", async () => {
    receiver = await startClosedAfterEach();
    const sandbox = newSandbox();
    await withWebhooks(sandbox, "key-a", receiver.url);
    expect((await api(sandbox, "POST", `/trades/quote/${await quoteId(sandbox)}`, {})).status).toBe(200);
    const swaps = await api(sandbox, "GET", "/transactions/me?category=SWAP");
    const ids = swaps.body.data.map((transaction: { id: string }) => transaction.id);
    expect(ids).toHaveLength(2);
    const answer = await api(sandbox, "POST", "/transactions/resendWebhooks", { ids });
    expect(answer.status).toBe(200);
    await sandbox.webhooks.settled();
    expect(await outbox(sandbox, "key-a")).toEqual([]);
    expect(receiver.requests).toHaveLength(0);
  });
});
