// Accept Quote: once, before expiry, when the paid wallet covers the amount. It debits the paid wallet (the source,
// or the target of a BUY read as the clients send it: choices.ts, "quotes.sides") by the amount and credits the
// other by amountReceived (no extra charge, as the service's pages publish),
// records the trade and its two SWAP transactions, and answers the trade. Every refusal leaves the state as it
// was; its status is the register's (choices.ts) and its message says which refusal it is.
import { DOLLAR_VALUE_DECIMALS, REFUSAL_STATUS, RULE_FORMS } from "../rules.js";
import { pairJoining } from "../catalogue.js";
import { iso } from "../clock.js";
import { type AccountCall, answered, type Engine, nowOf, withAccount, type OperationModule } from "../engine.js";
import { refuse } from "../refusal.js";
import { tradeReference, uuid } from "../ids.js";
import {
  type AccountRecord,
  creditProblem,
  findQuote,
  markChanged,
  postTransaction,
  type QuoteRecord,
  roundAt15Digits,
  type TradeRecord,
  type TransactionRecord,
  toMinor,
  type WalletRecord,
} from "../state.js";
import { balanceOf, currencyOf, tradeView } from "../views.js";

/** Whether `record` has expired at `now` (choices.ts, "quotes.expired": at its expiryDate or only after it). */
const isExpired = (record: QuoteRecord, now: number): boolean =>
  RULE_FORMS.quoteExpiry === "at-expiry" ? now >= record.expiresAt : now > record.expiresAt;

/** Why `record` cannot be accepted now (already accepted, expired), or undefined. */
function staleness(record: QuoteRecord, now: number) {
  const { id } = record;
  if (record.tradeId !== undefined)
    return refuse(REFUSAL_STATUS.quoteAccepted, `quote ${id} was already accepted (trade ${record.tradeId})`);
  if (isExpired(record, now))
    return refuse(REFUSAL_STATUS.quoteExpired, `quote ${id} expired at ${iso(record.expiresAt)}: request a new quote`);
  return undefined;
}

/** The codes of the currency a quote's acceptance debits (paid) and credits (received). */
function legsOf(quote: QuoteRecord): { paid: string; received: string } {
  return quote.pays === "target"
    ? { paid: quote.targetCode, received: quote.sourceCode }
    : { paid: quote.sourceCode, received: quote.targetCode };
}

/** The two SWAP transactions of a trade: the debit of the paid wallet, the credit of the received one. */
function swapTransactions(engine: Engine, quote: QuoteRecord, reference: string, now: number) {
  const { paid, received } = legsOf(quote);
  const common = {
    createdAt: now,
    reference,
    description: `Swap ${quote.amount} ${paid} to ${received}`,
    narration: `Quote ${quote.id}`,
    category: "SWAP" as const,
  };
  const ids = engine.state.ids;
  const debit: TransactionRecord = {
    ...common,
    id: uuid(ids),
    type: "DEBIT",
    walletCode: paid,
    amountMinor: toMinor(quote.amount, currencyOf(engine, paid)),
  };
  const credit: TransactionRecord = {
    ...common,
    id: uuid(ids),
    type: "CREDIT",
    walletCode: received,
    amountMinor: toMinor(quote.amountReceived, currencyOf(engine, received)),
  };
  return [debit, credit] as const;
}

const walletOf = (account: AccountRecord, code: string): WalletRecord | undefined =>
  account.wallets.find((wallet) => wallet.code === code);

/** The trade of an accepted quote, as stored. */
function tradeOf(engine: Engine, quote: QuoteRecord, now: number): TradeRecord {
  const pair = pairJoining(engine.state.catalogue, quote.sourceCode, quote.targetCode)!;
  const scale = 10 ** DOLLAR_VALUE_DECIMALS;
  // amount is in the currency paid: its dollar value at that currency's dollar rate.
  const paidDollarRate = quote.pays === "target" ? quote.targetDollarRate : quote.sourceDollarRate;
  const dollarCents = roundAt15Digits(quote.amount * paidDollarRate * scale);
  const { ids } = engine.state;
  return {
    id: uuid(ids),
    reference: tradeReference(ids, now),
    createdAt: now,
    quoteId: quote.id,
    pairId: pair.id,
    dollarCents,
  };
}

/** Why the account cannot pay for the quote (a wallet or pair gone from the catalogue, a balance too low). */
function fundingProblem(engine: Engine, account: AccountRecord, quote: QuoteRecord) {
  const { paid, received } = legsOf(quote);
  const [from, to] = [walletOf(account, paid), walletOf(account, received)];
  if (!from || !to || !pairJoining(engine.state.catalogue, quote.sourceCode, quote.targetCode))
    return refuse(
      REFUSAL_STATUS.quoteNotTradable,
      `the sandbox no longer trades ${quote.sourceCode}/${quote.targetCode}`,
    );
  if (from.balanceMinor < toMinor(quote.amount, currencyOf(engine, paid)))
    return refuse(
      REFUSAL_STATUS.balanceTooLow,
      `balance too low: the ${paid} wallet holds ${balanceOf(engine, from)}, the quote needs ${quote.amount}`,
    );
  const receivedCurrency = currencyOf(engine, received);
  const beyond = creditProblem(account, to, toMinor(quote.amountReceived, receivedCurrency), receivedCurrency);
  return beyond === undefined ? undefined : refuse(REFUSAL_STATUS.balanceTooHigh, beyond);
}

const acceptQuote = withAccount((call: AccountCall) => {
  const { engine, account } = call;
  const id = call.request.params.quoteId ?? "";
  const record = findQuote(account.quotes, id);
  if (!record) return refuse(REFUSAL_STATUS.notFound, `no quote ${id} was found for this API key`);
  const now = nowOf(engine, account);
  const problem = staleness(record, now) ?? fundingProblem(engine, account, record);
  if (problem) return problem;
  const trade = tradeOf(engine, record, now);
  const transactions = swapTransactions(engine, record, trade.reference, now);
  for (const transaction of transactions) postTransaction(account, transaction);
  account.trades.push(trade);
  record.tradeId = trade.id;
  markChanged(account, record);
  return answered(call, tradeView(engine, account, trade));
});

/** What this module answers, the refusals it answers with, the register entries it applies (operations/index.ts). */
export const acceptQuoteOperation: OperationModule = {
  handlers: { acceptQuote },
  refusals: [
    "notFound",
    "quoteAccepted",
    "quoteExpired",
    "quoteNotTradable",
    "balanceTooLow",
    "balanceTooHigh",
    "keylessAccountRead",
  ],
  choices: [
    "quotes.expired",
    "quotes.accepted-twice",
    "quotes.balance-too-low",
    "quotes.not-tradable",
    "quotes.sides",
    "trades.records",
    "money.exact",
    "accounts.keyless",
  ],
};
