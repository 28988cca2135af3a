// The catalogue a sandbox is made with is checked against the contract's schemas: a currency's withdrawal
// networks must be a list (Get Withdrawal Currency Networks answers it as its data, so a single network in its
// place would make that answer break the contract), each entry of it a WithdrawalNetwork; a part the check is not
// given is not checked.
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../src/contract/bundled.js";
import { createCatalogueCheck } from "../../src/sandbox/catalogue.js";
import { successExample } from "../support/spec.js";
import { newSandbox, thrownBy } from "./support/sandbox.js";

const [TRX_NETWORK] = successExample("getWithdrawalCurrencyNetworks").data as any[];

/** The message a sandbox made with these withdrawal networks is refused with ("" when it is made). */
function refusalOf(withdrawalNetworks: unknown): string {
  const error = thrownBy(() => newSandbox({ catalogue: { withdrawalNetworks } as any }));
  if (error && !(error instanceof RangeError)) throw error;
  return error?.message ?? "";
}

describe("a catalogue's withdrawal networks", () => {
  it("are a list for each currency: a single network, even a right one, is refused", () => {
    expect([refusalOf({ USDT: TRX_NETWORK }), refusalOf({ USDT: "TRX" }), refusalOf({ USDT: [TRX_NETWORK] })]).toEqual([
      "sandbox catalogue: withdrawalNetworks of USDT must be a list of WithdrawalNetwork",
      "sandbox catalogue: withdrawalNetworks of USDT must be a list of WithdrawalNetwork",
      "",
    ]);
  });

  it("are each a WithdrawalNetwork, the wrong one named by its place", () => {
    expect(refusalOf({ USDT: [TRX_NETWORK, "TRX"] })).toBe(
      "sandbox catalogue: WithdrawalNetwork 1: (root) must be object",
    );
  });
});

describe("the catalogue check", () => {
  it("checks only the parts it is given", () => {
    const check = createCatalogueCheck(openApiDocument);
    expect([check.catalogueProblem({}), check.catalogueProblem({ pairs: [5] })]).toEqual([
      undefined,
      "Pair 0: (root) must be object",
    ]);
  });
});

describe("a catalogue currency's decimal places", () => {
  const [USDT] = successExample("getCurrencies").data as any[];
  /** The message a sandbox whose only currency has `places` decimal places is refused with ("" when made). */
  const refusalOfPlaces = (places: number) => {
    const currencies = [{ ...USDT, maximumDecimalPlaces: places }];
    const error = thrownBy(() => newSandbox({ catalogue: { currencies, pairs: [] } as any }));
    if (error && !(error instanceof RangeError)) throw error;
    return error?.message ?? "";
  };

  it("are from 0 to 15 (an amount is exact to 15 digits): -1 and 16 are refused, naming the currency", () => {
    expect([refusalOfPlaces(-1), refusalOfPlaces(0), refusalOfPlaces(15), refusalOfPlaces(16)]).toEqual([
      "sandbox catalogue: currency USDT: maximumDecimalPlaces must be from 0 to 15",
      "",
      "",
      "sandbox catalogue: currency USDT: maximumDecimalPlaces must be from 0 to 15",
    ]);
  });
});

describe("a withdrawal network's patterns", () => {
  it("are regular expressions: an addressRegex or memoRegex that is not is refused, naming it", () => {
    const addressRegex = "^T[a-z]{2,1}$";
    expect([
      refusalOf({ USDT: [{ ...TRX_NETWORK, addressRegex }] }),
      refusalOf({ USDT: [{ ...TRX_NETWORK, memoRegex: "^(" }] }),
      refusalOf({ USDT: [{ ...TRX_NETWORK, memoRegex: "^[0-9]+$" }] }),
    ]).toEqual([
      "sandbox catalogue: withdrawalNetworks of USDT: TRX's addressRegex is not a regular expression " +
        "(Invalid regular expression: /^T[a-z]{2,1}$/: numbers out of order in {} quantifier)",
      "sandbox catalogue: withdrawalNetworks of USDT: TRX's memoRegex is not a regular expression " +
        "(Invalid regular expression: /^(/: Unterminated group)",
      "",
    ]);
  });
});
