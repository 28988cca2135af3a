// Exact decimal arithmetic for the register's rounding rules: amounts and rates are decimals as JavaScript writes
// them, and their product or quotient in floating point carries binary error that can cross a rounding boundary.
// The sandbox (Create Quote) and verify (which judges a deployment by the same rule) both read it here.
import type { Rounding } from "./rules.js";

/** 10^k as a BigInt, for k up to 40 from a table (the scales of amounts and rates), else computed. */
const POWERS_OF_TEN = Array.from({ length: 41 }, (_, k) => 10n ** BigInt(k));
const tenTo = (k: number): bigint => POWERS_OF_TEN[k] ?? 10n ** BigInt(k);

/** `value` as the decimal JavaScript writes it (its shortest round-trip form, "1e-7" included): digits ÷ 10^scale. */
function decimalOf(value: number): { digits: bigint; scale: number } {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const [mantissa = "", exponent = "0"] = String(value).split("e");
  const [whole = "", fraction = ""] = mantissa.split(".");
  const scale = fraction.length - Number(exponent);
  const digits = BigInt(whole + fraction);
  return scale >= 0 ? { digits, scale } : { digits: digits * tenTo(-scale), scale: 0 };
}

/** The number of digits of the whole part of n ÷ d (n, d > 0), or, below 1, minus its zeros after the point. */
function magnitudeOf(n: bigint, d: bigint): number {
  const whole = n / d;
  if (whole > 0n) return whole.toString().length;
  let digits = 0;
  for (let scaled = n * 10n; scaled < d; scaled *= 10n) digits -= 1;
  return digits;
}

/** ⌊n ÷ d⌋, ⌈n ÷ d⌉ or n ÷ d rounded half up (n ≥ 0, d > 0), as `rounding` says. */
function wholeOfRatio(n: bigint, d: bigint, rounding: Rounding): bigint {
  if (rounding === "down") return n / d;
  return rounding === "up" ? (n + d - 1n) / d : (2n * n + d) / (2n * d);
}

/**
 * The product of `factors` divided by that of `divisors`, each read as the decimal JavaScript writes it and the
 * result computed exactly, then read at 15 significant digits (half up, as toPrecision reads) and brought to a whole
 * number as `rounding` says. The float of the same expression carries binary error that can move its 16th digit
 * across a 5 (1290919915501.94 ÷ 1652.4 is 781239358.20741951…, its float 781239358.2074194): here it cannot.
 */
export function wholeOfExactAt15Digits(factors: number[], divisors: number[], rounding: Rounding): number {
  let [n, d] = [1n, 1n];
  for (const factor of factors) {
    const { digits, scale } = decimalOf(factor);
    [n, d] = [n * digits, d * tenTo(scale)];
  }
  for (const divisor of divisors) {
    const { digits, scale } = decimalOf(divisor);
    [n, d] = [n * tenTo(scale), d * digits];
  }
  // Amounts, rates and powers of 10: a value below 0, or a divisor of 0, is a sandbox bug.
  if (n < 0n || d <= 0n) throw new RangeError(`not a quantity: ${factors.join(" × ")} ÷ ${divisors.join(" ÷ ")}`);
  if (n === 0n) return 0;
  // Read at 15 significant digits: scaled so that those digits are the whole part, rounded half up; then whole.
  const shift = 15 - magnitudeOf(n, d);
  if (shift < 0) return Number(wholeOfRatio(n, d * tenTo(-shift), "nearest") * tenTo(-shift));
  const at15 = wholeOfRatio(n * tenTo(shift), d, "nearest");
  return Number(wholeOfRatio(at15, tenTo(shift), rounding));
}
