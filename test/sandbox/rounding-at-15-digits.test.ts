// The sandbox's money arithmetic reads a product at 15 significant digits before it rounds it (0.29 * 100 is
// 28.999999999999996, and floors to 29). The helpers skip writing the digits out when the value is clear of the
// rounding's boundary; they must answer exactly what writing them out answers, for every value.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wholeOfExactAt15Digits } from "../../src/sandbox/exact-decimal.js";
import { floorAt15Digits, roundAt15Digits } from "../../src/sandbox/state.js";

const written = (value: number): number => Number(value.toPrecision(15));
/** One amount: -0 and 0 are the same (writing -0 out gives 0; JSON writes both as 0), NaN is NaN. */
const same = (a: number, b: number): boolean => a === b || (Number.isNaN(a) && Number.isNaN(b));

/** A distance from 1e-9 to 0.1, as likely in each decade: the boundary cases are at every scale. */
const distance = fc
  .integer({ min: 1, max: 9 })
  .chain((k) => fc.double({ min: 10 ** -k, max: 10 ** (1 - k), noNaN: true }));

/** Values of every size from 1 to past 1e12 (either sign), a distance either side of an integer plus `at`. */
const near = (at: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: 15 }), fc.double({ min: 1, max: 10, noNaN: true }), distance, fc.boolean())
    .map(
      ([exponent, mantissa, offset, below]) => Math.floor(mantissa * 10 ** exponent) + at + (below ? -offset : offset),
    )
    .chain((value) => fc.constantFrom(value, -value));

describe("rounding at 15 significant digits", () => {
  it("reads a product's binary error away: 0.29 × 100 floors to 29, 1.005 × 1000 rounds to 1005", () => {
    expect(floorAt15Digits(0.29 * 100)).toBe(29);
    expect(Math.floor(0.29 * 100)).toBe(28);
    expect(roundAt15Digits(1.005 * 1000)).toBe(1005);
    expect(roundAt15Digits(2.5)).toBe(3);
    expect(floorAt15Digits(-1.5)).toBe(-2);
  });

  it("floors every value as Math.floor of its 15 digits written out, near an integer and anywhere", () => {
    const values = fc.oneof(near(0), fc.double());
    fc.assert(
      fc.property(values, (value) => same(floorAt15Digits(value), Math.floor(written(value)))),
      { numRuns: 5_000 },
    );
  });

  it("rounds every value as Math.round of its 15 digits written out, near a half and anywhere", () => {
    const values = fc.oneof(near(0.5), near(0), fc.double());
    fc.assert(
      fc.property(values, (value) => same(roundAt15Digits(value), Math.round(written(value)))),
      { numRuns: 5_000 },
    );
  });
});

describe("an exact product or quotient at 15 significant digits", () => {
  it("reads the exact value, not the float's: 1290919915501.94 ÷ 1652.4 × 10^6 floors to 781239358207420", () => {
    // Exactly 781239358207419.5110…: 15 digits give …420 (the float 781239358207419.4 would give …419).
    expect(wholeOfExactAt15Digits([1290919915501.94, 1e6], [1652.4], "down")).toBe(781239358207420);
    expect(Math.floor(Number(((1290919915501.94 / 1652.4) * 1e6).toPrecision(15)))).toBe(781239358207419);
  });

  it("brings it whole as asked: 0.29 × 100 is 29 each way; 2 ÷ 3 × 10^6 is 666666, 666667 up or nearest", () => {
    for (const rounding of ["down", "up", "nearest"] as const)
      expect(wholeOfExactAt15Digits([0.29, 100], [], rounding)).toBe(29);
    expect(wholeOfExactAt15Digits([2, 1e6], [3], "down")).toBe(666666);
    expect(wholeOfExactAt15Digits([2, 1e6], [3], "up")).toBe(666667);
    expect(wholeOfExactAt15Digits([2, 1e6], [3], "nearest")).toBe(666667);
  });

  it("reads numbers written with an exponent (1e-7 × 10^9 is 100) and keeps 15 digits of a longer one", () => {
    expect(wholeOfExactAt15Digits([1e-7, 1e9], [], "down")).toBe(100);
    // 1234567890123456800 (a float written out) read at 15 digits: 1234567890123460000.
    expect(wholeOfExactAt15Digits([1234567890123456800], [], "down")).toBe(1234567890123460000);
    expect(wholeOfExactAt15Digits([0], [7], "up")).toBe(0);
  });

  it("refuses what is no quantity: a value below 0 or a division by 0", () => {
    expect(() => wholeOfExactAt15Digits([-1], [], "down")).toThrow(RangeError);
    expect(() => wholeOfExactAt15Digits([1], [0], "down")).toThrow(RangeError);
  });
});
