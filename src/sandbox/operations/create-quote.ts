// Create Quote: the rate and amountReceived from the sandbox's rates and the side (choices.ts, "quotes.sides"),
// the quote stored in the caller's account and valid for the documented example's expiresIn seconds (30, as the
// service's pages publish) on the sandbox clock. What makes a quote impossible is refused with the status the
// register keeps, and a message that says which.
import type { FiatRateSetting } from "../../../generated/sandbox-control.js";
import type { components } from "../../../generated/schema.js";
import { MAX_MINOR_UNITS, REFUSAL_STATUS } from "../choices.js";
import {
  type Currency,
  decimalsOf,
  dollarRateOf,
  excessOf,
  findCurrency,
  largestAmountOf,
  pairJoining,
} from "../catalogue.js";
import { type AccountCall, answered, type Engine, refused, withAccount } from "../engine.js";
import { quoteId } from "../ids.js";
import { floorAt15Digits, fromMinor, type QuoteRecord } from "../state.js";
import { quoteView } from "../views.js";

type Side = components["schemas"]["Side"];
type QuoteRequest = components["schemas"]["CreateQuoteRequest"];

const REQUIRED = ["sourceId", "targetId", "amount", "side"] as const;

/** What a quote is made of once the request is read: its currencies, side, amount and fiat rate. */
interface QuoteTerms {
  source: Currency;
  target: Currency;
  side: Side;
  amount: number;
  fiatRate: FiatRateSetting;
}

const notTradable = (why: string) => refused(REFUSAL_STATUS.quoteNotTradable, why);
const invalid = (why: string) => refused(REFUSAL_STATUS.invalidQuoteRequest, why);

/** The fiat rate of `fiat`, or why there is none, once the side matches the currencies. */
function fiatRateFor(engine: Engine, side: Side, source: Currency, target: Currency) {
  const base = engine.baseCode;
  if (side === "SELL" && source.code !== base) return notTradable(`side SELL sells ${base}: sourceId must be ${base}`);
  if (side === "BUY" && target.code !== base) return notTradable(`side BUY buys ${base}: targetId must be ${base}`);
  const fiat = side === "SELL" ? target : source;
  if (fiat.code === base) return notTradable(`a quote trades ${base} against another currency, not against itself`);
  const pair = pairJoining(engine.state.catalogue, base, fiat.code);
  if (!pair) return notTradable(`no trade pair of the sandbox joins ${base} and ${fiat.code}`);
  if (side === "SELL" ? !pair.isSellable : !pair.isBuyable)
    return notTradable(`the pair ${base}/${fiat.code} is not ${side === "SELL" ? "sellable" : "buyable"}`);
  const rate = engine.state.rates.fiat.find((candidate) => candidate.currency === fiat.code);
  return rate ?? notTradable(`the sandbox has no fiat rate for ${fiat.code}`);
}

/** The terms of a quote request, or its refusal. */
function termsOf(engine: Engine, body: QuoteRequest) {
  const missing = REQUIRED.filter((field) => body[field] === undefined);
  if (missing.length) return invalid(`Create Quote needs ${REQUIRED.join(", ")}; missing: ${missing.join(", ")}`);
  const { sourceId, targetId, amount, side } = body as Required<QuoteRequest>;
  if (!(amount > 0)) return invalid("amount must be above 0");
  const source = findCurrency(engine.state.catalogue, sourceId);
  if (!source) return notTradable(`sourceId ${sourceId} is no currency code or id of the sandbox's catalogue`);
  const target = findCurrency(engine.state.catalogue, targetId);
  if (!target) return notTradable(`targetId ${targetId} is no currency code or id of the sandbox's catalogue`);
  const excess = excessOf(amount, source);
  if (excess) return invalid(`amount has ${excess}`);
  const fiatRate = fiatRateFor(engine, side, source, target);
  if ("kind" in fiatRate) return fiatRate;
  return { source, target, side, amount, fiatRate } satisfies QuoteTerms;
}

/** `received` in minor units of `currency`, rounded down (choices.ts, "quotes.rounding"). */
const receivedMinor = (received: number, currency: Currency): number =>
  floorAt15Digits(received * 10 ** decimalsOf(currency));

export const createQuote = withAccount((call: AccountCall) => {
  const { engine, account } = call;
  const terms = termsOf(engine, (call.request.body ?? {}) as QuoteRequest);
  if ("kind" in terms) return terms;
  const { source, target, side, amount, fiatRate } = terms;
  const rate = side === "SELL" ? fiatRate.sellRate : fiatRate.buyRate;
  const minor = receivedMinor(side === "SELL" ? amount * rate : amount / rate, target);
  if (minor <= 0) return invalid(`amount ${amount} ${source.code} is too small to receive any ${target.code}`);
  if (minor > MAX_MINOR_UNITS)
    return invalid(
      `amount ${amount} ${source.code} would receive more than ${largestAmountOf(target)} ${target.code}, ` +
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
  const now = engine.clock.now();
  const expiresIn = Number(engine.templates.quote.expiresIn);
  const expiresAt = now + expiresIn * 1000;
  const quote: QuoteRecord = {
    id: quoteId(engine.state.ids),
    sourceId: source.id,
    targetId: target.id,
    rate,
    side,
    amount,
    amountReceived: fromMinor(minor, target),
    sourceDollarRate,
    targetDollarRate,
    sourceCode: source.code,
    targetCode: target.code,
    expiresIn,
    createdAt: now,
    expiresAt,
  };
  account.quotes.push(quote);
  return answered(call, quoteView(engine, quote));
});
