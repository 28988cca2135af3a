// pins: deposits
// A simulated deposit's fee is the network's depositFee read by its receiveFeeType (Get Active Networks): FLAT is
// an amount of the currency, PERCENTAGE a percentage of the deposit. The wallet is credited the amount less the
// fee; the transaction shows the whole amount and the fee.
import { describe, expect, it } from "vitest";
import { api, newSandbox } from "./support/sandbox.js";

/** A catalogue whose only active network is USDT on TRX, with a deposit fee of 1.5 of `receiveFeeType`. */
const networksWithFee = (receiveFeeType: "FLAT" | "PERCENTAGE") => ({
  USDT: {
    currencyName: "Tether USD",
    networks: [
      {
        networkName: "Tron (TRC20)",
        networkCode: "TRX",
        minimumDeposit: 1,
        depositFee: 1.5,
        minimumWithdrawal: 10,
        withdrawalFee: 1,
        maximumDecimalPlaces: 6,
        receiveFeeType,
        withdrawalFeeType: "FLAT",
        isReceivable: true,
        isWithdrawable: true,
      },
    ],
  },
});

/** Deposits 200 USDT on TRX to key-a (which holds no USDT) under a fee of 1.5 of `type`. */
async function deposit200(type: "FLAT" | "PERCENTAGE") {
  const sandbox = newSandbox({
    catalogue: { networks: networksWithFee(type) },
    accounts: { "key-a": { balances: { USDT: 0 } } },
  });
  const made = sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 200 }) as any;
  const listed = await api(sandbox, "GET", "/transactions/deposits/me");
  expect(listed.violations).toEqual([]);
  const balance = (await api(sandbox, "GET", "/wallets/USDT")).body.data.availableBalance;
  return { made, listed: listed.body.data, balance };
}

describe("deposit fees", () => {
  it("PERCENTAGE: 1.5 % of a 200 USDT deposit is a fee of 3, and the wallet is credited 197", async () => {
    const { made, listed, balance } = await deposit200("PERCENTAGE");
    // 200 × 1.5 / 100 = 3; 200 − 3 = 197.
    expect([made.amount, made.deposit.fee]).toEqual([200, 3]);
    expect(listed.map((t: any) => [t.amount, t.deposit.fee])).toEqual([[200, 3]]);
    expect(balance).toBe(197);
  });

  it("FLAT: a fee of 1.5 USDT whatever the amount, so 200 credits 198.5", async () => {
    const { made, listed, balance } = await deposit200("FLAT");
    // 200 − 1.5 = 198.5.
    expect([made.amount, made.deposit.fee]).toEqual([200, 1.5]);
    expect(listed.map((t: any) => [t.amount, t.deposit.fee])).toEqual([[200, 1.5]]);
    expect(balance).toBe(198.5);
  });
});
