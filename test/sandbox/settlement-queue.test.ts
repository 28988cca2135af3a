// The queue of withdrawals to settle, on a fixed sandbox clock: each settles at its own moment, soonest first and
// in request order at one moment; settling one by hand takes only its own entry off the queue (also one that was
// never queued); an advance past moments of two stores settles them as two advances would; a restored queue that
// names a withdrawal twice is refused.
import { describe, expect, it } from "vitest";
import { api, newSandbox, stateOf, TRX_DESTINATION } from "./support/sandbox.js";
import type { Sandbox } from "../../src/sandbox/index.js";

const FUNDED = { balances: { USDT: 1000 } };

/** A crypto withdrawal of 10 USDT (fee 1) by `key`: its transaction id. */
async function withdraw(sandbox: Sandbox, key = "key-a"): Promise<string> {
  const body = { amount: 10, currency: "USDT", destination: TRX_DESTINATION };
  const answer = await api(sandbox, "POST", "/wallets/ext/debit/crypto", body, { key });
  expect(answer.status).toBe(200);
  return answer.body.data.id;
}

/** The webhooks of `key` as [transaction id, status], oldest first. */
const webhooks = async (sandbox: Sandbox, key = "key-a") =>
  (await sandbox.webhooks.list(key)).map((webhook) => {
    const body = JSON.parse(webhook.body);
    return [body.transactionId, body.status];
  });

/** The status of withdrawal `id` of `key` in the state, read without a request (which would settle what is due). */
const statusOf = (sandbox: Sandbox, id: string, key = "key-a") =>
  stateOf(sandbox).accounts[key]!.transactions.find((transaction) => transaction.id === id)?.withdrawal?.status;

describe("the settlement queue", () => {
  it("settles each withdrawal at its own moment, in request order at one moment", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": FUNDED } });
    const [first, second] = [await withdraw(sandbox), await withdraw(sandbox)]; // both due at 10:01:00
    sandbox.clock.advance(10_000);
    const third = await withdraw(sandbox); // due at 10:01:10
    sandbox.clock.advance(50_000);
    expect([first, second, third].map((id) => statusOf(sandbox, id))).toEqual(["SUCCESSFUL", "SUCCESSFUL", "PENDING"]);
    expect(await webhooks(sandbox)).toEqual([
      [first, "PENDING"],
      [second, "PENDING"],
      [third, "PENDING"],
      [first, "SUCCESSFUL"],
      [second, "SUCCESSFUL"],
    ]);
    sandbox.clock.advance(10_000);
    expect(statusOf(sandbox, third)).toBe("SUCCESSFUL");
  });

  it("takes only the settled withdrawal's own entry off the queue when a test settles one", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": FUNDED } });
    const [first, second] = [await withdraw(sandbox), await withdraw(sandbox)];
    sandbox.settleWithdrawal(second, "FAILED");
    sandbox.clock.advance(60_000);
    expect([statusOf(sandbox, first), statusOf(sandbox, second)]).toEqual(["SUCCESSFUL", "FAILED"]);
  });

  it("takes nothing off the queue when a test settles a withdrawal that was never queued", async () => {
    const unqueued = newSandbox({ accounts: { "key-a": FUNDED }, withdrawals: { settleAfterMs: null } });
    const old = await withdraw(unqueued);
    const sandbox = newSandbox();
    sandbox.restore(unqueued.snapshot());
    const queued = await withdraw(sandbox);
    sandbox.settleWithdrawal(old, "FAILED");
    sandbox.clock.advance(60_000);
    expect([statusOf(sandbox, old), statusOf(sandbox, queued)]).toEqual(["FAILED", "SUCCESSFUL"]);
  });

  it("settles two stores' withdrawals in one advance as two advances to their moments would", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": FUNDED, "key-b": FUNDED } });
    await withdraw(sandbox, "key-b"); // due at 10:01:00
    sandbox.clock.advance(10_000);
    await withdraw(sandbox, "key-a"); // due at 10:01:10, though key-a's store comes first
    const stepwise = newSandbox();
    stepwise.restore(sandbox.snapshot());
    sandbox.clock.advance(60_000);
    stepwise.clock.advance(50_000);
    stepwise.clock.advance(10_000);
    // Each settlement draws the hash of its withdrawal from the state's generator: the order decides which is which.
    const transactions = (of: Sandbox) => ["key-a", "key-b"].map((key) => stateOf(of).accounts[key]!.transactions);
    expect(transactions(sandbox)).toEqual(transactions(stepwise));
  });

  it("refuses a restored queue that names one withdrawal twice (its second entry would outlive it)", async () => {
    const options = { accounts: { "key-a": FUNDED }, withdrawals: { outcome: "FAILED" as const } };
    const original = newSandbox(options);
    await withdraw(original);
    const saved = structuredClone(original.snapshot()) as any;
    const { settlements } = saved.accounts["key-a"];
    settlements.push({ ...settlements[0] });
    const sandbox = newSandbox(options);
    expect(() => sandbox.restore(saved)).toThrow(
      "sandbox state: /accounts/key-a/settlements/1 names a withdrawal an earlier entry settles",
    );
    settlements.pop();
    expect(() => sandbox.restore(saved)).not.toThrow();
  });
});
