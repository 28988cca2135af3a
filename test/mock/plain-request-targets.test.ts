// A plain path (plainTarget in src/pipeline/pipeline.ts) is taken without a URL parser: for every target it takes, a
// URL parser gives the same pathname and no query; every other target is left to the parser. Targets are made
// of the characters that matter to a parser: dots and slashes (dot segments, an authority), escapes, query and
// fragment marks, a backslash, a space, non-ASCII.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { plainTarget } from "../../src/pipeline/pipeline.js";
import { BASE_PATH } from "../support/spec.js";

const PIECES = ["v1", "trades", "quote", "a", "Z9", "-", "_", "~", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";"];
const SPECIAL = ["=", ":", "@", "/", "//", ".", "..", "%", "%2e", "?", "#", "\\", " ", "é", "[", "|", "{", "`"];
const target = fc
  .array(fc.constantFrom(...PIECES, ...SPECIAL), { maxLength: 12 })
  .map((pieces) => `/${pieces.join("")}`);

describe("plain request targets", () => {
  it("give the pathname a URL parser gives, with no query, for every target taken", () => {
    fc.assert(
      fc.property(target, (text) => {
        const plain = plainTarget(text);
        if (!plain) return;
        const parsed = new URL(text, "http://mock.invalid");
        expect({ text, pathname: plain.pathname, search: plain.search }).toEqual({
          text,
          pathname: parsed.pathname,
          search: parsed.search,
        });
        expect([...plain.searchParams]).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it("takes the contract's own paths and leaves what a parser changes or reads a query from", () => {
    for (const path of ["/trades/quote", "/wallets/me", "/transactions/me", "/trades/quote/qt_AbC-9_xYz"])
      expect(plainTarget(`${BASE_PATH}${path}`)?.pathname).toBe(`${BASE_PATH}${path}`);
    for (const text of ["//host/x", "/v1/../x", "/v1/./x", "/v1/..", "/a%2e", "/a?b=1", "/a#f", "/a\\b", "/a b", "/é"])
      expect(plainTarget(text)).toBeUndefined();
  });
});
