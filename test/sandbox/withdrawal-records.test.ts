// pins: withdrawals.records
// A withdrawal's transaction, crypto or bank, has a UUID reference and the description of the crypto sample,
// External payout; the refund of a FAILED one has the withdrawal's reference and the description Refund of
// external payout.
import { describe, expect, it } from "vitest";
import { api, newSandbox, withdrawBoth } from "./support/sandbox.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("withdrawal records", () => {
  it("have a UUID reference and the description External payout; a refund, Refund of external payout", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 1000, NGNX: 100_000 } } } });
    const { crypto, bank } = await withdrawBoth(sandbox);
    for (const answer of [crypto, bank]) {
      expect(answer.body.data.reference).toMatch(UUID);
      expect(answer.body.data.description).toBe("External payout");
    }
    sandbox.settleWithdrawal(crypto.body.data.id, "FAILED");
    sandbox.settleWithdrawal(bank.body.data.id, "FAILED");
    const history = (await api(sandbox, "GET", "/transactions/me?category=WITHDRAWAL")).body.data;
    expect(history.map((t: any) => [t.type, t.amount, t.reference, t.description])).toEqual([
      ["CREDIT", 15_075, bank.body.data.reference, "Refund of external payout"],
      ["CREDIT", 11, crypto.body.data.reference, "Refund of external payout"],
      ["DEBIT", 15_000, bank.body.data.reference, "External payout"],
      ["DEBIT", 10, crypto.body.data.reference, "External payout"],
    ]);
  });
});
