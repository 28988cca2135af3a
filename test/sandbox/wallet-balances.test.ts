// pins: wallets.balances
// A wallet's other balances: pendingBalance, pendingSwapBalance, lockedBalance, p2pBalance and totalPendingBalance
// are 0, a pending withdrawal included (its amount and fee leave the available balance at once), and
// totalSwappableBalance is the available balance. A code the catalogue does not have answers 404.
import { describe, expect, it } from "vitest";
import { api, newSandbox } from "./support/sandbox.js";

const ZEROS = { pendingBalance: 0, pendingSwapBalance: 0, lockedBalance: 0, p2pBalance: 0, totalPendingBalance: 0 };

describe("wallet balances", () => {
  it("are 0 but the available and swappable balance, before and after a pending withdrawal", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 1000 } } } });
    const before = await api(sandbox, "GET", "/wallets/USDT");
    expect(before.body.data).toMatchObject({ ...ZEROS, availableBalance: 1000, totalSwappableBalance: 1000 });
    const destination = { address: `T${"9".repeat(33)}`, network: "TRX" };
    const withdrawal = await api(sandbox, "POST", "/wallets/ext/debit/crypto", {
      amount: 10,
      currency: "USDT",
      destination,
    });
    expect(withdrawal.status).toBe(200);
    // 10 USDT and TRX's fee of 1 USDT have left; nothing is shown as pending or locked.
    const after = await api(sandbox, "GET", "/wallets/USDT");
    expect(after.body.data).toMatchObject({ ...ZEROS, availableBalance: 989, totalSwappableBalance: 989 });
    const all = (await api(sandbox, "GET", "/wallets/me")).body.data;
    expect(
      all.map((wallet: any) => [wallet.currency.code, wallet.pendingBalance, wallet.totalSwappableBalance]),
    ).toEqual([
      ["USDT", 0, 989],
      ["NGNX", 0, 161180],
    ]);
  });

  it("answers 404 for a code the catalogue does not have", async () => {
    const answer = await api(newSandbox(), "GET", "/wallets/EUR");
    expect([answer.status, answer.violations]).toEqual([404, []]);
  });
});
