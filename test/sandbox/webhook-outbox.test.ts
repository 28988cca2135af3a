// pins: webhooks.destination
// The outbox lists every webhook of a key with its exact body, signature, URL, status and each attempt (its time
// on the sandbox clock, the receiver's status or the error), the same over GET /_sandbox/webhooks and
// in-process; it is part of the state, so a pending delivery resumes after a restore. In-process, webhooks can
// go to a callback or through a given fetch instead of the global one; only the account's URL is ever called.
import { describe, expect, it, vi } from "vitest";
import { WEBHOOK_RETRY_DELAYS_MS } from "../../src/sandbox/rules.js";
import type { WebhookDelivery } from "../../src/sandbox/index.js";
import { control, newSandbox, START } from "./support/sandbox.js";
import {
  deposit,
  downUrl,
  outbox,
  SECRET,
  settle,
  receiversClosedAfterEach,
  withdraw,
  withWebhooks,
} from "./support/receiver.js";
import { WEBHOOK_SIGNATURE_HEADER } from "../support/spec.js";

const receiver = receiversClosedAfterEach();

const iso = (ms: number) => new Date(ms).toISOString();

describe("webhook outbox", () => {
  it("lists each webhook: exact body, signature, URL, status and attempts, over HTTP and in-process", async () => {
    const hook = await receiver((_, index) => (index === 0 ? 502 : 200));
    const sandbox = newSandbox();
    await withWebhooks(sandbox, "key-a", hook.url);
    const id = await deposit(sandbox, "key-a");
    await sandbox.webhooks.settled();
    const listed = await outbox(sandbox, "key-a");
    expect(listed).toHaveLength(1);
    const [webhook] = listed;
    expect(webhook).toMatchObject({
      apiKey: "key-a",
      transactionId: id,
      url: hook.url,
      body: hook.requests[0]!.raw.toString("utf8"),
      signature: hook.requests[0]!.headers[WEBHOOK_SIGNATURE_HEADER],
      status: "pending",
      attempts: [{ at: iso(START), status: 502 }],
      nextAttemptAt: iso(START + WEBHOOK_RETRY_DELAYS_MS[0]!),
    });
    expect(JSON.parse(webhook!.body)).toMatchObject({ type: "DEPOSIT", transactionId: id });
    expect(await sandbox.webhooks.list("key-a")).toEqual(listed);
    expect(sandbox.bugs).toEqual([]);
  });

  it("lists only the key's webhooks, every key's without apiKey, and every transaction's webhooks", async () => {
    const hook = await receiver();
    const sandbox = newSandbox();
    await withWebhooks(sandbox, "key-a", hook.url);
    await withWebhooks(sandbox, "key-b", hook.url);
    const depositId = await deposit(sandbox, "key-a");
    const withdrawalId = await withdraw(sandbox, "key-a");
    await settle(sandbox, withdrawalId, "FAILED");
    const ofB = await deposit(sandbox, "key-b");
    await sandbox.webhooks.settled();
    const ofA = await outbox(sandbox, "key-a");
    expect(ofA.map((webhook) => [webhook.transactionId, JSON.parse(webhook.body).status])).toEqual([
      [depositId, "CONFIRMED"],
      [withdrawalId, "PENDING"],
      [withdrawalId, "FAILED"],
    ]);
    expect((await outbox(sandbox, "key-b")).map((webhook) => webhook.transactionId)).toEqual([ofB]);
    const all = await control(sandbox, "GET", "/_sandbox/webhooks");
    expect(all.status).toBe(200);
    expect(all.body.map((webhook: { apiKey: string }) => webhook.apiKey).sort()).toEqual([
      "key-a",
      "key-a",
      "key-a",
      "key-b",
    ]);
    expect(await outbox(sandbox, "key-none")).toEqual([]);
  });

  it("lists every key's webhooks oldest first, across the keys", async () => {
    const sandbox = newSandbox({ webhooks: { onWebhook: () => undefined } });
    for (const key of ["key-a", "key-b"]) sandbox.putAccount(key, { webhookSecret: SECRET });
    for (const key of ["key-b", "key-a", "key-b"]) {
      await deposit(sandbox, key);
      sandbox.clock.advance(1000);
    }
    await sandbox.webhooks.settled();
    const all = await sandbox.webhooks.list();
    expect(all.map((webhook) => [webhook.apiKey, webhook.createdAt])).toEqual([
      ["key-b", iso(START)],
      ["key-a", iso(START + 1000)],
      ["key-b", iso(START + 2000)],
    ]);
  });

  it("resumes a pending delivery after a restore, in another sandbox, over the state's JSON", async () => {
    const down = await downUrl();
    const sandbox = newSandbox();
    await withWebhooks(sandbox, "key-a", down.url);
    const id = await deposit(sandbox, "key-a");
    await sandbox.webhooks.settled();
    // A state read without its secrets cannot sign the pending webhook: refused; with them, restored.
    const unsigned = await control(sandbox, "GET", "/_sandbox/state");
    const restored = newSandbox();
    expect((await control(restored, "PUT", "/_sandbox/state", JSON.stringify(unsigned.body))).status).toBe(400);
    const saved = await control(sandbox, "GET", "/_sandbox/state?secrets=true");
    expect((await control(restored, "PUT", "/_sandbox/state", JSON.stringify(saved.body))).status).toBe(204);
    expect(await outbox(restored, "key-a")).toEqual(await outbox(sandbox, "key-a"));
    const back = await receiver(() => 200, down.port);
    restored.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]!);
    await restored.webhooks.settled();
    expect(back.requests.map((request) => JSON.parse(request.raw.toString()).transactionId)).toEqual([id]);
    expect((await outbox(restored, "key-a"))[0]!.status).toBe("delivered");
  });

  it("counts an attempt running at the save as failed in the restored sandbox, and retries it", async () => {
    const hook = await receiver((_, index) => (index === 0 ? "hold" : 200));
    const sandbox = newSandbox();
    await withWebhooks(sandbox, "key-a", hook.url);
    await deposit(sandbox, "key-a");
    await hook.received(1);
    const restored = newSandbox();
    restored.restore(sandbox.snapshot());
    const [webhook] = await outbox(restored, "key-a");
    expect(webhook).toMatchObject({
      status: "pending",
      attempts: [{ at: iso(START), error: "no outcome: the state was saved while this attempt ran" }],
      nextAttemptAt: iso(START + WEBHOOK_RETRY_DELAYS_MS[0]!),
    });
    restored.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]!);
    await restored.webhooks.settled();
    expect((await outbox(restored, "key-a"))[0]!.status).toBe("delivered");
    hook.release();
    await sandbox.webhooks.settled();
    expect((await outbox(sandbox, "key-a"))[0]!.attempts).toEqual([{ at: iso(START), status: 200 }]);
  });

  it("keeps a webhook unsent (failed, no attempt) when the account has no URL, and calls no other URL", async () => {
    const called: string[] = [];
    const spy: typeof fetch = async (input) => {
      called.push(String(input));
      return new Response(null, { status: 200 });
    };
    const sandbox = newSandbox({ webhooks: { fetch: spy } });
    sandbox.putAccount("key-a", { balances: { USDT: 100 }, webhookSecret: SECRET });
    const id = await deposit(sandbox, "key-a");
    await sandbox.webhooks.settled();
    expect(await outbox(sandbox, "key-a")).toMatchObject([
      { transactionId: id, url: null, status: "failed", attempts: [] },
    ]);
    sandbox.putAccount("key-b", { webhookUrl: "http://127.0.0.1:9/b", webhookSecret: SECRET });
    await deposit(sandbox, "key-b");
    await sandbox.webhooks.settled();
    expect(called).toEqual(["http://127.0.0.1:9/b"]);
  });

  it("fails a webhook that cannot be signed (no Web Crypto) at once, saying why, and sends the next", async () => {
    const deliveries: WebhookDelivery[] = [];
    const sandbox = newSandbox({ webhooks: { onWebhook: (delivery) => void deliveries.push(delivery) } });
    sandbox.putAccount("key-a", { webhookSecret: SECRET });
    vi.stubGlobal("crypto", { getRandomValues: crypto.getRandomValues.bind(crypto) });
    try {
      await deposit(sandbox, "key-a", 10);
      await sandbox.webhooks.settled();
    } finally {
      vi.unstubAllGlobals();
    }
    const [unsigned] = await outbox(sandbox, "key-a");
    expect(unsigned).toMatchObject({ status: "failed", attempts: [{ at: iso(START) }] });
    expect(unsigned!.attempts[0]!.error).toMatch(/^not signed: .*Web Crypto/);
    expect(unsigned!.nextAttemptAt).toBeUndefined();
    await deposit(sandbox, "key-a", 20);
    await sandbox.webhooks.settled();
    expect((await outbox(sandbox, "key-a")).map((webhook) => webhook.status)).toEqual(["failed", "delivered"]);
    expect(deliveries).toHaveLength(1);
  });

  it("restores no account whose webhook secret is empty (it could sign nothing)", () => {
    const sandbox = newSandbox();
    sandbox.putAccount("key-a", { webhookSecret: SECRET });
    const saved = structuredClone(sandbox.snapshot()) as any;
    saved.accounts["key-a"].webhookSecret = "";
    expect(() => newSandbox().restore(saved)).toThrow(/webhookSecret/);
  });

  it("hands webhooks to the onWebhook callback of an account without a URL, retrying when it throws", async () => {
    const deliveries: WebhookDelivery[] = [];
    const onWebhook = (delivery: WebhookDelivery) => {
      deliveries.push(delivery);
      if (delivery.attempt === 1) throw new Error("not ready");
    };
    const sandbox = newSandbox({ webhooks: { onWebhook } });
    sandbox.putAccount("key-a", { webhookSecret: SECRET });
    const id = await deposit(sandbox, "key-a");
    await sandbox.webhooks.settled();
    expect((await outbox(sandbox, "key-a"))[0]).toMatchObject({
      url: null,
      status: "pending",
      attempts: [{ at: iso(START), error: "not ready" }],
    });
    sandbox.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]!);
    await sandbox.webhooks.settled();
    const [webhook] = await outbox(sandbox, "key-a");
    expect(webhook!.status).toBe("delivered");
    expect(deliveries.map((delivery) => delivery.attempt)).toEqual([1, 2]);
    expect(deliveries[1]).toMatchObject({
      apiKey: "key-a",
      transactionId: id,
      body: webhook!.body,
      signature: webhook!.signature,
      headers: { "content-type": "application/json", [WEBHOOK_SIGNATURE_HEADER]: webhook!.signature },
    });
  });

  it("drops a key's outbox when its account is put again or deleted, and nothing of another key", async () => {
    const sandbox = newSandbox({ webhooks: { onWebhook: () => undefined } });
    sandbox.putAccount("key-a", { webhookSecret: SECRET });
    sandbox.putAccount("key-b", { webhookSecret: SECRET });
    await deposit(sandbox, "key-a");
    await deposit(sandbox, "key-b");
    await sandbox.webhooks.settled();
    sandbox.putAccount("key-a", { webhookSecret: SECRET });
    expect(await outbox(sandbox, "key-a")).toEqual([]);
    expect(await outbox(sandbox, "key-b")).toHaveLength(1);
    sandbox.deleteAccount("key-b");
    expect(await sandbox.webhooks.list()).toEqual([]);
  });
});
