// sandbox.deposit is callable from plain JavaScript: an amount that is not a number is refused with the
// documented RangeError and its message, whatever it is, even a value that cannot be compared with 0 (a symbol).
import { describe, expect, it } from "vitest";
import { newSandbox, thrownBy } from "./support/sandbox.js";

describe("a deposit amount that is not a number", () => {
  it("is refused with a RangeError: amount must be a number above 0", () => {
    const sandbox = newSandbox({ accounts: { "key-a": {} } });
    const refusals = ["25", true, null, Symbol("25")].map((amount) => {
      const error = thrownBy(() =>
        sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: amount as unknown as number }),
      );
      return [error?.name, error?.message];
    });
    expect(refusals).toEqual(Array(4).fill(["RangeError", "amount must be a number above 0"]));
  });
});
