// pins: quotes.sides
// Under sideReading source-pays a quote's pair joins its two codes in either order, and only a pair holding both
// does: with a catalogue whose first pairs each share one code with GHS/USDT (NGNX/GHS, USDT/NGNX, neither
// buyable), a BUY of USDT with GHS trades on USDT/GHS, and its accepted trade answers that pair as the catalogue
// has it (its id, its currencies' names and codes), not the documented example's USDT/NGNX.
import { describe, expect, it } from "vitest";
import { successExample } from "../support/spec.js";
import { api, newSandbox } from "./support/sandbox.js";

const [USDT, NGNX] = successExample("getCurrencies").data as any[];
const GHS = { ...NGNX, id: "ghs-id", code: "GHS", exchangeCode: "GHS", name: "Ghanaian Cedi" };
const USDT_NGNX = successExample("getTradePair").data as any;
const pair = (id: string, source: any, target: any, isBuyable: boolean) => ({
  ...USDT_NGNX,
  id,
  sourceId: source.id,
  source,
  targetId: target.id,
  target,
  isBuyable,
});
const PAIRS = [
  pair("pair-ngnx-ghs", NGNX, GHS, false),
  pair("pair-usdt-ngnx", USDT, NGNX, false),
  pair("pair-usdt-ghs", USDT, GHS, true),
];

describe("a BUY of USDT with GHS, as the published pages read a side", () => {
  it("trades on the pair holding both codes, and the trade answers that pair", async () => {
    const sandbox = newSandbox({
      quotes: { sideReading: "source-pays" },
      catalogue: { currencies: [USDT, NGNX, GHS], pairs: PAIRS },
      accounts: { "key-a": { balances: { GHS: 1000 } } },
    });
    const quote = await api(sandbox, "POST", "/trades/quote", {
      sourceId: "GHS",
      targetId: "USDT",
      amount: 100,
      side: "BUY",
    });
    expect([quote.status, quote.body.data?.amountReceived]).toEqual([200, 6.30517]); // 100 ÷ buyRate 15.86
    const trade = await api(sandbox, "POST", `/trades/quote/${quote.body.data.id}`, {});
    expect(trade.violations).toEqual([]);
    const { active, pairId, pair: tradePair } = trade.body.data;
    expect({ active, pairId, pair: tradePair }).toEqual({
      active: true,
      pairId: "pair-usdt-ghs",
      pair: {
        id: "pair-usdt-ghs",
        createdAt: "2024-03-14T08:30:00.000Z",
        updatedAt: "2026-10-02T12:11:45.120Z",
        active: true,
        sourceId: USDT.id,
        targetId: "ghs-id",
        isSellable: true,
        isBuyable: true,
        isLeverage: false,
        enableP2PTrading: true,
        isLimitOrderEnabled: false,
        source: {
          id: USDT.id,
          createdAt: "2024-03-14T08:30:00.000Z",
          updatedAt: "2026-10-02T12:11:45.120Z",
          active: true,
          name: "Tether USD",
          code: "USDT",
        },
        target: {
          id: "ghs-id",
          createdAt: "2024-03-14T08:30:00.000Z",
          updatedAt: "2026-10-02T12:11:45.120Z",
          active: true,
          name: "Ghanaian Cedi",
          code: "GHS",
        },
      },
    });
  });
});
