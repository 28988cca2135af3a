// Every deposit address, deposit, payout and payout bank account the sandbox answers is active (active: true), as
// in the contract's examples: the sandbox deletes or deactivates none of them.
import { describe, expect, it } from "vitest";
import { api, BANK_DESTINATION, newSandbox } from "./support/sandbox.js";

describe("active flags", () => {
  it("are true on addresses, deposits, payouts and their bank accounts, wherever they are answered", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { NGNX: 100_000 } } } });
    const address = await api(sandbox, "POST", "/addresses/broker", { currency: "USDT", network: "TRX" });
    const listed = await api(sandbox, "GET", "/addresses/me/broker");
    const deposit = sandbox.deposit({ apiKey: "key-a", address: address.body.data.value, amount: 5 }) as any;
    const deposits = await api(sandbox, "GET", "/transactions/deposits/me");
    const body = { amount: 15_000, currency: "NGNX", destination: BANK_DESTINATION };
    const withdrawal = await api(sandbox, "POST", "/wallets/ext/debit/fiat", body);
    const payouts = await api(sandbox, "GET", "/transactions/withdrawals/me");
    const byId = await api(sandbox, "GET", `/transactions/${withdrawal.body.data.id}`);
    const flags = {
      created: address.body.data.active,
      listed: listed.body.data[0].active,
      deposit: deposit.deposit.active,
      listedDeposit: deposits.body.data[0].deposit.active,
      payout: withdrawal.body.data.payout.active,
      bankAccount: withdrawal.body.data.payout.bankAccount.active,
      listedPayout: payouts.body.data[0].payout.active,
      listedBankAccount: payouts.body.data[0].payout.bankAccount.active,
      payoutById: byId.body.data.payout.active,
    };
    expect(flags).toEqual({
      created: true,
      listed: true,
      deposit: true,
      listedDeposit: true,
      payout: true,
      bankAccount: true,
      listedPayout: true,
      listedBankAccount: true,
      payoutById: true,
    });
  });
});
