// An account finds a quote by its id in its own list: for any quotes of any accounts, made in any order, each id
// finds its own quote in its own account's list, and nothing else does (another account's id, an id with a changed
// letter, text of another form); a quote id reads back the counter it was written with (restores check it).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type IdState, quoteCounter, quoteId, uuid } from "../../src/sandbox/ids.js";
import { findQuote, type QuoteRecord } from "../../src/sandbox/state.js";

/** A quote record of `id`; only its id matters to the lookup. */
const quoteOf = (id: string) => ({ id }) as QuoteRecord;

/** Quotes made for accounts 0..n in the given order, other ids drawn between them: each account's list. */
function listsOf(owners: number[], gaps: number[], ids: IdState): QuoteRecord[][] {
  const lists: QuoteRecord[][] = [[], [], []];
  owners.forEach((owner, index) => {
    for (let gap = 0; gap < (gaps[index] ?? 0); gap++) uuid(ids); // trades and transactions draw ids too
    lists[owner]!.push(quoteOf(quoteId(ids)));
  });
  return lists;
}

const owners = fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 60 });
const gaps = fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 60 });
const seeds = fc.integer({ min: 0, max: 2 ** 32 - 1 });

describe("finding a quote by its id", () => {
  it("reads back the counter each quote id was written with", () => {
    fc.assert(
      fc.property(seeds, fc.integer({ min: 0, max: 62 ** 6 - 2 }), (seed, counter) => {
        const ids = { seed, counter };
        return quoteCounter(quoteId(ids)) === ids.counter;
      }),
    );
    expect(quoteCounter("qt_abcdefghij00000!")).toBeUndefined();
    expect(quoteCounter("qt_abcdefghij0000010")).toBeUndefined();
    expect(quoteCounter("xx_abcdefghij000001")).toBeUndefined();
  });

  it("finds each quote in its own account's list only, and no id another account or a changed letter gives", () => {
    fc.assert(
      fc.property(owners, gaps, seeds, (made, between, seed) => {
        const lists = listsOf(made, between, { seed, counter: 0 });
        for (const [owner, list] of lists.entries())
          for (const quote of list) {
            expect(findQuote(list, quote.id)).toBe(quote);
            for (const other of lists.filter((_, index) => index !== owner))
              expect(findQuote(other, quote.id)).toBeUndefined();
            const changed = `${quote.id.slice(0, 3)}${quote.id[3] === "A" ? "B" : "A"}${quote.id.slice(4)}`;
            expect(findQuote(list, changed)).toBeUndefined();
          }
        return lists.every((list) => findQuote(list, "qt_notaquoteid") === undefined);
      }),
    );
  });
});
