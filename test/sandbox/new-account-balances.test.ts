// pins: accounts.default-balances
// A new account has one wallet per currency of the catalogue, each holding the availableBalance of the contract's
// documented wallet of that currency (Get My Wallets' example: 1150.75 USDT and 161180 NGNX), and 0 for a currency
// the example documents no wallet of (GHS, in a catalogue that adds it).
import { describe, expect, it } from "vitest";
import { successExample } from "../support/spec.js";
import { api, newSandbox } from "./support/sandbox.js";

/** The caller's wallets as [code, availableBalance], in the order Get My Wallets answers them. */
async function balancesOf(sandbox: ReturnType<typeof newSandbox>, key: string) {
  const answer = await api(sandbox, "GET", "/wallets/me", undefined, { key });
  expect([answer.status, answer.violations]).toEqual([200, []]);
  return answer.body.data.map((wallet: any) => [wallet.currency.code, wallet.availableBalance]);
}

describe("a new account's balances", () => {
  it("are the documented wallets': 1150.75 USDT, 161180 NGNX", async () => {
    expect(await balancesOf(newSandbox(), "fresh")).toEqual([
      ["USDT", 1150.75],
      ["NGNX", 161180],
    ]);
  });

  it("are 0 for a currency of the catalogue that has no documented wallet", async () => {
    const [usdt, ngnx] = successExample("getCurrencies").data as any[];
    const ghs = { ...ngnx, id: "ghs-id", code: "GHS", name: "Ghanaian Cedi" };
    const sandbox = newSandbox({ catalogue: { currencies: [usdt, ngnx, ghs] } });
    expect(await balancesOf(sandbox, "fresh")).toEqual([
      ["USDT", 1150.75],
      ["NGNX", 161180],
      ["GHS", 0],
    ]);
  });
});
