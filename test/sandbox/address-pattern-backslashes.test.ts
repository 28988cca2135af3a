// How addressValue reads a backslash with nothing after it in its pattern: `[!-\\]` is the range from ! to \ (the
// escaped backslash ends the range, so the class body ends in a backslash of its own), and a pattern ending in a
// lone backslash (a regular expression JavaScript refuses) gets the 0x fallback, not a value built from nothing.
// Called directly with a fixed generator state, so every value here is the same on every run.
import { describe, expect, it } from "vitest";
import type { IdState } from "../../src/sandbox/ids.js";
import { addressValue } from "../../src/sandbox/money/generate.js";

const SEED: IdState = { seed: 1, counter: 0 };

/** The address made for `pattern` from the fixed seed. */
const made = (pattern: string) => addressValue({ ...SEED }, pattern);

describe("address values from an addressRegex with a trailing backslash", () => {
  it("draw a class range that ends at an escaped backslash from that range only", () => {
    // ! to \ is code points 33 to 92: no lowercase letter, so nothing outside it may slip into the value.
    const value = made("^[!-\\\\]{80}$");
    expect(value).toMatch(/^[!-\\]{80}$/);
    expect(value).not.toMatch(/[a-z]/);
  });

  it("fall back to 0x and 40 hex digits for a pattern that ends in a lone backslash", () => {
    expect(made("^T\\")).toMatch(/^0x[0-9a-f]{40}$/);
  });
});
