// setRates merges: a fiat rate given for a currency the current rates lack (a restored state with NGNX only) is
// added after the current ones.
import { describe, expect, it } from "vitest";
import { newSandbox, stateOf } from "./support/sandbox.js";

describe("setRates on rates that lack a currency", () => {
  it("adds the given currency's rate at the end", () => {
    const sandbox = newSandbox();
    const saved = stateOf(sandbox) as any;
    saved.rates.fiat = saved.rates.fiat.filter((rate: any) => rate.currency !== "GHS");
    sandbox.restore(saved);
    expect(sandbox.setRates({ fiat: [{ currency: "GHS", buyRate: 16, sellRate: 15 }] }).fiat).toEqual([
      { currency: "NGNX", buyRate: 1652.4, sellRate: 1611.8 },
      { currency: "GHS", buyRate: 16, sellRate: 15 },
    ]);
  });
});
