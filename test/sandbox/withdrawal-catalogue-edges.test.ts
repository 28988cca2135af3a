// Withdrawal checks where the catalogue or a restored state leaves something out: a currency with no active
// networks at all is withdrawn on its withdrawal networks alone; an active network that is not withdrawable is
// refused by name; a store without a wallet of the currency (a restored state may leave one out) holds 0 of it.
import { describe, expect, it } from "vitest";
import { REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { successExample } from "../support/spec.js";
import { api, BANK_DESTINATION, newSandbox, TRX_DESTINATION } from "./support/sandbox.js";

const FUNDED = { accounts: { "key-a": { balances: { USDT: 100 } } } };
const crypto = { amount: 10, currency: "USDT", destination: TRX_DESTINATION };

describe("withdrawal checks at the catalogue's edges", () => {
  it("take a withdrawal on TRX when no active network of USDT is listed, with TRX's fee of 1", async () => {
    const sandbox = newSandbox({ ...FUNDED, catalogue: { networks: {} } });
    const answer = await api(sandbox, "POST", "/wallets/ext/debit/crypto", crypto);
    expect([answer.status, answer.violations]).toEqual([200, []]);
    expect(sandbox.getAccount("key-a")?.balances.USDT).toBe(89); // 100 − 10 − 1
  });

  it("refuse an active network that is not withdrawable, naming the currency and the network", async () => {
    const networks = structuredClone(successExample("getActiveNetworks").data as any);
    networks.USDT.networks.find((n: any) => n.networkCode === "TRX").isWithdrawable = false;
    const sandbox = newSandbox({ ...FUNDED, catalogue: { networks } });
    const answer = await api(sandbox, "POST", "/wallets/ext/debit/crypto", crypto);
    expect([answer.status, answer.body.message]).toEqual([
      REFUSAL_STATUS.notWithdrawable,
      "USDT on TRX is not withdrawable",
    ]);
  });

  it("refuse a bank withdrawal from a store without an NGNX wallet as a balance of 0", async () => {
    const saved = structuredClone(newSandbox(FUNDED).snapshot()) as any;
    const store = saved.accounts["key-a"];
    store.wallets = store.wallets.filter((wallet: { code: string }) => wallet.code !== "NGNX");
    const sandbox = newSandbox();
    sandbox.restore(saved);
    const body = { amount: 15_000, currency: "NGNX", destination: BANK_DESTINATION };
    const answer = await api(sandbox, "POST", "/wallets/ext/debit/fiat", body);
    // NGNX's fee: 0.5 % of 15 000 = 75.
    expect([answer.status, answer.body.message]).toEqual([
      REFUSAL_STATUS.balanceTooLow,
      "balance too low: the NGNX wallet holds 0, the withdrawal needs 15000 and a fee of 75",
    ]);
  });
});
