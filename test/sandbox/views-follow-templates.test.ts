// The views write the state in the shapes of the contract's examples (views.ts): a quote's view has exactly its
// template's fields, so expiryDate (written from the quote's expiresAt) only where the template has it; and a
// currency missing from the catalogue is a bug that names the code.
import { describe, expect, it } from "vitest";
import type { Engine } from "../../src/sandbox/engine.js";
import type { QuoteRecord } from "../../src/sandbox/state.js";
import { currencyOf, quoteView } from "../../src/sandbox/views.js";
import { START, thrownBy } from "./support/sandbox.js";

/** An engine of just what the views read: a quote template and a catalogue of no currency. */
const engineWith = (quote: Record<string, unknown>) =>
  ({ templates: { quote }, state: { catalogue: { currencies: [] } } }) as unknown as Engine;

const QUOTE = { id: "qt_1", rate: 1611.8, expiresAt: START + 30_000 } as QuoteRecord;

describe("a quote's view", () => {
  it("has expiryDate, from expiresAt, only where its template has it", () => {
    expect([
      quoteView(engineWith({ id: "", rate: 0 }), QUOTE),
      quoteView(engineWith({ id: "", expiryDate: "", rate: 0 }), QUOTE),
    ]).toEqual([
      { id: "qt_1", rate: 1611.8 },
      { id: "qt_1", expiryDate: "2026-11-26T10:00:30.000Z", rate: 1611.8 },
    ]);
  });
});

describe("a currency the catalogue lacks", () => {
  it("is a bug whose message names its code", () => {
    expect(thrownBy(() => currencyOf(engineWith({}), "BTC"))?.message).toBe("sandbox: BTC is not in the catalogue");
  });
});
