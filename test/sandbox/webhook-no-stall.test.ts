// A receiver that never answers does not slow the API: the request that makes a webhook is answered while the
// receiver still holds the webhook's request, and other requests (of this key and others) are answered too.
// Asserted on what happened (the receiver holds the request, the attempt has no outcome yet, the answers
// arrived), never on elapsed time. Over the HTTP front as well as in-process.
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import { api, control, newSandbox } from "./support/sandbox.js";
import {
  deposit,
  outbox,
  type Receiver,
  withdraw,
  withWebhooks,
  receiversClosedAfterEach,
} from "./support/receiver.js";
import { API_KEY_HEADER } from "../support/spec.js";

/** Starts a receiver, closed after the test. */
const startClosedAfterEach = receiversClosedAfterEach();
let receiver: Receiver | undefined;

describe("webhook delivery never stalls the API", () => {
  it("answers while the receiver holds the webhook's request unanswered", async () => {
    receiver = await startClosedAfterEach(() => "hold");
    const sandbox = newSandbox();
    await withWebhooks(sandbox, "key-a", receiver.url);
    const id = await deposit(sandbox, "key-a");
    await receiver.received(1);
    expect(receiver.held).toHaveLength(1);
    const wallets = await api(sandbox, "GET", "/wallets/me");
    const transaction = await api(sandbox, "GET", `/transactions/${id}`);
    const otherKey = await api(sandbox, "GET", "/wallets/me", undefined, { key: "key-b" });
    const withdrawal = await withdraw(sandbox, "key-a");
    expect([wallets.status, transaction.status, otherKey.status]).toEqual([200, 200, 200]);
    expect(withdrawal).toBeTypeOf("string");
    // The receiver holds both webhooks' requests (the deposit's and the withdrawal's): no outcome yet.
    await receiver.received(2);
    expect(receiver.held).toHaveLength(2);
    const [first] = await outbox(sandbox, "key-a");
    expect(first!.status).toBe("pending");
    expect(first!.attempts).toHaveLength(1);
    expect(first!.attempts[0]!.status).toBeUndefined();
    expect(first!.attempts[0]!.error).toBeUndefined();
    receiver.release();
    await sandbox.webhooks.settled();
    expect((await outbox(sandbox, "key-a")).map((webhook) => webhook.status)).toEqual(["delivered", "delivered"]);
  });

  it("answers over HTTP while many webhooks are held by a receiver that never answers", async () => {
    receiver = await startClosedAfterEach(() => "hold");
    const server = await startSandbox({ port: 0, quiet: true });
    try {
      const base = server.origin;
      const put = await fetch(`${base}/_sandbox/accounts/key-a`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ balances: { USDT: 1000 }, webhookUrl: receiver.url, webhookSecret: "s" }),
      });
      expect(put.status).toBe(200);
      const body = JSON.stringify({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 25 });
      const headers = { "content-type": "application/json" };
      for (let i = 0; i < 20; i++) {
        const made = await fetch(`${base}/_sandbox/deposits`, { method: "POST", headers, body });
        expect(made.status).toBe(201);
        await made.arrayBuffer();
      }
      await receiver.received(20);
      const wallets = await fetch(`${server.baseUrl}/wallets/me`, { headers: { [API_KEY_HEADER]: "key-a" } });
      expect(wallets.status).toBe(200);
      expect(
        (await wallets.json()).data.find((w: { currency: { code: string } }) => w.currency.code === "USDT"),
      ).toBeDefined();
      expect(receiver.held).toHaveLength(20);
    } finally {
      await receiver.close();
      receiver = undefined;
      await server.stop();
    }
  });

  it("has the webhook in the outbox as soon as the request that made it is answered", async () => {
    receiver = await startClosedAfterEach(() => "hold");
    const sandbox = newSandbox();
    await withWebhooks(sandbox, "key-a", receiver.url);
    const made = await control(sandbox, "POST", "/_sandbox/deposits", {
      apiKey: "key-a",
      currency: "USDT",
      network: "TRX",
      amount: 5,
    });
    expect(made.status).toBe(201);
    // The webhook is in the outbox as soon as the answer is; its delivery is not part of the answer.
    expect((await outbox(sandbox, "key-a")).map((webhook) => webhook.transactionId)).toEqual([made.body.id]);
    await receiver.received(1);
  });
});
