// The quote flows of verify: what Create Quote takes and refuses, how a side reads the pair, the largest amounts,
// that a quote reserves nothing, the trades summary, rates set through the control API, the ids' forms and the
// catalogue a fresh sandbox starts from. Each checks the register's rules as a user of the API sees them; those that
// need chosen balances use an account of their own (put, then deleted), so the run's account keeps what later
// flows trade.
import { isDeepStrictEqual } from "node:util";
import { openApiDocument } from "../../contract/bundled.js";
import { baseCodeOf, exampleData } from "../../sandbox/catalogue.js";
import { type SandboxControlClient, SandboxControlError } from "../../sandbox/control-client.js";
import { MAX_MINOR_UNITS, QUOTE_ID_FORM, REFUSAL_STATUS, WITHDRAWAL_SETTLEMENT } from "../../sandbox/rules.js";
import { unfitToRead } from "./account-flows.js";
import { expectStatus, type FlowContext, FlowFailure } from "./context.js";
import { unfitWithoutControl, withOwnAccount } from "./sandbox-flows.js";
import { type Flow, type FlowFitness, same, TRADE_OPERATIONS, unfitToTrade } from "./trade-flows.js";

interface Money {
  code: string;
  id: string;
  decimals: number;
}

/** A pair both sellable and buyable, its currencies, and the USDT rates of its fiat currency. */
interface QuotablePair {
  source: Money;
  target: Money;
  /** The code every fiat rate is against (Get Fiat Rates' base). */
  base: string;
  rate: { buyRate: number; sellRate: number };
}

const QUOTE_READ_OPERATIONS = ["getTradePairs", "getCurrencies", "getFiatRates", "createQuote"];

/** The first pair of the catalogue that is both sellable and buyable, read as a user reads it (3 requests). */
async function quotablePair(context: FlowContext): Promise<QuotablePair> {
  const pairs = expectStatus(await context.call("GET", "/trades/pairs"), 200, "(the trade pairs)").body.data as Array<{
    isSellable: boolean;
    isBuyable: boolean;
    source: { code: string };
    target: { code: string };
  }>;
  const pair = pairs.find((candidate) => candidate.isSellable && candidate.isBuyable);
  if (!pair) throw new FlowFailure("GET /trades/pairs lists no pair both sellable and buyable");
  const currencies = expectStatus(await context.call("GET", "/currencies"), 200, "(the currencies)").body
    .data as Array<{ id: string; code: string; maximumDecimalPlaces: number }>;
  const money = (code: string): Money => {
    const found = currencies.find((currency) => currency.code === code);
    if (!found) throw new FlowFailure(`GET /currencies lists no ${code}, a currency of a trade pair`);
    return { code, id: found.id, decimals: found.maximumDecimalPlaces };
  };
  const rates = expectStatus(await context.call("GET", "/currencies/fiat-rates"), 200, "(the fiat rates)").body
    .data as Array<{ currency: string; base: string; buyRate: number; sellRate: number }>;
  const rate = rates.find((r) => r.currency === pair.source.code || r.currency === pair.target.code);
  if (!rate) throw new FlowFailure(`GET /currencies/fiat-rates has no rate of ${pair.source.code}/${pair.target.code}`);
  return { source: money(pair.source.code), target: money(pair.target.code), base: rate.base, rate };
}

/** Create Quote, answered as sent (any status). */
const createQuote = (context: FlowContext, body: Record<string, unknown>, apiKey?: string) =>
  context.call("POST", "/trades/quote", body, apiKey);

/** Accept Quote, answered as sent (any status). */
const acceptQuote = (context: FlowContext, id: string, apiKey?: string) =>
  context.call("POST", `/trades/quote/${encodeURIComponent(id)}`, {}, apiKey);

/** A quote that must be made: its answer's data, or the flow cannot go on. */
async function madeQuote(context: FlowContext, body: Record<string, unknown>, apiKey?: string) {
  const answer = expectStatus(await createQuote(context, body, apiKey), 200, "(a quote)");
  return { quote: answer.body.data as Quote, exchange: answer.exchange };
}

interface Quote {
  id: string;
  rate: number;
  amount: number;
  amountReceived: number;
  sourceDollarRate: number;
  targetDollarRate: number;
  sourceCode: string;
  targetCode: string;
}

/** The available balance by currency code of the run's account (or `apiKey`'s). */
async function balancesOf(context: FlowContext, apiKey?: string): Promise<Map<string, number>> {
  const answer = expectStatus(await context.call("GET", "/wallets/me", undefined, apiKey), 200, "(the wallets)");
  const wallets = answer.body.data as Array<{ availableBalance: number; currency: { code: string } }>;
  return new Map(wallets.map((wallet) => [wallet.currency.code, wallet.availableBalance]));
}

/** How far a balance moved, read at 12 significant digits (a difference of decimals carries binary error). */
const moved = (before: Map<string, number>, after: Map<string, number>, code: string): number =>
  Number(((after.get(code) ?? NaN) - (before.get(code) ?? NaN)).toPrecision(12));

// ---------------------------------------------------------------------------------------------------------------
// quotes.sides

/** What the register says of a quote of `amount` paid in `paid`: its rate and what it receives (before rounding). */
function sideTerms(pair: QuotablePair, side: "SELL" | "BUY", amount: number) {
  const [paid, received] = side === "SELL" ? [pair.source, pair.target] : [pair.target, pair.source];
  // Paying the base (USDT) sells it at the fiat's sellRate; receiving it buys it at the fiat's buyRate.
  const paysBase = paid.code === pair.base;
  const rate = paysBase ? pair.rate.sellRate : pair.rate.buyRate;
  return { paid, received, rate, exact: paysBase ? amount * rate : amount / rate };
}

/** A quote of `side` accepted on the run's account; what differs from the register, pushed onto `problems`. */
async function sideTraded(
  context: FlowContext,
  pair: QuotablePair,
  trade: { side: "SELL" | "BUY"; amount: number; before: Map<string, number> },
  problems: string[],
) {
  const { side, amount, before } = trade;
  const terms = sideTerms(pair, side, amount);
  const body = { sourceId: pair.source.code, targetId: pair.target.code, amount, side };
  const { quote, exchange } = await madeQuote(context, body);
  // Within one minor unit of the received currency: rounding is quotes.rounding's, not this rule's.
  const receivedOk = Math.abs(quote.amountReceived - terms.exact) < 10 ** -terms.received.decimals;
  if (!same(quote.rate, terms.rate) || !receivedOk)
    problems.push(`${exchange}: ${side} expected rate ${terms.rate}, amountReceived about ${terms.exact}`);
  expectStatus(await acceptQuote(context, quote.id), 200, `(accepting a ${side} quote)`);
  const after = await balancesOf(context);
  const [paidMoved, receivedMoved] = [moved(before, after, terms.paid.code), moved(before, after, terms.received.code)];
  if (!same(paidMoved, -amount) || !same(receivedMoved, quote.amountReceived))
    problems.push(
      `${side} ${amount} accepted: ${terms.paid.code} moved ${paidMoved} (expected ${-amount}), ` +
        `${terms.received.code} moved ${receivedMoved} (expected ${quote.amountReceived})`,
    );
  return { quote, after };
}

const sidesFlow: Flow = {
  name: "sides: a SELL and a BUY of the pair accepted, and the pair named the other way",
  choices: ["quotes.sides"],
  operations: [...TRADE_OPERATIONS, "getFiatRates", "getMyWallets"],
  // A SELL of 1 unit, then a BUY paying what it received (the balances end about where they were).
  spend: { requests: 11, quotes: 3, trades: 2, addresses: 0 },
  unfit: unfitToTrade,
  async run(context) {
    const pair = await quotablePair(context);
    const problems: string[] = [];
    const start = await balancesOf(context);
    const sell = await sideTraded(context, pair, { side: "SELL", amount: 1, before: start }, problems);
    const amount = sell.quote.amountReceived;
    await sideTraded(context, pair, { side: "BUY", amount, before: sell.after }, problems);
    const other = { sourceId: pair.target.code, targetId: pair.source.code, amount: 1, side: "SELL" };
    const reversed = await createQuote(context, other);
    if (reversed.status !== REFUSAL_STATUS.quoteNotTradable) problems.push(`the other order: ${reversed.exchange}`);
    context.check("quotes.sides", problems.length === 0, problems.join("; "));
  },
};

// ---------------------------------------------------------------------------------------------------------------
// quotes.invalid-request, quotes.not-tradable

/** Create Quote requests the register refuses as invalid, by what is wrong with them. */
function invalidRequests(pair: QuotablePair): Array<[string, Record<string, unknown>]> {
  const { source, target } = pair;
  const sell = { sourceId: source.code, targetId: target.code, side: "SELL" };
  const requests: Array<[string, Record<string, unknown>]> = [
    ["side missing", { sourceId: source.code, targetId: target.code, amount: 1 }],
    ["amount 0", { ...sell, amount: 0 }],
    [`amount of ${source.decimals + 1} decimals`, { ...sell, amount: 1 + 10 ** -(source.decimals + 1) }],
  ];
  // One minor unit of the source, where it receives less than one minor unit of the target.
  const smallest = 10 ** -source.decimals;
  if (sideTerms(pair, "SELL", smallest).exact < 10 ** -target.decimals)
    requests.push([`amount ${smallest}, too small to receive`, { ...sell, amount: smallest }]);
  return requests;
}

/** Create Quote requests the register refuses as not tradable: unknown currencies, the pair the other way. */
async function untradableRequests(context: FlowContext, pair: QuotablePair) {
  const { source, target } = pair;
  const sell = { sourceId: source.code, targetId: target.code, side: "SELL", amount: 1 };
  // A code with a fiat rate but no currency (GHS on a fresh sandbox), else a code no catalogue has.
  const rates = expectStatus(await context.call("GET", "/currencies/fiat-rates"), 200, "(the fiat rates)").body.data;
  const codes = new Set([source.code, target.code]);
  const rated = (rates as Array<{ currency: string }>).map((rate) => rate.currency).find((code) => !codes.has(code));
  const requests: Array<[string, Record<string, unknown>]> = [
    [`targetId ${rated ?? "XQZ"}, no currency`, { ...sell, targetId: rated ?? "XQZ" }],
    ["targetId an id of no currency", { ...sell, targetId: crypto.randomUUID() }],
    ["the pair the other way", { ...sell, sourceId: target.code, targetId: source.code }],
  ];
  return requests;
}

/** The requests answered otherwise than `status`, each with what was wrong with it. */
async function answeredOtherwise(
  context: FlowContext,
  requests: Array<[string, Record<string, unknown>]>,
  status: number,
): Promise<string[]> {
  const problems: string[] = [];
  for (const [what, body] of requests) {
    const answer = await createQuote(context, body);
    if (answer.status !== status) problems.push(`${what}: ${answer.exchange}`);
  }
  return problems;
}

const refusalsFlow: Flow = {
  name: "quote refusals: requests incomplete or invalid, and currencies that do not trade",
  choices: ["quotes.invalid-request", "quotes.not-tradable"],
  operations: QUOTE_READ_OPERATIONS,
  // Refused quotes count against a deployment's hourly quote limit as made ones do: 8 Create Quote calls, more
  // than the one a run without side effects allows itself there.
  spend: { requests: 12, quotes: 8, trades: 0, addresses: 0 },
  unfit: (context) =>
    context.target === "deployment" && !context.allowSideEffects
      ? "it sends 8 Create Quote requests, which count against the hourly limit (allow side effects to run it)"
      : unfitToRead(context),
  async run(context) {
    const pair = await quotablePair(context);
    const invalid = await answeredOtherwise(context, invalidRequests(pair), REFUSAL_STATUS.invalidQuoteRequest);
    context.check("quotes.invalid-request", invalid.length === 0, invalid.join("; "));
    const requests = await untradableRequests(context, pair);
    const untradable = await answeredOtherwise(context, requests, REFUSAL_STATUS.quoteNotTradable);
    // Codes and ids are both taken: the pair named by its currencies' ids is quoted.
    const byIds = { sourceId: pair.source.id, targetId: pair.target.id, amount: 1, side: "SELL" };
    const named = await createQuote(context, byIds);
    const codes = named.status === 200 && [named.body.data.sourceCode, named.body.data.targetCode].join("/");
    if (codes !== `${pair.source.code}/${pair.target.code}`) untradable.push(`the pair by ids: ${named.exchange}`);
    context.check("quotes.not-tradable", untradable.length === 0, untradable.join("; "));
  },
};

// ---------------------------------------------------------------------------------------------------------------
// money.exact

/** The largest amount of `money` the register takes (MAX_MINOR_UNITS minor units), and the next one beyond it. */
const largest = (money: Money) => MAX_MINOR_UNITS / 10 ** money.decimals;
const beyond = (money: Money) => (MAX_MINOR_UNITS + 1) / 10 ** money.decimals;

/** Create Quote at the edge of 15 digits: the largest amount taken, one beyond refused, amountReceived beyond. */
async function quotesAtTheEdge(context: FlowContext, pair: QuotablePair): Promise<string[]> {
  const { source, target } = pair;
  const sell = { sourceId: source.code, targetId: target.code, side: "SELL" };
  const most = largest(source);
  const requests: Array<[string, Record<string, unknown>, number]> = [
    [`SELL ${beyond(source)} ${source.code}`, { ...sell, amount: beyond(source) }, REFUSAL_STATUS.invalidQuoteRequest],
  ];
  // The most of the source is quoted where what it receives fits the target's 15 digits.
  if (sideTerms(pair, "SELL", most).exact <= largest(target))
    requests.push([`SELL ${most} ${source.code}`, { ...sell, amount: most }, 200]);
  // Paying the most of the target receives beyond the source's 15 digits: refused for its amountReceived.
  if (sideTerms(pair, "BUY", largest(target)).exact > largest(source)) {
    const buy = { ...sell, side: "BUY", amount: largest(target) };
    requests.push([`BUY paying ${largest(target)} ${target.code}`, buy, REFUSAL_STATUS.invalidQuoteRequest]);
  }
  const problems: string[] = [];
  for (const [what, body, status] of requests) {
    const answer = await createQuote(context, body);
    if (answer.status !== status) problems.push(`${what}: ${answer.exchange} (expected ${status})`);
  }
  return problems;
}

/** Balances at the edge: one beyond refused by the control API; accepting into a wallet at the most refused. */
async function balancesAtTheEdge(context: FlowContext, pair: QuotablePair): Promise<string[]> {
  const { source, target } = pair;
  const problems: string[] = [];
  const refusedKey = `api-contract-verify-quotes-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await context.control!.putAccount(refusedKey, { balances: { [target.code]: beyond(target) } });
    await context.control!.deleteAccount(refusedKey);
    problems.push(`PUT /_sandbox/accounts/${refusedKey} with ${beyond(target)} ${target.code}: taken`);
  } catch (error) {
    if (!(error instanceof SandboxControlError)) throw error;
  }
  await withOwnAccount("quotes", context, { [source.code]: 1, [target.code]: largest(target) }, async (apiKey) => {
    const body = { sourceId: source.code, targetId: target.code, amount: 1, side: "SELL" };
    const { quote } = await madeQuote(context, body, apiKey);
    const accepted = await acceptQuote(context, quote.id, apiKey);
    const after = await balancesOf(context, apiKey);
    const kept = same(after.get(target.code) ?? NaN, largest(target)) && same(after.get(source.code) ?? NaN, 1);
    if (accepted.status !== REFUSAL_STATUS.balanceTooHigh || !kept)
      problems.push(`${target.code} at ${largest(target)}, accepting: ${accepted.exchange}; balances kept: ${kept}`);
  });
  return problems;
}

const moneyFlow: Flow = {
  name: "money.exact: the largest amounts quoted, beyond them refused, a balance at the most",
  choices: ["money.exact"],
  operations: [...QUOTE_READ_OPERATIONS, "acceptQuote", "getMyWallets"],
  spend: { requests: 9, quotes: 4, trades: 1, addresses: 0 },
  unfit: (context) => unfitWithoutControl(context, "an account with a balance at the most it keeps"),
  async run(context) {
    const pair = await quotablePair(context);
    const problems = [...(await quotesAtTheEdge(context, pair)), ...(await balancesAtTheEdge(context, pair))];
    context.check("money.exact", problems.length === 0, problems.join("; "));
  },
};

// ---------------------------------------------------------------------------------------------------------------
// quotes.no-reservation

const reservationFlow: Flow = {
  name: "no reservation: two quotes of a whole balance, both made, the second accepted first",
  choices: ["quotes.no-reservation"],
  operations: [...QUOTE_READ_OPERATIONS, "acceptQuote", "getMyWallets"],
  spend: { requests: 8, quotes: 2, trades: 2, addresses: 0 },
  unfit: (context) => unfitWithoutControl(context, "an account with a balance of its choosing"),
  async run(context) {
    const { source, target } = await quotablePair(context);
    const whole = 2;
    await withOwnAccount("quotes", context, { [source.code]: whole }, async (apiKey) => {
      const body = { sourceId: source.code, targetId: target.code, amount: whole, side: "SELL" };
      const first = await madeQuote(context, body, apiKey);
      const second = await createQuote(context, body, apiKey);
      const held = (await balancesOf(context, apiKey)).get(source.code);
      if (second.status !== 200) return context.contradict("quotes.no-reservation", second.exchange);
      const accepted = await acceptQuote(context, second.body.data.id, apiKey);
      const late = await acceptQuote(context, first.quote.id, apiKey);
      const holds = held === whole && accepted.status === 200 && late.status === REFUSAL_STATUS.balanceTooLow;
      const evidence =
        `after two quotes of ${whole} ${source.code}, available ${held}; second accepted: ` +
        `${accepted.exchange}; first accepted: ${late.exchange}`;
      context.check("quotes.no-reservation", holds, evidence);
    });
  },
};

// ---------------------------------------------------------------------------------------------------------------
// trades.summary

interface TradeItem {
  dollarValue: number;
  pair: { source: { id: string }; target: { id: string } };
}

/** Dollars to cents, summed exactly. */
const cents = (values: number[]): number => values.reduce((sum, value) => sum + Math.round(value * 100), 0);

/** What the summary answers at `query`, against `expected` dollars (a problem, or undefined). */
async function summaryProblem(context: FlowContext, query: string, expected: number, apiKey: string) {
  const answer = await context.call("GET", `/trades/summary/me${query}`, undefined, apiKey);
  const total = answer.status === 200 ? answer.body.data.totalDollarVolume : NaN;
  return Math.round(total * 100) === expected ? undefined : `${answer.exchange} (expected ${expected / 100})`;
}

/** A SELL of 1 and a BUY paying `paid` accepted on `apiKey`'s account. */
async function twoTrades(context: FlowContext, pair: QuotablePair, paid: number, apiKey: string) {
  for (const [side, amount] of [
    ["SELL", 1],
    ["BUY", paid],
  ] as const) {
    const body = { sourceId: pair.source.code, targetId: pair.target.code, amount, side };
    const { quote } = await madeQuote(context, body, apiKey);
    expectStatus(await acceptQuote(context, quote.id, apiKey), 200, `(accepting a ${side} quote)`);
  }
}

const summaryFlow: Flow = {
  name: "trades summary: two trades summed, by currency, and paged",
  choices: ["trades.summary"],
  operations: [...QUOTE_READ_OPERATIONS, "acceptQuote", "getTradeHistory", "getTradesSummary"],
  spend: { requests: 13, quotes: 2, trades: 2, addresses: 0 },
  unfit: (context) => unfitWithoutControl(context, "an account whose only trades are its own"),
  async run(context) {
    const pair = await quotablePair(context);
    const paid = 1000;
    await withOwnAccount("quotes", context, { [pair.source.code]: 10, [pair.target.code]: paid }, async (apiKey) => {
      await twoTrades(context, pair, paid, apiKey);
      const history = expectStatus(
        await context.call("GET", "/trades/me?page=1&pageSize=100", undefined, apiKey),
        200,
        "(the trade history)",
      ).body.data as TradeItem[];
      const of = (id: string) => history.filter((t) => t.pair.source.id === id || t.pair.target.id === id);
      const total = cents(history.map((trade) => trade.dollarValue));
      const none = crypto.randomUUID();
      const expectations: Array<[string, number]> = [
        ["", total],
        [`?currencyId=${pair.source.id}`, cents(of(pair.source.id).map((t) => t.dollarValue))],
        [`?currencyId=${pair.target.id}`, cents(of(pair.target.id).map((t) => t.dollarValue))],
        [`?currencyId=${none}`, 0],
        ["?page=2&pageSize=1", total],
      ];
      const problems: string[] = history.length === 2 ? [] : [`${history.length} trades in the history, not 2`];
      for (const [query, expected] of expectations) {
        const problem = await summaryProblem(context, query, expected, apiKey);
        if (problem) problems.push(problem);
      }
      context.check("trades.summary", problems.length === 0, problems.join("; "));
    });
  },
};

// ---------------------------------------------------------------------------------------------------------------
// rates.update

/** Get Fiat Rates' rate of `code`, as answered now. */
async function fiatRateOf(context: FlowContext, code: string) {
  const answer = expectStatus(await context.call("GET", "/currencies/fiat-rates"), 200, "(the fiat rates)");
  const rates = answer.body.data as Array<{ currency: string; buyRate: number; sellRate: number }>;
  return { rate: rates.find((rate) => rate.currency === code), rates, exchange: answer.exchange };
}

/** Sets a new fiat rate of the pair's fiat currency: answered at once, by Get Fiat Rates and by a quote. */
async function fiatRateSet(context: FlowContext, pair: QuotablePair, fiat: string): Promise<string[]> {
  const before = await fiatRateOf(context, fiat);
  const set = { currency: fiat, buyRate: pair.rate.buyRate + 100, sellRate: pair.rate.sellRate + 100 };
  await context.control!.setRates({ fiat: [set] } as Parameters<SandboxControlClient["setRates"]>[0]);
  const after = await fiatRateOf(context, fiat);
  const problems: string[] = [];
  const others = (rates: typeof before.rates) => rates.filter((rate) => rate.currency !== fiat);
  const shown = after.rate?.buyRate === set.buyRate && after.rate.sellRate === set.sellRate;
  if (!shown || !isDeepStrictEqual(others(after.rates), others(before.rates)))
    problems.push(`${after.exchange}: after setting ${fiat} ${set.buyRate}/${set.sellRate}, the others kept`);
  const body = { sourceId: pair.source.code, targetId: pair.target.code, amount: 1, side: "SELL" };
  const { quote, exchange } = await madeQuote(context, body);
  const expected = pair.source.code === pair.base ? set.sellRate : set.buyRate;
  if (quote.rate !== expected) problems.push(`${exchange}: rate ${quote.rate} (set ${expected})`);
  return problems;
}

/** Sets a new dollar rate of the pair's target: a quote shows it, the source's kept. */
async function dollarRateSet(context: FlowContext, pair: QuotablePair, dollar: Record<string, number>) {
  const rate = dollar[pair.target.code];
  if (rate === undefined) return [];
  await context.control!.setRates({ dollar: { [pair.target.code]: rate * 2 } });
  const body = { sourceId: pair.source.code, targetId: pair.target.code, amount: 1, side: "SELL" };
  const { quote, exchange } = await madeQuote(context, body);
  const kept = dollar[pair.source.code] === undefined || quote.sourceDollarRate === dollar[pair.source.code];
  if (quote.targetDollarRate === rate * 2 && kept) return [];
  return [`${exchange}: after setting ${pair.target.code}'s dollar rate ${rate * 2}, ${pair.source.code}'s kept`];
}

const ratesFlow: Flow = {
  name: "rates: a fiat and a dollar rate set, answered at once, then put back",
  choices: ["rates.update"],
  operations: QUOTE_READ_OPERATIONS,
  spend: { requests: 7, quotes: 2, trades: 0, addresses: 0 },
  unfit: (context) => unfitWithoutControl(context, "to set the sandbox's rates"),
  async run(context) {
    const pair = await quotablePair(context);
    const fiat = pair.source.code === pair.base ? pair.target.code : pair.source.code;
    const original = await context.control!.rates();
    try {
      const problems = [
        ...(await fiatRateSet(context, pair, fiat)),
        ...(await dollarRateSet(context, pair, original.dollar)),
      ];
      context.check("rates.update", problems.length === 0, problems.join("; "));
    } finally {
      await context.control!.setRates({ fiat: original.fiat, dollar: original.dollar });
    }
  },
};

// ---------------------------------------------------------------------------------------------------------------
// ids

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const QUOTE_ID = new RegExp(
  `^${QUOTE_ID_FORM.prefix}[A-Za-z0-9]{${QUOTE_ID_FORM.randomLength + QUOTE_ID_FORM.counterLength}}$`,
);

/** The ids of a trade's records on `apiKey`'s account that are not UUIDs: the trade's, its wallets', its legs'. */
async function notUuids(context: FlowContext, trade: { id: string }, apiKey: string): Promise<string[]> {
  const wallets = expectStatus(await context.call("GET", "/wallets/me", undefined, apiKey), 200, "(the wallets)");
  const history = expectStatus(await context.call("GET", "/transactions/me", undefined, apiKey), 200, "(history)");
  const ids = [
    trade.id,
    ...(wallets.body.data as Array<{ id: string }>).map((wallet) => wallet.id),
    ...(history.body.data as Array<{ id: string }>).map((item) => item.id),
  ];
  return ids.filter((id) => !UUID.test(String(id)));
}

const idsFlow: Flow = {
  name: "ids: a quote's and a trade's ids, and the same quote id again after a restore",
  choices: ["ids"],
  operations: [...QUOTE_READ_OPERATIONS, "acceptQuote", "getMyWallets", "getUserTransactions"],
  spend: { requests: 8, quotes: 2, trades: 1, addresses: 0 },
  unfit: (context) => unfitWithoutControl(context, "to save and restore the sandbox's state"),
  async run(context) {
    const { source, target } = await quotablePair(context);
    await withOwnAccount("quotes", context, {}, async (apiKey) => {
      // Every withdrawal pending (the cases' among them) settled first: one that came due between the save and the
      // second quote would draw ids from the generator in between, on a timer of the sandbox's.
      await context.control!.advanceClock(WITHDRAWAL_SETTLEMENT.settleAfterMs);
      // With the secrets: the restore must give every account back as it was, signing and webhooks included.
      const saved = await context.control!.state({ secrets: true });
      const body = { sourceId: source.code, targetId: target.code, amount: 1, side: "SELL" };
      const first = await madeQuote(context, body, apiKey);
      const accepted = expectStatus(await acceptQuote(context, first.quote.id, apiKey), 200, "(accepting a quote)");
      const stray = await notUuids(context, accepted.body.data, apiKey);
      // The state saved before the quote, restored: its generator gives the quote the same id again.
      await context.control!.restore(saved);
      const again = await madeQuote(context, body, apiKey);
      const problems = [
        ...(QUOTE_ID.test(first.quote.id) ? [] : [`${first.exchange}: not ${QUOTE_ID}`]),
        ...(stray.length ? [`ids not UUIDs: ${stray.join(", ")}`] : []),
        ...(again.quote.id === first.quote.id
          ? []
          : [`after the restore, ${again.exchange} (first ${first.quote.id})`]),
      ];
      context.check("ids", problems.length === 0, problems.join("; "));
    });
  },
};

// ---------------------------------------------------------------------------------------------------------------
// catalogue

/** Why the catalogue flow cannot run: the contract's examples are the package's sandbox's default catalogue only. */
function unfitForCatalogue(context: FlowFitness): string | undefined {
  if (context.target === "deployment")
    return "the contract's examples are the sandbox's catalogue; a deployment's currencies and rates are its own";
  return unfitToRead(context);
}

/** GET `path` answers `documented` as its data (a problem, or undefined). */
async function documentedAt(context: FlowContext, path: string, operationId: string): Promise<string | undefined> {
  const answer = expectStatus(await context.call("GET", path), 200, `(${operationId})`);
  const documented = exampleData(openApiDocument, operationId);
  return isDeepStrictEqual(answer.body.data, documented)
    ? undefined
    : `${answer.exchange}: not the documented example of ${operationId}`;
}

/** The dollar rates a quote of the pair shows, and a quote of a fiat-rated code without a currency (GHS). */
async function quotedRates(context: FlowContext, pair: { source: string; target: string }) {
  const quote = exampleData(openApiDocument, "createQuote") as Quote;
  const dollar: Record<string, number> = { [quote.sourceCode]: quote.sourceDollarRate };
  dollar[quote.targetCode] = quote.targetDollarRate;
  const body = { sourceId: pair.source, targetId: pair.target, amount: 1, side: "SELL" };
  const { quote: made, exchange } = await madeQuote(context, body);
  const problems: string[] = [];
  const shown = (code: string, rate: number) => dollar[code] === undefined || dollar[code] === rate;
  if (!shown(made.sourceCode, made.sourceDollarRate) || !shown(made.targetCode, made.targetDollarRate))
    problems.push(`${exchange}: not Create Quote's example dollar rates ${JSON.stringify(dollar)}`);
  const currencies = (exampleData(openApiDocument, "getCurrencies") as Array<{ code: string }>).map((c) => c.code);
  const rated = (exampleData(openApiDocument, "getFiatRates") as Array<{ currency: string }>).map((r) => r.currency);
  for (const code of rated.filter((candidate) => !currencies.includes(candidate))) {
    const answer = await createQuote(context, { ...body, targetId: code });
    if (answer.status !== REFUSAL_STATUS.quoteNotTradable) problems.push(`${code} quoted: ${answer.exchange}`);
  }
  return problems;
}

const catalogueFlow: Flow = {
  name: "catalogue: the currencies, pairs, rates and networks are the contract's examples",
  choices: ["catalogue"],
  operations: [
    "getCurrencies",
    "getTradePair",
    "getFiatRates",
    "getActiveNetworks",
    "getWithdrawalCurrencyNetworks",
    "createQuote",
  ],
  // One quote of the documented pair and one of each fiat-rated code without a currency (GHS).
  spend: { requests: 7, quotes: 2, trades: 0, addresses: 0 },
  unfit: unfitForCatalogue,
  async run(context) {
    const pair = exampleData(openApiDocument, "getTradePair") as { source: { code: string }; target: { code: string } };
    const [source, target] = [pair.source.code, pair.target.code];
    const base = (exampleData(openApiDocument, "getCurrencies") as Money[]).find(
      (c) => c.code === baseCodeOf(openApiDocument),
    );
    const fiatRates = exampleData(openApiDocument, "getFiatRates");
    const rates = expectStatus(await context.call("GET", "/currencies/fiat-rates"), 200, "(the fiat rates)");
    const problems = [
      await documentedAt(context, "/currencies", "getCurrencies"),
      await documentedAt(context, `/trades/pairs/${source}/${target}`, "getTradePair"),
      await documentedAt(context, "/currencies/networks/active", "getActiveNetworks"),
      base && (await documentedAt(context, `/currencies/${base.id}/networks`, "getWithdrawalCurrencyNetworks")),
      isDeepStrictEqual(rates.body.data, fiatRates)
        ? undefined
        : `${rates.exchange}: not the documented example of getFiatRates`,
      ...(await quotedRates(context, { source, target })),
    ].filter((problem): problem is string => typeof problem === "string");
    context.check("catalogue", problems.length === 0, problems.join("; "));
  },
};

/** The quote flows, in the order verify runs them (the catalogue first: the rates flow sets rates, then puts back). */
export const QUOTE_RULE_FLOWS: readonly Flow[] = [
  catalogueFlow,
  refusalsFlow,
  sidesFlow,
  moneyFlow,
  reservationFlow,
  summaryFlow,
  ratesFlow,
  idsFlow,
];
