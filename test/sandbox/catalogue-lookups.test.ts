// The catalogue's lookups by key, with a catalogue of USDT, NGNX and GHS whose two pairs share USDT: Get Trade Pair
// finds a pair only by both its codes in order; Get Currency Pairs lists the pairs a currency is the source or the
// target of, and no others; Get Withdrawal Currency Networks answers [] for a currency without withdrawal
// networks. Each lookup of what the catalogue does not have is a 404 whose message names it.
import { describe, expect, it } from "vitest";
import { successExample } from "../support/spec.js";
import { api, newSandbox } from "./support/sandbox.js";

const [USDT, NGNX] = successExample("getCurrencies").data as any[];
const GHS = { ...NGNX, id: "ghs-id", code: "GHS", exchangeCode: "GHS", name: "Ghanaian Cedi" };
const USDT_NGNX = successExample("getTradePair").data as any;
const USDT_GHS = { ...USDT_NGNX, id: "pair-usdt-ghs", targetId: GHS.id, target: GHS };

const withTwoPairs = () => newSandbox({ catalogue: { currencies: [USDT, NGNX, GHS], pairs: [USDT_NGNX, USDT_GHS] } });

/** An answer as a row: its status, and the codes of the pair(s) it answers or its message. */
async function lookup(sandbox: ReturnType<typeof newSandbox>, path: string) {
  const answer = await api(sandbox, "GET", path);
  expect(answer.violations).toEqual([]);
  if (answer.status !== 200) return [path, answer.status, answer.body.message];
  const codes = (pair: any) => `${pair.source.code}/${pair.target.code}`;
  return [path, 200, Array.isArray(answer.body.data) ? answer.body.data.map(codes) : codes(answer.body.data)];
}

describe("Get Trade Pair", () => {
  it("finds a pair by its two codes in order, not by one of them", async () => {
    const sandbox = withTwoPairs();
    const rows = [];
    for (const path of ["/trades/pairs/USDT/GHS", "/trades/pairs/NGNX/GHS", "/trades/pairs/GHS/USDT"])
      rows.push(await lookup(sandbox, path));
    expect(rows).toEqual([
      ["/trades/pairs/USDT/GHS", 200, "USDT/GHS"],
      ["/trades/pairs/NGNX/GHS", 404, "the sandbox has no trade pair NGNX/GHS"],
      ["/trades/pairs/GHS/USDT", 404, "the sandbox has no trade pair GHS/USDT"],
    ]);
  });
});

describe("Get Currency Pairs", () => {
  it("lists the pairs of a currency, as their source or their target", async () => {
    const sandbox = withTwoPairs();
    const rows = [];
    for (const id of [USDT.id, NGNX.id, GHS.id, "no-such-id"])
      rows.push(await lookup(sandbox, `/currencies/${id}/pairs`));
    expect(rows).toEqual([
      [`/currencies/${USDT.id}/pairs`, 200, ["USDT/NGNX", "USDT/GHS"]],
      [`/currencies/${NGNX.id}/pairs`, 200, ["USDT/NGNX"]],
      ["/currencies/ghs-id/pairs", 200, ["USDT/GHS"]],
      ["/currencies/no-such-id/pairs", 404, "the sandbox has no currency no-such-id"],
    ]);
  });
});

describe("Get Withdrawal Currency Networks", () => {
  it("answers [] for a currency without withdrawal networks, and 404 for one the catalogue lacks", async () => {
    // The default catalogue has USDT's withdrawal networks only (the documented example).
    const sandbox = newSandbox();
    const ngnx = await api(sandbox, "GET", `/currencies/${NGNX.id}/networks`);
    const unknown = await api(sandbox, "GET", "/currencies/no-such-id/networks");
    expect([
      [ngnx.status, ngnx.body.data, ngnx.violations],
      [unknown.status, unknown.body.message, unknown.violations],
    ]).toEqual([
      [200, [], []],
      [404, "the sandbox has no currency no-such-id", []],
    ]);
  });
});
