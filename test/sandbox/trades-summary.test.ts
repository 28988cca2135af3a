// pins: trades.summary
// The trades summary: totalDollarVolume is the sum of the account's trades' dollarValue (a SELL of USDT is worth
// its amount: USDT's dollar rate is 1); currencyId keeps the trades whose source or target is that currency; page
// and pageSize do not change it. Here: SELLs of 1 and 2 USDT for NGNX and of 4 USDT for GHS, 7 dollars in all.
import { describe, expect, it } from "vitest";
import { successExample } from "../support/spec.js";
import { api, newSandbox, quoteId } from "./support/sandbox.js";

const [USDT, NGNX] = successExample("getCurrencies").data as any[];
const GHS = { ...NGNX, id: "ghs-id", code: "GHS", name: "Ghanaian Cedi" };
const USDT_NGNX = successExample("getTradePair").data as any;
const USDT_GHS = { ...USDT_NGNX, id: "pair-usdt-ghs", targetId: GHS.id, target: GHS };

describe("the trades summary", () => {
  it("sums the trades' dollarValue, by source or target currency, whatever page is asked", async () => {
    const sandbox = newSandbox({
      catalogue: { currencies: [USDT, NGNX, GHS], pairs: [USDT_NGNX, USDT_GHS] },
      accounts: { "key-a": { balances: { USDT: 100 } } },
    });
    for (const [target, amount] of [
      ["NGNX", 1],
      ["NGNX", 2],
      ["GHS", 4],
    ] as const) {
      const id = await quoteId(sandbox, { sourceId: "USDT", targetId: target, amount, side: "SELL" });
      expect((await api(sandbox, "POST", `/trades/quote/${id}`, {})).status).toBe(200);
    }
    const total = async (query: string) => {
      const answer = await api(sandbox, "GET", `/trades/summary/me${query}`);
      expect(answer.violations).toEqual([]);
      return answer.body.data.totalDollarVolume;
    };
    expect({
      all: await total(""),
      usdt: await total(`?currencyId=${USDT.id}`),
      ngnx: await total(`?currencyId=${NGNX.id}`),
      ghs: await total(`?currencyId=${GHS.id}`),
      other: await total("?currencyId=other"),
      paged: await total("?page=2&pageSize=1"),
      pagedNgnx: await total(`?currencyId=${NGNX.id}&page=3&pageSize=1`),
    }).toEqual({ all: 7, usdt: 7, ngnx: 3, ghs: 4, other: 0, paged: 7, pagedNgnx: 3 });
    expect((await api(sandbox, "GET", "/trades/summary/me", undefined, { key: "key-b" })).body.data).toEqual({
      totalDollarVolume: 0,
    });
  });
});
