// Create Quote: the rate and amountReceived from the sandbox's rates, the pair and the side, read as the register
// says (choices.ts, "quotes.sides"), the quote stored in the caller's account and valid for the documented
// example's expiresIn seconds (30, as the service's pages publish) on the sandbox clock. What makes a quote
// impossible is refused with the status the register keeps, and a message that says which.
import type { FiatRateSetting } from "../../../generated/sandbox-control.js";
import type { components } from "../../../generated/schema.js";
import { MAX_MINOR_UNITS, type QuoteSideReading, REFUSAL_STATUS, RULE_FORMS } from "../rules.js";
import {
  type Currency,
  decimalsOf,
  dollarRateOf,
  excessOf,
  findCurrency,
  largestAmountOf,
  pairJoining,
} from "../catalogue.js";
import { type AccountCall, answered, type Engine, nowOf, withAccount, type OperationModule } from "../engine.js";
import { refuse } from "../refusal.js";
import { quoteId } from "../ids.js";
import { wholeOfExactAt15Digits } from "../exact-decimal.js";
import { fromMinor, type QuotePayer, type QuoteRecord } from "../state.js";
import { quoteView } from "../views.js";

type Side = components["schemas"]["Side"];
type QuoteRequest = components["schemas"]["CreateQuoteRequest"];

const REQUIRED = ["sourceId", "targetId", "amount", "side"] as const;

/** What a quote is made of once the request is read: its currencies, side, amount, fiat rate and which is paid. */
interface QuoteTerms {
  source: Currency;
  target: Currency;
  side: Side;
  amount: number;
  fiatRate: FiatRateSetting;
  pays: QuotePayer;
}

const notTradable = (why: string) => refuse(REFUSAL_STATUS.quoteNotTradable, why);
const invalid = (why: string) => refuse(REFUSAL_STATUS.invalidQuoteRequest, why);

/** Which of the quote's currencies the caller pays under `reading` (choices.ts, "quotes.sides"). */
const payerOf = (reading: QuoteSideReading, side: Side): QuotePayer =>
  reading === "pair" && side === "BUY" ? "target" : "source";

/** The catalogue pair a quote trades on, or why there is none, under the engine's reading of a side. */
function pairFor(engine: Engine, side: Side, source: Currency, target: Currency) {
  const base = engine.baseCode;
  if (source.code === target.code)
    return notTradable(`a quote trades two currencies, not ${source.code} against itself`);
  if (engine.quotes.sideReading === "pair") {
    const pair = engine.state.catalogue.pairs.find(
      (candidate) => candidate.source.code === source.code && candidate.target.code === target.code,
    );
    if (pair) return pair;
    const reversed = pairJoining(engine.state.catalogue, source.code, target.code);
    return notTradable(
      `no trade pair ${source.code}/${target.code}: sourceId and targetId name a pair in its order` +
        (reversed ? ` (${reversed.source.code}/${reversed.target.code}), side says which way` : ""),
    );
  }
  if (side === "SELL" && source.code !== base) return notTradable(`side SELL sells ${base}: sourceId must be ${base}`);
  if (side === "BUY" && target.code !== base) return notTradable(`side BUY buys ${base}: targetId must be ${base}`);
  return (
    pairJoining(engine.state.catalogue, source.code, target.code) ??
    notTradable(`no trade pair of the sandbox joins ${source.code} and ${target.code}`)
  );
}

/** The fiat rate of the quote's fiat currency, or why there is none, once its pair is known. */
function fiatRateFor(engine: Engine, side: Side, source: Currency, target: Currency) {
  const pair = pairFor(engine, side, source, target);
  const base = engine.baseCode;
  if (source.code !== base && target.code !== base)
    return notTradable(`a quote trades ${base} against another currency: neither is ${base}`);
  if (side === "SELL" ? !pair.isSellable : !pair.isBuyable)
    return notTradable(
      `the pair ${pair.source.code}/${pair.target.code} is not ${side === "SELL" ? "sellable" : "buyable"}`,
    );
  const fiat = source.code === base ? target : source;
  const rate = engine.state.rates.fiat.find((candidate) => candidate.currency === fiat.code);
  return rate ?? notTradable(`the sandbox has no fiat rate for ${fiat.code}`);
}

/**
 * The refusal of a currency id the catalogue lacks; said plainly for a code that has a fiat rate all the same (GHS
 * by default: Get Fiat Rates' example rates it, Get Currencies' lists no GHS currency).
 */
function unknownCurrency(engine: Engine, field: string, id: string) {
  const why = `${field} ${id} is no currency code or id of the sandbox's catalogue`;
  if (!engine.state.rates.fiat.some((rate) => rate.currency === id)) return notTradable(why);
  return notTradable(
    `${why}: ${id} has a fiat rate, but no currency of the catalogue to trade (Get Currencies' documented ` +
      `example lists none); give the catalogue a ${id} currency and a pair to quote it`,
  );
}

/** The terms of a quote request, or its refusal. */
function termsOf(engine: Engine, body: QuoteRequest) {
  const missing = REQUIRED.filter((field) => body[field] === undefined);
  if (missing.length) return invalid(`Create Quote needs ${REQUIRED.join(", ")}; missing: ${missing.join(", ")}`);
  const { sourceId, targetId, amount, side } = body as Required<QuoteRequest>;
  if (!(amount > 0)) return invalid("amount must be above 0");
  const source = findCurrency(engine.state.catalogue, sourceId);
  if (!source) return unknownCurrency(engine, "sourceId", sourceId);
  const target = findCurrency(engine.state.catalogue, targetId);
  if (!target) return unknownCurrency(engine, "targetId", targetId);
  const pays = payerOf(engine.quotes.sideReading, side);
  const excess = excessOf(amount, pays === "source" ? source : target);
  if (excess) return invalid(`amount has ${excess}`);
  const fiatRate = fiatRateFor(engine, side, source, target);
  return { source, target, side, amount, fiatRate, pays } satisfies QuoteTerms;
}

/**
 * What `amount` receives at `rate` (× when it sells the base code, else ÷) in minor units of `currency`, computed
 * exactly and rounded as the register says (choices.ts, "quotes.rounding").
 */
const receivedMinor = (amount: number, rate: number, sellsBase: boolean, currency: Currency): number => {
  const scale = 10 ** decimalsOf(currency);
  const [factors, divisors] = sellsBase ? [[amount, rate, scale], []] : [[amount, scale], [rate]];
  return wholeOfExactAt15Digits(factors, divisors, RULE_FORMS.amountReceivedRounding);
};

const createQuote = withAccount((call: AccountCall) => {
  const { engine, account } = call;
  const terms = termsOf(engine, (call.request.body ?? {}) as QuoteRequest);
  const { source, target, side, amount, fiatRate, pays } = terms;
  const [paid, received] = pays === "source" ? [source, target] : [target, source];
  // Paying USDT sells it at the fiat's sellRate; receiving USDT buys it at its buyRate (the description's rates).
  const sellsBase = paid.code === engine.baseCode;
  const rate = sellsBase ? fiatRate.sellRate : fiatRate.buyRate;
  const minor = receivedMinor(amount, rate, sellsBase, received);
  if (minor <= 0) return invalid(`amount ${amount} ${paid.code} is too small to receive any ${received.code}`);
  if (minor > MAX_MINOR_UNITS)
    return invalid(
      `amount ${amount} ${paid.code} would receive more than ${largestAmountOf(received)} ${received.code}, ` +
        "the most the sandbox keeps exact",
    );
  const [sourceDollarRate, targetDollarRate] = [
    dollarRateOf(engine.state.rates, source),
    dollarRateOf(engine.state.rates, target),
  ];
  if (sourceDollarRate === undefined || targetDollarRate === undefined)
    return notTradable(
      `the sandbox has no dollar rate for ${sourceDollarRate === undefined ? source.code : target.code}`,
    );
  const now = nowOf(engine, account);
  const expiresIn = Number(engine.templates.quote.expiresIn);
  const expiresAt = now + expiresIn * 1000;
  const quote: QuoteRecord = {
    id: quoteId(engine.state.ids),
    sourceId: source.id,
    targetId: target.id,
    rate,
    side,
    amount,
    amountReceived: fromMinor(minor, received),
    sourceDollarRate,
    targetDollarRate,
    sourceCode: source.code,
    targetCode: target.code,
    expiresIn,
    createdAt: now,
    expiresAt,
    ...(pays === "target" ? { pays } : {}),
  };
  account.quotes.push(quote);
  return answered(call, quoteView(engine, quote));
});

/** What this module answers, the refusals it answers with, the register entries it applies (operations/index.ts). */
export const createQuoteOperation: OperationModule = {
  handlers: { createQuote },
  refusals: ["invalidQuoteRequest", "quoteNotTradable", "keylessAccountRead"],
  choices: [
    "quotes.sides",
    "quotes.not-tradable",
    "quotes.invalid-request",
    "quotes.rounding",
    "quotes.no-reservation",
    "money.exact",
    "accounts.keyless",
  ],
};
