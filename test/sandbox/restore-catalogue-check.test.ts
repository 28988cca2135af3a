// A restored state's catalogue is checked as the options' catalogue is: a pair joining a currency the catalogue
// lacks is refused (400), and the sandbox keeps its state.
import { describe, expect, it } from "vitest";
import { newSandbox, stateOf } from "./support/sandbox.js";

describe("restoring a catalogue", () => {
  it("refuses a pair whose currency the catalogue lacks", () => {
    const sandbox = newSandbox({ accounts: { "key-a": {} } });
    const saved = stateOf(sandbox) as any;
    const broken = structuredClone(saved);
    broken.catalogue.currencies = broken.catalogue.currencies.filter((currency: any) => currency.code !== "NGNX");
    for (const account of Object.values<any>(broken.accounts))
      account.wallets = account.wallets.filter((wallet: any) => wallet.code !== "NGNX");
    expect(() => sandbox.restore(broken)).toThrow(
      "sandbox catalogue: pair 3f8b2d6c-9e1a-4c7f-b254-8a6d0e3f9b15 joins a currency the catalogue lacks",
    );
    expect(stateOf(sandbox)).toEqual(saved);
  });
});
