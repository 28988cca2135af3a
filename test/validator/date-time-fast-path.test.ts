// The validator's quick date-time check (an optimisation) must never accept a string that
// ajv-formats' own date-time check rejects, and must accept the canonical form the API sends.
import { fullFormats } from "ajv-formats/dist/formats.js";
import fc from "fast-check";
import { expect, it } from "vitest";
import { isCanonicalDateTime } from "../../src/contract/schemas.js";

const ajvDateTime = (fullFormats["date-time"] as { validate: (s: string) => boolean }).validate;
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const canonical = fc
  .record({
    year: fc.integer({ min: 0, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    millis: fc.option(fc.integer({ min: 0, max: 999 })),
    zone: fc.constantFrom("Z", "z", "+01:00", "-05:30", "+14:00"),
  })
  .map(
    (t) =>
      `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${t.millis === null ? "" : `.${pad(t.millis, 3)}`}${t.zone}`,
  );
// Canonical strings with one character replaced, inserted or removed, plus arbitrary strings.
const mutated = fc.oneof(
  fc
    .tuple(canonical, fc.nat(), fc.constantFrom(..."0123456789:-+.TtZz x/9".split("")))
    .map(([s, i, c]) => s.slice(0, i % s.length) + c + s.slice((i % s.length) + 1)),
  fc
    .tuple(canonical, fc.nat(), fc.constantFrom(..."0:-.9".split("")))
    .map(([s, i, c]) => s.slice(0, i % s.length) + c + s.slice(i % s.length)),
  fc.tuple(canonical, fc.nat()).map(([s, i]) => s.slice(0, i % s.length) + s.slice((i % s.length) + 1)),
  fc.string(),
);

it(`never accepts what ajv-formats rejects (seed ${seed})`, () => {
  fc.assert(
    fc.property(mutated, (s) => !isCanonicalDateTime(s) || ajvDateTime(s)),
    { seed, numRuns: 20_000 },
  );
});

it("accepts the canonical form, with the same verdict as ajv-formats", () => {
  fc.assert(
    fc.property(canonical, (s) => isCanonicalDateTime(s) && ajvDateTime(s)),
    { seed, numRuns: 5_000 },
  );
  expect(isCanonicalDateTime("2026-11-22T10:00:24.907Z")).toBe(true);
  expect(isCanonicalDateTime("2026-02-30T10:00:24.907Z")).toBe(false);
  expect(isCanonicalDateTime("2024-02-29T23:59:59Z")).toBe(true);
  expect(isCanonicalDateTime("22/11/2026")).toBe(false);
});
