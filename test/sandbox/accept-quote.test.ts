// pins: quotes.balance-too-low, quotes.not-tradable, accounts.isolation
// Accept Quote in the sandbox: once, before expiry, when the source balance covers the amount; it moves the
// balances (no extra charge), records the trade and two SWAP transactions, and adds the trade's dollar value to
// the summary. Each refusal has its registered status, says which refusal it is, and changes nothing.
import { describe, expect, it } from "vitest";
import { REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import type { SandboxStateData } from "../../src/sandbox/state.js";
import { api, BUY_1000, newSandbox, quoteId, SELL_100, stateOf, storesBeyondLimits } from "./support/sandbox.js";

const accept = (sandbox: ReturnType<typeof newSandbox>, id: string, key = "key-a") =>
  api(sandbox, "POST", `/trades/quote/${encodeURIComponent(id)}`, {}, { key });

describe("Accept Quote", () => {
  it("debits the source by amount and credits the target by amountReceived, nothing more", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 500, NGNX: 10 } } } });
    const quote = (await api(sandbox, "POST", "/trades/quote", SELL_100)).body.data;
    const trade = await accept(sandbox, quote.id);
    expect(trade.status).toBe(200);
    expect(trade.violations).toEqual([]);
    expect(sandbox.getAccount("key-a")?.balances).toEqual({ USDT: 400, NGNX: 10 + quote.amountReceived });
  });

  it("answers the trade: its own id, the quote's terms, dollarValue = amount × sourceDollarRate", async () => {
    const sandbox = newSandbox();
    const quote = (await api(sandbox, "POST", "/trades/quote", SELL_100)).body.data;
    const { body } = await accept(sandbox, quote.id);
    expect(body.data.id).not.toBe(quote.id);
    expect(body.data).toMatchObject({
      rate: quote.rate,
      side: "SELL",
      amount: 100,
      amountReceived: quote.amountReceived,
      dollarValue: 100 * quote.sourceDollarRate,
    });
    expect(body.data.pair.source.code).toBe("USDT");
    expect(body.data.reference).toMatch(/^TRD-20261126-[A-Z0-9]{6}$/);
  });

  it("records a DEBIT and a CREDIT SWAP transaction with the trade's reference, the trade in the history", async () => {
    const sandbox = newSandbox();
    const trade = (await accept(sandbox, await quoteId(sandbox))).body.data;
    const history = (await api(sandbox, "GET", "/transactions/me")).body.data;
    expect(history.map((t: any) => [t.type, t.category, t.amount, t.wallet.currencyId, t.reference])).toEqual([
      ["CREDIT", "SWAP", trade.amountReceived, trade.pair.targetId, trade.reference],
      ["DEBIT", "SWAP", trade.amount, trade.pair.sourceId, trade.reference],
    ]);
    const trades = (await api(sandbox, "GET", "/trades/me")).body.data;
    expect(trades).toEqual([trade]);
    const summary = (await api(sandbox, "GET", "/trades/summary/me")).body.data;
    expect(summary).toEqual({ totalDollarVolume: trade.dollarValue });
  });

  it("succeeds once: a second accept is refused as already accepted", async () => {
    const sandbox = newSandbox();
    const id = await quoteId(sandbox);
    expect((await accept(sandbox, id)).status).toBe(200);
    const again = await accept(sandbox, id);
    expect(again.status).toBe(REFUSAL_STATUS.quoteAccepted);
    expect(again.body.message).toMatch(/already accepted/);
    expect((await api(sandbox, "GET", "/trades/me")).body.data).toHaveLength(1);
  });

  it("accepts until the last millisecond before expiryDate, and refuses from expiryDate on", async () => {
    const sandbox = newSandbox();
    const early = await quoteId(sandbox);
    const late = await quoteId(sandbox);
    sandbox.clock.advance(29_999);
    expect((await accept(sandbox, early)).status).toBe(200);
    sandbox.clock.advance(1);
    const expired = await accept(sandbox, late);
    expect(expired.status).toBe(REFUSAL_STATUS.quoteExpired);
    expect(expired.body.message).toMatch(/expired/);
  });

  it("accepts a quote the balance covers exactly, leaving the source wallet empty", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 100 } } } });
    expect((await accept(sandbox, await quoteId(sandbox))).status).toBe(200);
    expect(sandbox.getAccount("key-a")?.balances.USDT).toBe(0);
  });

  it("on a BUY, checks the NGNX wallet it debits and values the trade at NGNX's dollar rate", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { NGNX: 999.99, USDT: 5000 } } } });
    const refused = await accept(sandbox, await quoteId(sandbox, BUY_1000));
    expect([refused.status, refused.body.message]).toEqual([
      REFUSAL_STATUS.balanceTooLow,
      "balance too low: the NGNX wallet holds 999.99, the quote needs 1000",
    ]);
    sandbox.putAccount("key-a", { balances: { NGNX: 1000 } });
    const quote = (await api(sandbox, "POST", "/trades/quote", BUY_1000)).body.data;
    const trade = await accept(sandbox, quote.id);
    expect(trade.status).toBe(200);
    // NGNX's dollar rate is 1 ÷ its sellRate 1611.8 (choices.ts): 1000 ÷ 1611.8 = 0.6204... dollars, to cents.
    expect(trade.body.data.dollarValue).toBe(0.62);
    expect(quote.targetDollarRate).toBeLessThan(1);
    expect(sandbox.getAccount("key-a")?.balances.NGNX).toBe(0);
  });

  it("describes its SWAP transactions as registered: Swap <amount> <source> to <target>, Quote <id>", async () => {
    const sandbox = newSandbox();
    const id = await quoteId(sandbox);
    await accept(sandbox, id);
    const history = (await api(sandbox, "GET", "/transactions/me")).body.data;
    expect(history.map((t: any) => [t.description, t.narration])).toEqual([
      ["Swap 100 USDT to NGNX", `Quote ${id}`],
      ["Swap 100 USDT to NGNX", `Quote ${id}`],
    ]);
  });

  it("refuses a quote whose pair or wallet the sandbox no longer has (a state restored without it)", async () => {
    const withoutPair = (state: SandboxStateData) => {
      state.catalogue.pairs = [];
    };
    const withoutWallet = (code: string) => (state: SandboxStateData) => {
      const account = state.accounts["key-a"]!;
      account.wallets = account.wallets.filter((wallet) => wallet.code !== code);
    };
    for (const [name, change] of [
      ["no pair", withoutPair],
      ["no USDT wallet", withoutWallet("USDT")],
      ["no NGNX wallet", withoutWallet("NGNX")],
    ] as const) {
      const sandbox = newSandbox();
      const id = await quoteId(sandbox);
      const state = stateOf(sandbox);
      change(state);
      sandbox.restore(state as never);
      const refused = await accept(sandbox, id);
      expect([name, refused.status, refused.body.message]).toEqual([
        name,
        REFUSAL_STATUS.quoteNotTradable,
        "the sandbox no longer trades USDT/NGNX",
      ]);
    }
  });

  it("refuses a quote the balance cannot cover, and changes nothing", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 99.99 } } } });
    const id = await quoteId(sandbox);
    const before = storesBeyondLimits(sandbox);
    const refused = await accept(sandbox, id);
    expect(refused.status).toBe(REFUSAL_STATUS.balanceTooLow);
    expect(refused.body.message).toMatch(/balance too low/);
    expect(storesBeyondLimits(sandbox)).toEqual(before);
  });

  it("refuses another key's quote exactly as an unknown one", async () => {
    const sandbox = newSandbox();
    const theirs = await quoteId(sandbox, SELL_100, "key-b");
    const other = await accept(sandbox, theirs, "key-a");
    const unknown = await accept(sandbox, "qt_doesnotexist000");
    expect([other.status, unknown.status]).toEqual([REFUSAL_STATUS.notFound, REFUSAL_STATUS.notFound]);
    expect(unknown.body.message).toBe("no quote qt_doesnotexist000 was found for this API key");
    expect(other.body.message).toBe(unknown.body.message.replace("qt_doesnotexist000", theirs));
    expect((await accept(sandbox, theirs, "key-b")).status).toBe(200);
  });

  it("accepts one of many concurrent accepts of one quote", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 500 } } } });
    const id = await quoteId(sandbox);
    const answers = await Promise.all(Array.from({ length: 20 }, () => accept(sandbox, id)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(sandbox.getAccount("key-a")?.balances.USDT).toBe(400);
  });
});
