// pins: withdrawals.payouts
// List Payouts lists the bank withdrawals only (a payout is a payout to a bank account); a crypto withdrawal is in
// the history (category WITHDRAWAL) and Get Transaction. A payout's transferReference is TRF-<yyyymmdd>-<6
// characters> and its externalReference EXT- and 10 digits; its dollarValue is the amount at the currency's dollar
// rate, to cents (15 000 NGNX × 0.00062042 = 9.3063 → 9.31), its bitcoinValue that over BTC's dollar rate (0
// without one; 9.31 ÷ 50 000 = 0.0001862). The list shows the account number as ****** and its last 4 characters;
// the withdrawal's answer shows it as sent.
import { describe, expect, it } from "vitest";
import { api, BANK_DESTINATION, newSandbox, TRX_DESTINATION } from "./support/sandbox.js";

const TRX = TRX_DESTINATION;
const BANK = BANK_DESTINATION;

describe("payouts", () => {
  it("are the bank withdrawals, with their references, values and the account number masked in the list", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 1000, NGNX: 100_000 } } } });
    expect(sandbox.setRates({}).dollar.NGNX).toBe(0.00062042);
    const bankWithdrawal = () =>
      api(sandbox, "POST", "/wallets/ext/debit/fiat", { amount: 15_000, currency: "NGNX", destination: BANK });
    const crypto = await api(sandbox, "POST", "/wallets/ext/debit/crypto", {
      amount: 10,
      currency: "USDT",
      destination: TRX,
    });
    const withoutBtc = (await bankWithdrawal()).body.data;
    sandbox.setRates({ dollar: { BTC: 50_000 } });
    const withBtc = (await bankWithdrawal()).body.data;
    for (const answer of [withoutBtc, withBtc]) {
      expect(answer.payout.transferReference).toMatch(/^TRF-20261126-[A-Z0-9]{6}$/);
      expect(answer.payout.externalReference).toMatch(/^EXT-[0-9]{10}$/);
      expect(answer.payout.bankAccount.accountNumber).toBe("0123456789");
    }
    expect([withoutBtc.payout, withBtc.payout].map((p) => [p.dollarValue, p.bitcoinValue])).toEqual([
      [9.31, 0],
      [9.31, 0.0001862],
    ]);

    const listed = await api(sandbox, "GET", "/transactions/withdrawals/me");
    expect(listed.violations).toEqual([]);
    expect(
      listed.body.data.map((t: any) => [
        t.id,
        t.payout.transferReference,
        t.payout.externalReference,
        t.payout.bankAccount.accountNumber,
      ]),
    ).toEqual(
      [withBtc, withoutBtc].map((t) => [t.id, t.payout.transferReference, t.payout.externalReference, "******6789"]),
    );
    expect(listed.body.meta).toMatchObject({ total: 2, count: 2 });

    const history = (await api(sandbox, "GET", "/transactions/me?category=WITHDRAWAL")).body.data;
    expect(history.map((t: any) => t.id)).toEqual([withBtc.id, withoutBtc.id, crypto.body.data.id]);
    const byId = await api(sandbox, "GET", `/transactions/${crypto.body.data.id}`);
    expect([byId.status, byId.body.data.category, byId.body.data.payout]).toEqual([200, "WITHDRAWAL", undefined]);
  });
});
