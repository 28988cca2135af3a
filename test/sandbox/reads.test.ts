// pins: catalogue, rates.update, lists.category, trades.summary
// Reads reflect the state: the transaction history paged (page, pageSize, newest first) and filtered by category,
// a transaction by id, the deposits and payouts pages with their meta (empty here: deposits.test.ts and
// withdrawals.test.ts fill them), the trades summary (currencyId), trade pairs and currencies from the catalogue,
// the fiat rates in use.
import { describe, expect, it } from "vitest";
import { REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { successExample } from "../support/spec.js";
import { api, newSandbox, quoteId } from "./support/sandbox.js";

/** A sandbox whose key-a made `trades` trades (two transactions each). */
async function withTrades(trades: number) {
  const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 1000 } } } });
  for (let i = 0; i < trades; i++) {
    const id = await quoteId(sandbox, { sourceId: "USDT", targetId: "NGNX", amount: i + 1, side: "SELL" });
    await api(sandbox, "POST", `/trades/quote/${id}`, {});
    sandbox.clock.advance(1000);
  }
  return sandbox;
}

describe("reads", () => {
  it("pages the transaction history newest first", async () => {
    const sandbox = await withTrades(3);
    const all = (await api(sandbox, "GET", "/transactions/me")).body.data;
    expect(all).toHaveLength(6);
    expect(all.map((t: any) => t.createdAt)).toEqual([...all.map((t: any) => t.createdAt)].sort().reverse());
    const second = await api(sandbox, "GET", "/transactions/me?page=2&pageSize=4");
    expect(second.body.data).toEqual(all.slice(4));
    expect((await api(sandbox, "GET", "/transactions/me?page=3&pageSize=4")).body.data).toEqual([]);
    const refused = await api(sandbox, "GET", "/transactions/me?page=0");
    expect(refused.status).toBe(REFUSAL_STATUS.invalidPage);
    expect(refused.violations).toEqual([]);
  });

  it("filters the history by category", async () => {
    const sandbox = await withTrades(1);
    expect((await api(sandbox, "GET", "/transactions/me?category=SWAP")).body.data).toHaveLength(2);
    expect((await api(sandbox, "GET", "/transactions/me?category=DEPOSIT")).body.data).toEqual([]);
  });

  it("pages the trade history and sums the trades' dollar value, by currency when asked", async () => {
    const sandbox = await withTrades(3);
    const trades = (await api(sandbox, "GET", "/trades/me?pageSize=2")).body.data;
    expect(trades.map((t: any) => t.amount)).toEqual([3, 2]);
    const summary = await api(sandbox, "GET", "/trades/summary/me");
    expect(summary.body.data.totalDollarVolume).toBe(6);
    const usdtId = trades[0].pair.sourceId;
    expect((await api(sandbox, "GET", `/trades/summary/me?currencyId=${usdtId}`)).body.data.totalDollarVolume).toBe(6);
    expect((await api(sandbox, "GET", "/trades/summary/me?currencyId=other")).body.data.totalDollarVolume).toBe(0);
  });

  it("answers empty deposit and payout pages with their meta", async () => {
    const sandbox = newSandbox();
    for (const path of ["/transactions/deposits/me", "/transactions/withdrawals/me"]) {
      const page = await api(sandbox, "GET", `${path}?page=2&pageSize=10`);
      expect(page.violations).toEqual([]);
      expect(page.body).toMatchObject({
        data: [],
        meta: { perPage: 10, currentPage: 2, totalPages: 0, count: 0, total: 0 },
      });
    }
  });

  it("answers the catalogue: currencies, pairs, one pair by its codes, a currency's pairs", async () => {
    const sandbox = newSandbox();
    const currencies = (await api(sandbox, "GET", "/currencies")).body.data;
    expect(currencies).toEqual(successExample("getCurrencies").data);
    const pairs = (await api(sandbox, "GET", "/trades/pairs")).body.data;
    expect(pairs.map((p: any) => [p.source.code, p.target.code])).toEqual([["USDT", "NGNX"]]);
    expect((await api(sandbox, "GET", "/trades/pairs/USDT/NGNX")).body.data).toEqual(
      successExample("getTradePair").data,
    );
    expect((await api(sandbox, "GET", "/trades/pairs/NGNX/GHS")).status).toBe(REFUSAL_STATUS.notFound);
    expect((await api(sandbox, "GET", `/currencies/${currencies[1].id}/pairs`)).body.data).toEqual(pairs);
    expect((await api(sandbox, "GET", "/currencies/unknown/pairs")).status).toBe(REFUSAL_STATUS.notFound);
  });

  it("answers a configured catalogue, and refuses one the contract does not allow", async () => {
    const [usdt, ngnx] = successExample("getCurrencies").data as any[];
    const ghs = { ...ngnx, id: "ghs-id", code: "GHS", name: "Ghanaian Cedi" };
    const pair = { ...(successExample("getTradePair").data as any), id: "pair-ghs", targetId: "ghs-id", target: ghs };
    const sandbox = newSandbox({ catalogue: { currencies: [usdt, ghs], pairs: [pair] } });
    const quote = await api(sandbox, "POST", "/trades/quote", {
      sourceId: "USDT",
      targetId: "GHS",
      amount: 1,
      side: "SELL",
    });
    expect(quote.status).toBe(200);
    expect(Object.keys(sandbox.getAccount("key-a")!.balances)).toEqual(["USDT", "GHS"]);
    expect(() => newSandbox({ catalogue: { currencies: [{ code: "X" }] } })).toThrow(/Currency/);
    expect(() => newSandbox({ catalogue: { currencies: [usdt] } })).toThrow(/pair/);
  });

  it("answers the fiat rates in use", async () => {
    const sandbox = newSandbox();
    expect((await api(sandbox, "GET", "/currencies/fiat-rates")).body.data).toEqual(
      successExample("getFiatRates").data,
    );
    // A rate given replaces its currency's; the other currency's documented rate is kept.
    sandbox.setRates({ fiat: [{ currency: "GHS", buyRate: 16, sellRate: 15 }] });
    expect((await api(sandbox, "GET", "/currencies/fiat-rates")).body.data).toEqual([
      { currency: "NGNX", base: "USDT", buyRate: 1652.4, sellRate: 1611.8 },
      { currency: "GHS", base: "USDT", buyRate: 16, sellRate: 15 },
    ]);
  });
});
