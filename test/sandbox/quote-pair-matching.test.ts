// pins: quotes.sides
// Which catalogue pair a quote trades on, under each reading of a side (register "quotes.sides"), with a catalogue
// of USDT, NGNX and GHS where pairs share a currency: a pair is found only when both codes match, in the order the
// reading asks for, and every refusal says which rule refused it.
import { describe, expect, it } from "vitest";
import { REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { successExample } from "../support/spec.js";
import { api, newSandbox } from "./support/sandbox.js";

const [USDT, NGNX] = successExample("getCurrencies").data as any[];
const GHS = { ...NGNX, id: "ghs-id", code: "GHS", exchangeCode: "GHS", name: "Ghanaian Cedi" };
const USDT_NGNX = successExample("getTradePair").data as any;
/** A pair of two fiat currencies: it shares NGNX with USDT/NGNX. */
const NGNX_GHS = { ...USDT_NGNX, id: "pair-ngnx-ghs", sourceId: NGNX.id, source: NGNX, targetId: GHS.id, target: GHS };

/** A quote of 100 as a row: what it asked, its status, and its message or amountReceived. */
const quote = async (sandbox: ReturnType<typeof newSandbox>, sourceId: string, targetId: string, side: string) => {
  const answer = await api(sandbox, "POST", "/trades/quote", { sourceId, targetId, amount: 100, side });
  const outcome = answer.status === 200 ? answer.body.data.amountReceived : answer.body.message;
  return [`${side} ${sourceId}→${targetId}`, answer.status, outcome];
};

describe("Create Quote's pair, as the clients send it (sideReading pair)", () => {
  it("is the pair of both codes in their order; one sharing a single code is no pair", async () => {
    const sandbox = newSandbox({ catalogue: { currencies: [USDT, NGNX, GHS], pairs: [USDT_NGNX, NGNX_GHS] } });
    expect([
      await quote(sandbox, "USDT", "GHS", "SELL"),
      await quote(sandbox, "GHS", "NGNX", "SELL"),
      await quote(sandbox, "NGNX", "GHS", "SELL"),
      await quote(sandbox, "USDT", "NGNX", "SELL"),
    ]).toEqual([
      // USDT/NGNX has USDT as its source, but its target is not GHS.
      ["SELL USDT→GHS", 400, "no trade pair USDT/GHS: sourceId and targetId name a pair in its order"],
      // USDT/NGNX has NGNX as its target, but its source is not GHS.
      [
        "SELL GHS→NGNX",
        400,
        "no trade pair GHS/NGNX: sourceId and targetId name a pair in its order (NGNX/GHS), side says which way",
      ],
      // A pair of the catalogue, but no quote of two fiat currencies.
      ["SELL NGNX→GHS", 400, "a quote trades USDT against another currency: neither is USDT"],
      ["SELL USDT→NGNX", 200, 161180], // 100 × sellRate 1611.8
    ]);
  });
});

describe("Create Quote's pair, as the published pages read a side (sideReading source-pays)", () => {
  it("SELL sells USDT (the source), BUY buys it (the target); the pair joins the two in either order", async () => {
    const sandbox = newSandbox({ quotes: { sideReading: "source-pays" } });
    expect([
      await quote(sandbox, "USDT", "NGNX", "SELL"),
      await quote(sandbox, "NGNX", "USDT", "SELL"),
      await quote(sandbox, "NGNX", "USDT", "BUY"),
      await quote(sandbox, "USDT", "NGNX", "BUY"),
    ]).toEqual([
      ["SELL USDT→NGNX", 200, 161180], // 100 × sellRate 1611.8
      ["SELL NGNX→USDT", 400, "side SELL sells USDT: sourceId must be USDT"],
      ["BUY NGNX→USDT", 200, 0.060518], // 100 ÷ buyRate 1652.4 = 0.0605180..., down to 6 decimals
      ["BUY USDT→NGNX", 400, "side BUY buys USDT: targetId must be USDT"],
    ]);
  });

  it("refuses a quote no pair of the catalogue joins, naming the two currencies", async () => {
    const sandbox = newSandbox({
      quotes: { sideReading: "source-pays" },
      catalogue: { currencies: [USDT, NGNX, GHS], pairs: [USDT_NGNX] },
    });
    expect(await quote(sandbox, "USDT", "GHS", "SELL")).toEqual([
      "SELL USDT→GHS",
      REFUSAL_STATUS.quoteNotTradable,
      "no trade pair of the sandbox joins USDT and GHS",
    ]);
  });
});
