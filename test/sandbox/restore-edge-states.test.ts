// States at the edge of the restore's rules, which a sandbox writes and so a restore takes: a wallet holding
// exactly the largest balance (999 999 999 999 999 minor units), and a store with two withdrawals queued to settle.
import { describe, expect, it } from "vitest";
import { api, newSandbox, stateOf, thrownBy, TRX_DESTINATION } from "./support/sandbox.js";

describe("a restore at the edge of its rules", () => {
  it("takes a wallet holding exactly the largest balance", () => {
    // USDT has 6 decimals: 999 999 999.999999 USDT is 999 999 999 999 999 minor units.
    const original = newSandbox({ accounts: { "key-a": { balances: { USDT: 999_999_999.999999 } } } });
    const saved = original.snapshot();
    const sandbox = newSandbox();
    expect(thrownBy(() => sandbox.restore(saved))).toBeUndefined();
    expect(sandbox.getAccount("key-a")?.balances.USDT).toBe(999_999_999.999999);
  });

  it("takes two withdrawals of one store queued to settle, and settles both", async () => {
    const original = newSandbox({ accounts: { "key-a": { balances: { USDT: 1000 } } } });
    const body = { amount: 10, currency: "USDT", destination: TRX_DESTINATION };
    for (let n = 0; n < 2; n++)
      expect((await api(original, "POST", "/wallets/ext/debit/crypto", body)).status).toBe(200);
    const saved = original.snapshot();
    expect(stateOf(original).accounts["key-a"]!.settlements).toHaveLength(2);
    const sandbox = newSandbox();
    expect(thrownBy(() => sandbox.restore(saved))).toBeUndefined();
    sandbox.clock.advance(60_000); // the default settlement delay
    const statuses = stateOf(sandbox).accounts["key-a"]!.transactions.map(
      (transaction) => transaction.withdrawal?.status,
    );
    expect(statuses).toEqual(["SUCCESSFUL", "SUCCESSFUL"]);
  });
});
