// Properties of webhook delivery over random sequences of deposits, withdrawals, settlements, resends, clock
// advances and a receiver that goes down (refused connections), errs (500) and comes back, on two keys with their
// own secrets. Whatever the sequence:
//   - a receiver that is down loses nothing: once it is back and the clock has moved past every retry, each
//     webhook is delivered, or failed only after every attempt the policy allows (all of them, if it stays down);
//   - nothing is sent twice except by a retry or a resend: the receiver's 2xx answers are exactly the outbox's
//     delivered webhooks (body and signature), and every request it got is an attempt the outbox shows;
//   - every request is signed over its exact bytes with its key's secret, and every deposit and withdrawal of a
//     key has its webhooks in that key's outbox.
import { createHmac } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { api, newSandbox } from "./support/sandbox.js";
import { type Receiver, startReceiver, withWebhooks } from "./support/receiver.js";
import { WEBHOOK_SIGNATURE_HEADER } from "../support/spec.js";

const KEYS = { "key-a": "secret-a", "key-b": "secret-b" } as const;
type Key = keyof typeof KEYS;
const RETRY = [1_000, 5_000, 20_000];

type Command =
  | { kind: "deposit"; key: Key; amount: number }
  | { kind: "withdraw"; key: Key; amount: number }
  | { kind: "settle"; pick: number; failed: boolean }
  | { kind: "resend"; key: Key; pick: number }
  | { kind: "receiver"; mode: "up" | "erring" | "down" }
  | { kind: "advance"; ms: number }
  | { kind: "wait" };

const key = fc.constantFrom<Key>("key-a", "key-b");
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("deposit"), key, amount: fc.integer({ min: 5, max: 50 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("withdraw"), key, amount: fc.integer({ min: 5, max: 30 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("settle"), pick: fc.nat(), failed: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("resend"), key, pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("receiver"), mode: fc.constantFrom("up", "erring", "down") }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("advance"), ms: fc.constantFrom(500, 1_000, 5_000, 30_000) }) },
  { weight: 1, arbitrary: fc.constant({ kind: "wait" as const }) },
);

let receiver: Receiver;
let mode: "up" | "erring" | "down" = "up";
/** Each request the receiver got, with what it answered. */
const answered: { body: string; signature: string; status: number }[] = [];

beforeAll(async () => {
  receiver = await startReceiver((request) => {
    const status = mode === "erring" ? 500 : 200;
    answered.push({
      body: request.raw.toString("utf8"),
      signature: String(request.headers[WEBHOOK_SIGNATURE_HEADER]),
      status,
    });
    return status;
  });
});
afterAll(() => receiver.close());

/** The global fetch, refused while the receiver is down (as a closed port refuses). */
const fetchUnlessDown: typeof fetch = (input, init) =>
  mode === "down"
    ? Promise.reject(new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } }))
    : fetch(input, init);

async function address(sandbox: Sandbox, apiKey: Key): Promise<string> {
  const body = { currency: "USDT", network: "TRX", uniqueUserIdentifier: "payouts" };
  return (await api(sandbox, "POST", "/addresses/broker", body, { key: apiKey })).body.data.value;
}

async function run(sandbox: Sandbox, commands: Command[], made: { key: Key; id: string }[], withdrawals: string[]) {
  for (const step of commands) {
    if (step.kind === "deposit") {
      const body = { apiKey: step.key, currency: "USDT", network: "TRX", amount: step.amount };
      const answer = await sandbox.fetch(
        new Request("http://sandbox.test/_sandbox/deposits", { method: "POST", body: JSON.stringify(body) }),
      );
      if (answer.status === 201) made.push({ key: step.key, id: (await answer.json()).id });
    } else if (step.kind === "withdraw") {
      const destination = { address: await address(sandbox, step.key), network: "TRX" };
      const body = { amount: step.amount, currency: "USDT", destination, narration: "property" };
      const answer = await api(sandbox, "POST", "/wallets/ext/debit/crypto", body, { key: step.key });
      if (answer.status === 200) {
        made.push({ key: step.key, id: answer.body.data.id });
        withdrawals.push(answer.body.data.id);
      }
    } else if (step.kind === "settle" && withdrawals.length > 0) {
      const id = withdrawals[step.pick % withdrawals.length]!;
      const body = JSON.stringify({ status: step.failed ? "FAILED" : "SUCCESSFUL" });
      await sandbox.fetch(
        new Request(`http://sandbox.test/_sandbox/withdrawals/${id}/settle`, { method: "POST", body }),
      );
    } else if (step.kind === "resend") {
      const own = made.filter((transaction) => transaction.key === step.key);
      if (own.length > 0) {
        const ids = [own[step.pick % own.length]!.id];
        expect((await api(sandbox, "POST", "/transactions/resendWebhooks", { ids }, { key: step.key })).status).toBe(
          200,
        );
      }
    } else if (step.kind === "receiver") mode = step.mode;
    else if (step.kind === "advance") sandbox.clock.advance(step.ms);
    else if (step.kind === "wait") await sandbox.webhooks.settled();
  }
}

const pending = async (sandbox: Sandbox) =>
  (await sandbox.webhooks.list()).some((webhook) => webhook.status === "pending");

const hmac = (body: string, secret: string) => createHmac("sha512", secret).update(body).digest("hex");

describe("webhook delivery properties", () => {
  it("loses nothing when the receiver is down, sends nothing twice but by retry or resend, signs all", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 25 }), fc.boolean(), async (commands, back) => {
        mode = "up";
        answered.length = 0;
        const sandbox = newSandbox({ webhooks: { retry: RETRY, fetch: fetchUnlessDown } });
        for (const [apiKey, secret] of Object.entries(KEYS)) await withWebhooks(sandbox, apiKey, receiver.url, secret);
        const made: { key: Key; id: string }[] = [];
        await run(sandbox, commands, made, []);
        // The receiver is back (or stays down): past every retry, each webhook is delivered or failed after its
        // last attempt.
        mode = back ? "up" : "down";
        await sandbox.webhooks.settled();
        // A transaction's webhooks go one after the other: each may need every attempt of the policy.
        const bound = (commands.length + 1) * 2 * (RETRY.length + 1);
        for (let step = 0; step < bound && (await pending(sandbox)); step++) {
          sandbox.clock.advance(Math.max(...RETRY));
          await sandbox.webhooks.settled();
        }
        const listed = await sandbox.webhooks.list();
        for (const webhook of listed) {
          if (webhook.status === "delivered") continue;
          expect(webhook.status).toBe("failed");
          expect(webhook.attempts).toHaveLength(RETRY.length + 1);
        }
        const key = (pair: { body: string; signature: string | null }) => `${pair.signature} ${pair.body}`;
        const deliveredByReceiver = answered
          .filter((request) => request.status === 200)
          .map(key)
          .sort();
        const deliveredByOutbox = listed
          .filter((w) => w.status === "delivered")
          .map(key)
          .sort();
        expect(deliveredByReceiver).toEqual(deliveredByOutbox);
        const answeredAttempts = listed.flatMap((w) => w.attempts).filter((attempt) => attempt.status !== undefined);
        expect(answered).toHaveLength(answeredAttempts.length);
        for (const webhook of listed) expect(webhook.signature).toBe(hmac(webhook.body, KEYS[webhook.apiKey as Key]));
        for (const request of answered) {
          const transactionId = JSON.parse(request.body).transactionId;
          const owner = made.find((transaction) => transaction.id === transactionId)!;
          expect(request.signature).toBe(hmac(request.body, KEYS[owner.key]));
        }
        for (const transaction of made)
          expect(listed.some((w) => w.apiKey === transaction.key && w.transactionId === transaction.id)).toBe(true);
        expect(sandbox.bugs).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });
});
