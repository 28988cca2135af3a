// A maximum of 0 in a catalogue currency bounds nothing, as a left-out one: maximumWithdrawalFee 0 leaves a
// PERCENTAGE withdrawal fee uncapped, maximumDeposit 0 takes a deposit of any size.
import { describe, expect, it } from "vitest";
import { successExample } from "../support/spec.js";
import { api, BANK_DESTINATION, newSandbox } from "./support/sandbox.js";

/** The contract's example currencies, with `changes` made to the one of `code`. */
const currenciesWith = (code: string, changes: Record<string, unknown>) =>
  (successExample("getCurrencies").data as Array<Record<string, unknown>>).map((currency) =>
    currency.code === code ? { ...currency, ...changes } : currency,
  );

describe("a catalogue maximum of 0", () => {
  it("maximumWithdrawalFee 0: NGNX's 0.5 % fee on 1 000 000 is 5000, not capped to 0", async () => {
    const sandbox = newSandbox({
      catalogue: { currencies: currenciesWith("NGNX", { maximumWithdrawalFee: 0 }) },
      accounts: { "key-a": { balances: { NGNX: 2_000_000 } } },
    });
    const body = { amount: 1_000_000, currency: "NGNX", destination: BANK_DESTINATION };
    const answer = await api(sandbox, "POST", "/wallets/ext/debit/fiat", body);
    expect([answer.status, answer.violations]).toEqual([200, []]);
    // 1 000 000 × 0.5 / 100 = 5000; 2 000 000 − 1 000 000 − 5000 = 995 000.
    expect(answer.body.data.payout.fee).toBe(5000);
    expect(sandbox.getAccount("key-a")?.balances.NGNX).toBe(995_000);
  });

  it("maximumDeposit 0: a deposit of 2 000 000 USDT is taken", () => {
    const sandbox = newSandbox({
      catalogue: { currencies: currenciesWith("USDT", { maximumDeposit: 0 }) },
      accounts: { "key-a": { balances: { USDT: 0 } } },
    });
    const made = sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 2_000_000 });
    expect(made.amount).toBe(2_000_000);
    expect(sandbox.getAccount("key-a")?.balances.USDT).toBe(2_000_000);
  });
});
