// How addressValue reads an addressRegex, token by token: a class gives exactly its characters (ranges, escapes,
// a literal ^ not first, a trailing -), ? gives one, a brace that is no counted repeat is a literal, and forms it
// does not build (a negated class, an unterminated class, the . wildcard) give the 0x fallback. Called directly
// with a fixed generator state, so every value here is the same on every run.
import { describe, expect, it } from "vitest";
import type { IdState } from "../../src/sandbox/ids.js";
import { addressValue } from "../../src/sandbox/money/generate.js";

const SEED: IdState = { seed: 1, counter: 0 };
const FALLBACK = /^0x[0-9a-f]{40}$/;

/** The address made for `pattern` from the fixed seed. */
const made = (pattern: string) => addressValue({ ...SEED }, pattern);
/** The distinct characters of `text`, sorted by code point. */
const distinct = (text: string) => [...new Set(text)].sort().join("");

describe("address values from an addressRegex", () => {
  it("draw a class's 80 characters from exactly its members", () => {
    const table: Array<[string, string]> = [
      ["^[\\d]{80}$", "0123456789"], // an escape inside a class
      ["^[a-c]{80}$", "abc"], // a range includes its end
      ["^[zab]{80}$", "abz"], // no dash: three members, not the range z..b
      ["^[a-]{80}$", "-a"], // a trailing dash is a member
      ["[0^]{80}", "0^"], // a ^ that is not first is a member, also with no anchors around
      ["[$0]{80}", "$0"], // a $ inside a class is a member, not the end anchor
    ];
    expect(table.map(([pattern]) => [pattern, distinct(made(pattern))])).toEqual(table);
    for (const [pattern] of table) expect(made(pattern)).toMatch(new RegExp(pattern));
  });

  it("give ? one character, keep a brace that is no counted repeat, and take ] before a class as a literal", () => {
    expect(made("^AB?C$")).toBe("ABC");
    expect(made("^A{x}B{3}$")).toBe("A{x}BBB");
    expect(made("^\\][ab]$")).toMatch(/^\][ab]$/);
    // [a\]] is a class of a and ]: the value is built, not the fallback, and draws both (80 of them).
    expect(made("^[a\\]]*$")).toMatch(/^[a\]]+$/);
    expect(distinct(made("^[a\\]]{80}$"))).toBe("]a");
  });

  it("take an escaped $ at the end as a literal $, and a $ after an escaped backslash as the end anchor", () => {
    // ^X\$ is "X$" and what may follow it; ^X\$$ is exactly "X$"; ^X\\$ is X and one backslash.
    expect([made("^X\\$"), made("^X\\$$"), made("^X\\\\$")]).toEqual(["X$", "X$", "X\\"]);
  });

  it("fall back to 0x and 40 hex digits for a negated class, an unterminated class and the . wildcard", () => {
    // ^T[ab\] is unterminated too: its only ] is escaped.
    // [^] matches any one character, so only the refusal to build negated classes keeps it from a value.
    for (const pattern of ["^[^]$", "^T[ab", "^a.b$", "^T[ab\\]"])
      expect([pattern, made(pattern)]).toEqual([pattern, expect.stringMatching(FALLBACK)]);
  });
});
