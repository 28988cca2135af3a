// pins: quotes.not-tradable, quotes.invalid-request, ids, catalogue, accounts.keyless
// Create Quote in the sandbox: the rate and amountReceived from the sandbox's rates and the side (the register's
// "quotes.sides"), codes or ids for the currencies, a validity of expiresIn (30) seconds on the sandbox clock, and
// each refusal with its registered status and a message that says which.
import { describe, expect, it } from "vitest";
import { type Currency, dollarRateOf } from "../../src/sandbox/catalogue.js";
import { REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { successExample } from "../support/spec.js";
import type { SandboxStateData } from "../../src/sandbox/state.js";
import { api, BUY_1000, newSandbox, SELL_100, START, stateOf, thrownBy } from "./support/sandbox.js";

const fiatRates = successExample("getFiatRates").data as Array<{ currency: string; buyRate: number; sellRate: number }>;
const ngnx = fiatRates.find((rate) => rate.currency === "NGNX")!;
const currencies = successExample("getCurrencies").data as Array<{
  id: string;
  code: string;
  maximumDecimalPlaces: number;
}>;
const placesOf = (code: string) => currencies.find((currency) => currency.code === code)!.maximumDecimalPlaces;
/** The least USDT amount (one minor unit), which at NGNX's sellRate buys less than one NGNX minor unit. */
const ONE_USDT_UNIT = 10 ** -placesOf("USDT");
const idOf = (code: string) => currencies.find((currency) => currency.code === code)!.id;

describe("Create Quote", () => {
  it("SELL sells USDT at the fiat sellRate: amountReceived = amount × sellRate", async () => {
    const sandbox = newSandbox();
    const { status, body, violations } = await api(sandbox, "POST", "/trades/quote", SELL_100);
    expect(status).toBe(200);
    expect(violations).toEqual([]);
    expect(body.data).toMatchObject({
      side: "SELL",
      rate: 1611.8,
      amount: 100,
      amountReceived: 161180, // 100 × 1611.8
      sourceCode: "USDT",
      targetCode: "NGNX",
      sourceId: idOf("USDT"),
      targetId: idOf("NGNX"),
    });
  });

  it("BUY, as the official clients send it, pays the target: 1000 NGNX ÷ buyRate 1652.4 = 0.605180 USDT", async () => {
    const sandbox = newSandbox();
    const { status, body: answer } = await api(sandbox, "POST", "/trades/quote", BUY_1000);
    expect(status).toBe(200);
    // 1000 ÷ 1652.4 = 0.6051803437..., rounded down to USDT's 6 decimals.
    expect(answer.data).toMatchObject({ side: "BUY", rate: 1652.4, amount: 1000, amountReceived: 0.60518 });
    expect([answer.data.sourceCode, answer.data.targetCode]).toEqual(["USDT", "NGNX"]);
  });

  it("refuses the pair named the other way round by default, and takes it with sideReading source-pays", async () => {
    const reversed = { sourceId: "NGNX", targetId: "USDT", amount: 1000, side: "BUY" };
    const byDefault = await api(newSandbox(), "POST", "/trades/quote", reversed);
    expect([byDefault.status, byDefault.body.message]).toEqual([
      400,
      "no trade pair NGNX/USDT: sourceId and targetId name a pair in its order (USDT/NGNX), side says which way",
    ]);
    const published = newSandbox({ quotes: { sideReading: "source-pays" } });
    const taken = await api(published, "POST", "/trades/quote", reversed);
    expect([taken.status, taken.body.data?.amountReceived]).toEqual([200, 0.60518]);
    const clients = await api(published, "POST", "/trades/quote", BUY_1000);
    expect([clients.status, clients.body.message]).toEqual([400, "side BUY buys USDT: targetId must be USDT"]);
  });

  it("takes currency ids as well as codes", async () => {
    const sandbox = newSandbox();
    const body = { ...SELL_100, sourceId: idOf("USDT"), targetId: idOf("NGNX") };
    const { status, body: answer } = await api(sandbox, "POST", "/trades/quote", body);
    expect(status).toBe(200);
    expect([answer.data.sourceCode, answer.data.targetCode]).toEqual(["USDT", "NGNX"]);
  });

  it("answers the documented expiresIn (30) and an expiryDate that many seconds ahead on its clock", async () => {
    const documented = (successExample("createQuote").data as { expiresIn: number }).expiresIn;
    const sandbox = newSandbox();
    sandbox.clock.advance(1234);
    const { body } = await api(sandbox, "POST", "/trades/quote", SELL_100);
    expect(body.data.expiresIn).toBe(documented);
    expect(body.data.expiryDate).toBe(new Date(START + 1234 + documented * 1000).toISOString());
  });

  it("quotes with the rates in use: a rate set through setRates applies to the next quote", async () => {
    const sandbox = newSandbox();
    sandbox.setRates({ fiat: [{ currency: "NGNX", buyRate: 2000, sellRate: 1900 }], dollar: { NGNX: 0.0005 } });
    const { body } = await api(sandbox, "POST", "/trades/quote", SELL_100);
    expect(body.data).toMatchObject({ rate: 1900, amountReceived: 190000, targetDollarRate: 0.0005 });
  });

  it("derives a dollar rate not configured from the fiat sellRate in use (1 / sellRate, 8 decimals)", () => {
    // The default catalogue's currencies all have a configured dollar rate: the rule is read directly.
    const ghs = { code: "GHS" } as Currency;
    const ratesWith = (sellRate: number) => ({
      fiat: [{ currency: "GHS" as const, buyRate: 16, sellRate }],
      dollar: {},
    });
    expect(dollarRateOf(ratesWith(15.21), ghs)).toBe(0.06574622);
    expect(dollarRateOf(ratesWith(30.42), ghs)).toBe(0.03287311);
    expect(dollarRateOf({ ...ratesWith(30.42), dollar: { GHS: 0.5 } }, ghs)).toBe(0.5);
    expect(dollarRateOf({ fiat: [], dollar: {} }, ghs)).toBeUndefined();
  });

  it("gives each quote its own id, of the documented example's form", async () => {
    const sandbox = newSandbox();
    const first = await api(sandbox, "POST", "/trades/quote", SELL_100);
    const second = await api(sandbox, "POST", "/trades/quote", SELL_100);
    // The example's prefix (up to its "_"), then as many letters or digits as the example has.
    const documented = (successExample("createQuote").data as { id: string }).id;
    const prefix = documented.slice(0, documented.indexOf("_") + 1);
    expect(prefix).not.toBe("");
    const form = new RegExp(`^${prefix}[A-Za-z0-9]{${documented.length - prefix.length}}$`);
    expect(documented).toMatch(form);
    expect(first.body.data.id).toMatch(form);
    expect(second.body.data.id).not.toBe(first.body.data.id);
  });

  it.each([
    [
      "a missing side",
      { sourceId: "USDT", targetId: "NGNX", amount: 1 },
      REFUSAL_STATUS.invalidQuoteRequest,
      /^Create Quote needs sourceId, targetId, amount, side; missing: side$/,
    ],
    ["an amount of 0", { ...SELL_100, amount: 0 }, REFUSAL_STATUS.invalidQuoteRequest, /above 0/],
    ["too many decimals", { ...SELL_100, amount: 1.1234567 }, REFUSAL_STATUS.invalidQuoteRequest, /decimals/],
    ["an unknown currency", { ...SELL_100, targetId: "EUR" }, REFUSAL_STATUS.quoteNotTradable, /EUR/],
    ["USDT against itself", { ...SELL_100, targetId: "USDT" }, REFUSAL_STATUS.quoteNotTradable, /itself/],
    [
      "a pair named the other way round",
      { sourceId: "NGNX", targetId: "USDT", amount: 1000, side: "SELL" },
      REFUSAL_STATUS.quoteNotTradable,
      /^no trade pair NGNX\/USDT: sourceId and targetId name a pair in its order \(USDT\/NGNX\), side says which way$/,
    ],
    [
      "an unknown sourceId",
      { ...SELL_100, sourceId: "EUR" },
      REFUSAL_STATUS.quoteNotTradable,
      /^sourceId EUR is no currency code or id of the sandbox's catalogue$/,
    ],
    [
      "GHS, which has a fiat rate but no currency in the catalogue",
      { ...SELL_100, targetId: "GHS" },
      REFUSAL_STATUS.quoteNotTradable,
      new RegExp(
        "^targetId GHS is no currency code or id of the sandbox's catalogue: GHS has a fiat rate, but no currency " +
          "of the catalogue to trade \\(Get Currencies' documented example lists none\\); give the catalogue a GHS " +
          "currency and a pair to quote it$",
      ),
    ],
    [
      "an amount too small to receive a minor unit of the target",
      { ...SELL_100, amount: ONE_USDT_UNIT },
      REFUSAL_STATUS.invalidQuoteRequest,
      new RegExp(`^amount ${ONE_USDT_UNIT} USDT is too small to receive any NGNX$`),
    ],
  ])("refuses %s with the registered status and a message saying so", async (_name, body, status, message) => {
    const sandbox = newSandbox();
    const answer = await api(sandbox, "POST", "/trades/quote", body);
    expect(answer.status).toBe(status);
    expect(answer.body.message).toMatch(message);
    expect(answer.body.errors).toEqual([{ message: answer.body.message }]);
    expect(answer.violations).toEqual([]);
  });

  it("quotes with the examples' decimals and rates that make one USDT minor unit too small for NGNX", () => {
    expect(ONE_USDT_UNIT * ngnx.sellRate).toBeLessThan(10 ** -placesOf("NGNX"));
  });

  it("refuses a fiat currency the catalogue does not have (GHS has rates but no documented currency)", async () => {
    const sandbox = newSandbox();
    const answer = await api(sandbox, "POST", "/trades/quote", { ...SELL_100, targetId: "GHS" });
    expect(answer.status).toBe(REFUSAL_STATUS.quoteNotTradable);
    expect(answer.body.message).toMatch(/GHS/);
  });

  describe("refuses what its catalogue or rates cannot trade, saying which", () => {
    const pair = successExample("getTradePair").data as { isSellable: boolean; isBuyable: boolean };
    const quote = (sandbox: ReturnType<typeof newSandbox>, body: object) => api(sandbox, "POST", "/trades/quote", body);
    /** A sandbox whose state is the default one changed by `change` (through a snapshot and a restore). */
    const changed = (change: (state: SandboxStateData) => void) => {
      const sandbox = newSandbox();
      const state = stateOf(sandbox);
      change(state);
      sandbox.restore(state as never);
      return sandbox;
    };

    it("a pair that is not sellable refuses SELL only, one not buyable BUY only", async () => {
      for (const [flag, refused, taken, word] of [
        ["isSellable", SELL_100, BUY_1000, "sellable"],
        ["isBuyable", BUY_1000, SELL_100, "buyable"],
      ] as const) {
        const sandbox = newSandbox({ catalogue: { pairs: [{ ...pair, [flag]: false }] } });
        const answer = await quote(sandbox, refused);
        expect([answer.status, answer.body.message]).toEqual([
          REFUSAL_STATUS.quoteNotTradable,
          `the pair USDT/NGNX is not ${word}`,
        ]);
        expect((await quote(sandbox, taken)).status).toBe(200);
      }
    });

    it("a currency no pair joins to USDT", async () => {
      const answer = await quote(newSandbox({ catalogue: { pairs: [] } }), SELL_100);
      expect([answer.status, answer.body.message]).toEqual([
        REFUSAL_STATUS.quoteNotTradable,
        "no trade pair USDT/NGNX: sourceId and targetId name a pair in its order",
      ]);
    });

    it("a currency without a fiat rate", async () => {
      // Setting rates cannot take one away (each given replaces its currency's): a restored state can lack one.
      const sandbox = changed((state) => {
        state.rates.fiat = state.rates.fiat.filter((rate) => rate.currency !== "NGNX");
      });
      const answer = await quote(sandbox, SELL_100);
      expect([answer.status, answer.body.message]).toEqual([
        REFUSAL_STATUS.quoteNotTradable,
        "the sandbox has no fiat rate for NGNX",
      ]);
    });

    it("USDT without a dollar rate, as the source of a SELL and the target of a BUY", async () => {
      // A fiat currency without one has 1 ÷ its sellRate (choices.ts), so only USDT can lack one.
      const sandbox = changed((state) => delete state.rates.dollar.USDT);
      for (const body of [SELL_100, BUY_1000]) {
        const answer = await quote(sandbox, body);
        expect([body.side, answer.status, answer.body.message]).toEqual([
          body.side,
          REFUSAL_STATUS.quoteNotTradable,
          "the sandbox has no dollar rate for USDT",
        ]);
      }
    });
  });

  it("needs the API key (the contract requires it)", async () => {
    const sandbox = newSandbox();
    const answer = await api(sandbox, "POST", "/trades/quote", SELL_100, { key: null });
    expect(answer.status).toBe(401);
  });
});

describe("quotes.sideReading", () => {
  it("refuses a reading the sandbox does not know, naming the two it knows", () => {
    const thrown = thrownBy(() => newSandbox({ quotes: { sideReading: "left-pays" as never } }));
    expect([thrown?.name, thrown?.message]).toEqual([
      "RangeError",
      "sandbox quotes.sideReading: one of pair, source-pays, not left-pays",
    ]);
  });
});
