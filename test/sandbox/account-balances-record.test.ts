// The balances putAccount and getAccount answer are the caller's own plain record: a currency whose code is
// also a name Object.prototype has ("constructor") is an ordinary entry there, which the caller may change like any
// other without changing the sandbox.
import { describe, expect, it } from "vitest";
import type { SandboxOptions } from "../../src/sandbox/index.js";
import { successExample } from "../support/spec.js";
import { newSandbox } from "./support/sandbox.js";

const currencies = successExample("getCurrencies").data as Array<{ id: string; code: string; name: string }>;
const usdt = currencies.find((currency) => currency.code === "USDT")!;
/** A code Object.prototype has a property of (typed as any code: TypeScript would read Object's constructor). */
const CODE: string = "constructor";
/** A catalogue currency of that code. */
const ODD = { ...usdt, id: "0badc0de-0000-4000-8000-000000000001", code: CODE, name: "Constructor" };

describe("an account's balances as putAccount and getAccount answer them", () => {
  it("hold a currency coded 'constructor' as an ordinary entry the caller may change", () => {
    const catalogue = { currencies: [...currencies, ODD] } as SandboxOptions["catalogue"];
    const sandbox = newSandbox({ catalogue });
    const { balances } = sandbox.putAccount("k1", { balances: { [CODE]: 5 } });
    expect(Object.getOwnPropertyDescriptor(balances, CODE)).toEqual({
      value: 5,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    balances[CODE] = 7;
    expect(balances[CODE]).toBe(7);
    expect(sandbox.getAccount("k1")?.balances[CODE]).toBe(5);
  });
});
