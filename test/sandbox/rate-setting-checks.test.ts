// What setRates refuses before it changes a rate, each with its exact message: a fiat currency outside the
// contract's FiatCurrency (the message lists them), a fiat part that is no list, a bad rate anywhere in the list
// (not only first), a rate that is not a finite number above 0, and a dollar map with any rate not above 0 (after
// a fiat part that is right). A contract without FiatCurrency leaves no fiat currency to rate.
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../src/contract/bundled.js";
import { createCatalogueCheck } from "../../src/sandbox/catalogue.js";
import { newSandbox, thrownBy } from "./support/sandbox.js";

const NGNX_RATE = { currency: "NGNX", buyRate: 1700, sellRate: 1650 };

/** The message setRates refuses `rates` with ("" when it takes them). */
function refusalOf(rates: unknown): string {
  const sandbox = newSandbox();
  const error = thrownBy(() => sandbox.setRates(rates as Parameters<typeof sandbox.setRates>[0]));
  if (error && !(error instanceof RangeError)) throw error;
  return error?.message ?? "";
}

describe("setRates' checks", () => {
  it("names the contract's fiat currencies when a rate is for another one", () => {
    expect(refusalOf({ fiat: [{ currency: "EUR", buyRate: 1.1, sellRate: 1 }] })).toBe(
      "sandbox rates: a fiat rate's currency must be one of NGNX, GHS",
    );
  });

  it("refuses a fiat part that is no list", () => {
    expect(refusalOf({ fiat: NGNX_RATE })).toBe("sandbox rates: fiat must be a list of fiat rates");
  });

  it("finds a bad rate after a good one", () => {
    const bad = { currency: "GHS", buyRate: 16, sellRate: 0 };
    expect(refusalOf({ fiat: [NGNX_RATE, bad] })).toBe("sandbox rates: buyRate and sellRate must be above 0");
  });

  it("refuses a rate that is not a finite number", () => {
    expect([
      refusalOf({ fiat: [{ ...NGNX_RATE, buyRate: Number.POSITIVE_INFINITY }] }),
      refusalOf({ fiat: [{ ...NGNX_RATE, sellRate: "1650" }] }),
      refusalOf({ dollar: { NGNX: Number.POSITIVE_INFINITY } }),
    ]).toEqual([
      "sandbox rates: buyRate and sellRate must be above 0",
      "sandbox rates: buyRate and sellRate must be above 0",
      "sandbox rates: dollar must map currency codes to rates above 0",
    ]);
  });

  it("checks the dollar rates after a right fiat part, every one of them", () => {
    expect([
      refusalOf({ fiat: [NGNX_RATE], dollar: { NGNX: -1 } }),
      refusalOf({ dollar: { USDT: 1, NGNX: 0 } }),
      refusalOf({ fiat: [NGNX_RATE], dollar: { USDT: 1, NGNX: 0.0006 } }),
    ]).toEqual([
      "sandbox rates: dollar must map currency codes to rates above 0",
      "sandbox rates: dollar must map currency codes to rates above 0",
      "",
    ]);
  });
});

describe("the rate check of a contract without FiatCurrency", () => {
  it("takes no fiat currency, and its message lists none", () => {
    const spec = structuredClone(openApiDocument) as any;
    delete spec.components.schemas.FiatCurrency;
    const check = createCatalogueCheck(spec);
    expect(check.ratesProblem({ fiat: [{ currency: "NGNX", buyRate: 1700, sellRate: 1650 }] })).toBe(
      "a fiat rate's currency must be one of ",
    );
  });
});
