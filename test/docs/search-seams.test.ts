// The text side of the docs page's search check (test/docs/support/search-seams.ts), without a browser: where the
// spec's Markdown has seams a search index could glue, which words a search must show apart, and which snippet
// words are two words of the docs run together.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gluedWord, seam, seams, vocabularyOf } from "./support/search-seams.js";

const md = (...lines: string[]) => lines.join("\n");
const summary = (markdown: string, softBreaks = true) =>
  seams("d", markdown, softBreaks).map((s) => `${s.where} | ${s.before} ${s.after} | ${s.query}`);

describe("seam", () => {
  it("takes the last word before and the first after as the search shows them, the query without punctuation", () => {
    expect(seam("w", "Sends the **trade**", "`quote` (when valid)")).toEqual({
      where: "w",
      before: "trade",
      after: "quote",
      query: "trade quote",
    });
    expect(seam("w", "the key:", "(every request)")).toEqual({
      where: "w",
      before: "key:",
      after: "(every",
      query: "key every",
    });
  });

  it("reads a link as its text and finds no seam beside an empty side or one with no letter or digit", () => {
    expect(seam("w", "see [the docs](https://example.com)", "next")?.query).toBe("docs next");
    expect(seam("w", "", "next")).toBeUndefined();
    expect(seam("w", "before", "—")).toBeUndefined();
  });
});

describe("seams of a description", () => {
  it("finds the first two items of each list, with an item's continuation lines", () => {
    expect(
      summary(md("Kinds:", "", "- deposit", "  of crypto", "- withdrawal", "- swap", "", "1. one", "2. two"), false),
    ).toEqual(["d: list items | crypto withdrawal | crypto withdrawal", "d: list items | one two | one two"]);
  });

  it("finds the first two cells of a table's first body row", () => {
    expect(summary(md("| Name | Meaning |", "|---|:-:|", "| `id` | The key |", "| x | y |"), false)).toEqual([
      "d: table cells | id The | id The",
    ]);
  });

  it("finds the first soft line break of a paragraph only when asked, and none inside fenced code", () => {
    const text = md("```", "code line", "more code", "```", "Creates a quote for", "the trade.", "Then", "more.");
    expect(summary(text)).toEqual(["d: soft line break | for the | for the"]);
    expect(summary(text, false)).toEqual([]);
  });
});

describe("gluedWord", () => {
  const vocabulary = vocabularyOf(["the trade", "API key: every request", "getWalletBalanceByCode"]);

  it("knows the words as written and without their punctuation, lower-cased", () => {
    for (const word of ["the", "trade", "api", "key:", "key", "every", "getwalletbalancebycode"])
      expect(vocabulary, word).toContain(word);
  });

  it("finds two words of the docs run together, with punctuation around them or not", () => {
    expect(gluedWord("thetrade", vocabulary)).toBe(true);
    expect(gluedWord("keyevery,", vocabulary)).toBe(true);
    expect(gluedWord("Thetrade", vocabulary)).toBe(true);
  });

  it("takes a word of the docs, a word it does not know, or a glued piece of one letter for what they are", () => {
    expect(gluedWord("trade", vocabulary)).toBe(false);
    expect(gluedWord("Key:", vocabulary)).toBe(false);
    expect(gluedWord("thetradex", vocabulary)).toBe(false);
    // "a" is a word, but one letter glued on is too common a sight in real words to report.
    expect(gluedWord("tradea", vocabularyOf(["a trade"]))).toBe(false);
    expect(gluedWord("", vocabulary)).toBe(false);
    expect(gluedWord("...", vocabulary)).toBe(false);
  });

  it("finds any two or three words of the docs written together, and never a word of the docs itself", () => {
    const word = fc.stringMatching(/^[a-z]{2,8}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 2, maxLength: 3 }), (parts) => {
        const docs = vocabularyOf(parts);
        const joined = parts.join("");
        expect(gluedWord(joined, docs)).toBe(!docs.has(joined));
        for (const part of parts) expect(gluedWord(part, docs), part).toBe(false);
      }),
      { seed: 20261124 },
    );
  });
});
