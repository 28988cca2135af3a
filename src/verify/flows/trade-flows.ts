// The trade flows of verify: a swap (a quote accepted once, then again; the wallets and the history moved by exactly
// the quote's amounts) and a quote accepted at its expiry. Each checks the register's rules for what it sees. They
// trade the smallest amount the policy allows: 1 unit of the pair's source currency (a SELL).
import { wholeOfExactAt15Digits } from "../../sandbox/exact-decimal.js";
import { REFUSAL_STATUS, RULE_FORMS } from "../../sandbox/rules.js";
import { expectStatus, type FlowContext, FlowFailure } from "./context.js";

/** What a flow spends on its target at most: API requests, Create Quote calls, trades, deposit addresses made. */
export interface FlowSpend {
  requests: number;
  quotes: number;
  trades: number;
  addresses: number;
}

/** What decides whether a flow runs on a target (before any request). */
export type FlowFitness = Pick<FlowContext, "target" | "allowSideEffects" | "control" | "secondKey" | "webhookSecret">;

/** A flow: what it checks of the register, what it needs of the target, what it spends, and its steps. */
export interface Flow {
  name: string;
  /** The register entries it gives a verdict on. */
  choices: readonly string[];
  /** The operations it calls (operationIds): a contract without them gets no run of it. */
  operations: readonly string[];
  spend: FlowSpend;
  /** Why it cannot run on this target, or undefined. */
  unfit(context: FlowFitness): string | undefined;
  run(context: FlowContext): Promise<void>;
}

/** What a trade flow calls to find a pair and trade it. */
export const TRADE_OPERATIONS = ["getTradePairs", "getCurrencies", "createQuote", "acceptQuote"];

/** The amount a trade flow trades: one unit of the source currency. */
const TRADE_AMOUNT = 1;

/** Why a flow that trades cannot run: the mock keeps no state; a deployment trades only when allowed. */
export function unfitToTrade(context: FlowFitness): string | undefined {
  if (context.target === "mock") return "the mock keeps no state between requests";
  if (context.target === "deployment" && !context.allowSideEffects)
    return "it executes a trade of 1 unit (allow side effects to run it)";
  return undefined;
}

/** Whether two amounts are equal to 8 decimals (sums of decimals carry binary error). */
export const same = (a: number, b: number): boolean => Math.round(a * 1e8) === Math.round(b * 1e8);

/** What `amount` sold at `rate` receives in a currency of `decimals`, as the register's quotes.rounding says. */
function receivedAt(amount: number, rate: number, decimals: number): number {
  const scale = 10 ** decimals;
  return wholeOfExactAt15Digits([amount, rate, scale], [], RULE_FORMS.amountReceivedRounding) / scale;
}

/** The account's available balance and wallet id by currency code (Get My Wallets). */
export async function walletsOf(context: FlowContext): Promise<Map<string, { balance: number; id: string }>> {
  const answer = expectStatus(await context.call("GET", "/wallets/me"), 200, "(the account's wallets)");
  const wallets = answer.body.data as Array<{ id: string; availableBalance: number; currency: { code: string } }>;
  return new Map(wallets.map((w) => [w.currency.code, { balance: w.availableBalance, id: w.id }]));
}

/** A sellable pair of the target's catalogue and the decimals of its target currency. */
export async function sellablePair(context: FlowContext) {
  const pairs = expectStatus(await context.call("GET", "/trades/pairs"), 200, "(the trade pairs)").body.data as Array<{
    isSellable: boolean;
    source: { code: string };
    target: { code: string };
  }>;
  const pair = pairs.find((candidate) => candidate.isSellable);
  if (!pair) throw new FlowFailure("GET /trades/pairs lists no sellable pair to trade");
  const currencies = expectStatus(await context.call("GET", "/currencies"), 200, "(the currencies)").body
    .data as Array<{
    code: string;
    maximumDecimalPlaces: number;
  }>;
  const decimals = currencies.find((currency) => currency.code === pair.target.code)?.maximumDecimalPlaces ?? 2;
  return { source: pair.source.code, target: pair.target.code, decimals };
}

/** A SELL quote of the pair for TRADE_AMOUNT: its answer's data. */
async function sellQuote(context: FlowContext, pair: { source: string; target: string }) {
  const body = { sourceId: pair.source, targetId: pair.target, amount: TRADE_AMOUNT, side: "SELL" };
  const answer = expectStatus(await context.call("POST", "/trades/quote", body), 200, "(a quote of 1 unit)");
  return { quote: answer.body.data as Quote, exchange: answer.exchange };
}

interface Quote {
  id: string;
  amount: number;
  amountReceived: number;
  rate: number;
  expiryDate: string;
  expiresIn: number;
}

interface HistoryItem {
  reference: string;
  type: string;
  category: string;
  amount: number;
  walletId: string;
}

/** Whether the history holds the trade's two SWAP legs: a DEBIT of amount (source), a CREDIT of amountReceived. */
async function checkSwapLegs(
  context: FlowContext,
  trade: { reference: string },
  expected: { debit: [string, number]; credit: [string, number] },
): Promise<boolean> {
  const answer = expectStatus(await context.call("GET", "/transactions/me"), 200, "(the history)");
  const legs = (answer.body.data as HistoryItem[]).filter((item) => item.reference === trade.reference);
  const leg = (type: string, [walletId, amount]: [string, number]) =>
    legs.some((l) => l.type === type && l.category === "SWAP" && l.walletId === walletId && same(l.amount, amount));
  return legs.length === 2 && leg("DEBIT", expected.debit) && leg("CREDIT", expected.credit);
}

const swapFlow: Flow = {
  name: "swap: quote → accept → accept again → wallets and history",
  choices: ["quotes.rounding", "quotes.accepted-twice", "trades.records"],
  operations: [...TRADE_OPERATIONS, "getMyWallets", "getUserTransactions"],
  spend: { requests: 8, quotes: 1, trades: 1, addresses: 0 },
  unfit: unfitToTrade,
  async run(context) {
    const pair = await sellablePair(context);
    const before = await walletsOf(context);
    const { quote, exchange } = await sellQuote(context, pair);
    const expected = receivedAt(quote.amount, quote.rate, pair.decimals);
    const form = RULE_FORMS.amountReceivedRounding;
    const rounding = `${exchange}: amountReceived ${quote.amountReceived}, ${form}: ${expected}`;
    context.check("quotes.rounding", same(quote.amountReceived, expected), rounding);
    const path = `/trades/quote/${encodeURIComponent(quote.id)}`;
    const trade = expectStatus(await context.call("POST", path, {}), 200, "(accepting a fresh quote)").body.data;
    const again = await context.call("POST", path, {});
    context.check("quotes.accepted-twice", again.status === REFUSAL_STATUS.quoteAccepted, again.exchange);
    const after = await walletsOf(context);
    // Read at 12 significant digits: a difference of decimals carries binary error (1611.7999999999884).
    const moved = (code: string) => Number((after.get(code)!.balance - before.get(code)!.balance).toPrecision(12));
    const walletsMoved = same(moved(pair.source), -quote.amount) && same(moved(pair.target), quote.amountReceived);
    const legs = await checkSwapLegs(context, trade, {
      debit: [before.get(pair.source)!.id, quote.amount],
      credit: [before.get(pair.target)!.id, quote.amountReceived],
    });
    const records =
      `quote ${quote.id}: ${pair.source} moved ${moved(pair.source)} (expected ${-quote.amount}), ${pair.target} ` +
      `moved ${moved(pair.target)} (expected ${quote.amountReceived}); two SWAP legs of ${trade.reference}: ${legs}`;
    context.check("trades.records", walletsMoved && legs, records);
  },
};

const expiryFlow: Flow = {
  name: "expiry: a quote accepted at its expiryDate (after it, on a deployment)",
  choices: ["quotes.expired"],
  operations: TRADE_OPERATIONS,
  // A target that does not refuse the expired quote executes its trade.
  spend: { requests: 4, quotes: 1, trades: 1, addresses: 0 },
  unfit(context) {
    // The sandbox's clock may stand still (clock.start): waiting on the wall clock would prove nothing there.
    if (context.target === "sandbox" && !context.control)
      return "it moves the sandbox's clock through the control API, which it could not use (give --sandbox-token)";
    return unfitToTrade(context);
  },
  async run(context) {
    const pair = await sellablePair(context);
    const { quote } = await sellQuote(context, pair);
    const path = `/trades/quote/${encodeURIComponent(quote.id)}`;
    if (context.control) {
      // The sandbox's clock to the quote's expiryDate exactly: the register says whether that moment is valid.
      const clock = await context.control.clock();
      await context.control.advanceClock(Math.max(0, Date.parse(quote.expiryDate) - clock.now));
      const late = await context.call("POST", path, {});
      const refused = late.status === REFUSAL_STATUS.quoteExpired;
      context.check("quotes.expired", RULE_FORMS.quoteExpiry === "at-expiry" ? refused : !refused, late.exchange);
      return;
    }
    // A deployment's own time: expiresIn seconds from its answer is past the expiryDate, whatever the clocks say.
    await context.sleep(quote.expiresIn * 1000);
    const late = await context.call("POST", path, {});
    context.check("quotes.expired", late.status === REFUSAL_STATUS.quoteExpired, late.exchange);
  },
};

/** The flows that trade, in the order verify runs them. */
export const TRADE_FLOWS: readonly Flow[] = [swapFlow, expiryFlow];
