// Every time the sandbox writes (expiryDate, createdAt, a webhook's attempts) is its moment in ISO 8601. The
// writer keeps the last moment it wrote, as many answers in a row name the same millisecond: whatever came
// before, each moment is written anew as itself.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { iso } from "../../src/sandbox/engine.js";

/** Moments from 1970 to 2100, often repeated and often one millisecond apart. */
const moments = fc.array(
  fc.oneof(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.constantFrom(1_000, 1_001, 1_700_000_000_000)),
  { minLength: 1, maxLength: 30 },
);

describe("ISO 8601 timestamps of sandbox moments", () => {
  it("writes each moment of any sequence as itself, repeated or not", () => {
    fc.assert(
      fc.property(moments, (sequence) => sequence.every((ms) => iso(ms) === new Date(ms).toISOString())),
      { numRuns: 500 },
    );
  });

  it("refuses a moment that is no time, after one that is", () => {
    expect(iso(0)).toBe("1970-01-01T00:00:00.000Z");
    expect(() => iso(Number.NaN)).toThrow(RangeError);
    expect(iso(0)).toBe("1970-01-01T00:00:00.000Z");
  });
});
