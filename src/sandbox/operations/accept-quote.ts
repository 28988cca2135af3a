// Accept Quote: once, before expiry, when the source wallet covers the amount. It debits the source wallet by
// the amount and credits the target wallet by amountReceived (no extra charge, as the service's pages publish),
// records the trade and its two SWAP transactions, and answers the trade. Every refusal leaves the state as it
// was; its status is the register's (choices.ts) and its message says which refusal it is.
import { DOLLAR_VALUE_DECIMALS, REFUSAL_STATUS } from "../choices.js";
import { pairJoining } from "../catalogue.js";
import { type AccountCall, answered, type Engine, iso, refused, withAccount } from "../engine.js";
import { tradeReference, uuid } from "../ids.js";
import {
  type AccountRecord,
  type QuoteRecord,
  type Trade,
  type TransactionRecord,
  ownEntry,
  toMinor,
  type WalletRecord,
} from "../state.js";
import { shaped } from "../templates.js";
import { balanceOf, currencyOf, tradePairView } from "../views.js";

/** Why `record` cannot be accepted now (already accepted, expired), or undefined. */
function staleness(record: QuoteRecord, now: number) {
  const { id } = record.quote;
  if (record.tradeId !== undefined)
    return refused(REFUSAL_STATUS.quoteAccepted, `quote ${id} was already accepted (trade ${record.tradeId})`);
  if (now >= record.expiresAt)
    return refused(REFUSAL_STATUS.quoteExpired, `quote ${id} expired at ${iso(record.expiresAt)}: request a new quote`);
  return undefined;
}

/** The two SWAP transactions of a trade: the debit of the source wallet, the credit of the target wallet. */
function swapTransactions(engine: Engine, record: QuoteRecord, reference: string, now: number) {
  const { quote } = record;
  const common = {
    createdAt: now,
    reference,
    description: `Swap ${quote.amount} ${quote.sourceCode} to ${quote.targetCode}`,
    narration: `Quote ${quote.id}`,
    category: "SWAP",
  };
  const ids = engine.state.ids;
  const debit: TransactionRecord = {
    ...common,
    id: uuid(ids),
    type: "DEBIT",
    walletCode: quote.sourceCode,
    amountMinor: toMinor(quote.amount, currencyOf(engine, quote.sourceCode)),
  };
  const credit: TransactionRecord = {
    ...common,
    id: uuid(ids),
    type: "CREDIT",
    walletCode: quote.targetCode,
    amountMinor: toMinor(quote.amountReceived, currencyOf(engine, quote.targetCode)),
  };
  return [debit, credit] as const;
}

const walletOf = (account: AccountRecord, code: string): WalletRecord | undefined =>
  account.wallets.find((wallet) => wallet.code === code);

/** The trade of an accepted quote, as Accept Quote answers it. */
function tradeOf(engine: Engine, account: AccountRecord, record: QuoteRecord, now: number) {
  const { quote } = record;
  const pair = pairJoining(engine.state.catalogue, quote.sourceCode, quote.targetCode)!;
  const scale = 10 ** DOLLAR_VALUE_DECIMALS;
  const dollarCents = Math.round(Number((quote.amount * quote.sourceDollarRate * scale).toPrecision(15)));
  const trade = shaped<Trade>(engine.templates.trade, {
    id: uuid(engine.state.ids),
    createdAt: iso(now),
    updatedAt: iso(now),
    active: true,
    reference: tradeReference(engine.state.ids, now),
    rate: quote.rate,
    side: quote.side,
    amount: quote.amount,
    amountReceived: quote.amountReceived,
    sourceDollarRate: quote.sourceDollarRate,
    targetDollarRate: quote.targetDollarRate,
    userId: account.userId,
    pairId: pair.id,
    dollarValue: dollarCents / scale,
    pair: tradePairView(engine, pair),
  });
  return { trade, createdAt: now, sourceId: quote.sourceId, targetId: quote.targetId, dollarCents };
}

/** Why the account cannot pay for the quote (a wallet or pair gone from the catalogue, a balance too low). */
function fundingProblem(engine: Engine, account: AccountRecord, record: QuoteRecord) {
  const { quote } = record;
  const [source, target] = [walletOf(account, quote.sourceCode), walletOf(account, quote.targetCode)];
  if (!source || !target || !pairJoining(engine.state.catalogue, quote.sourceCode, quote.targetCode))
    return refused(
      REFUSAL_STATUS.quoteNotTradable,
      `the sandbox no longer trades ${quote.sourceCode}/${quote.targetCode}`,
    );
  if (source.balanceMinor < toMinor(quote.amount, currencyOf(engine, quote.sourceCode)))
    return refused(
      REFUSAL_STATUS.balanceTooLow,
      `balance too low: the ${quote.sourceCode} wallet holds ${balanceOf(engine, source)}, the quote needs ${quote.amount}`,
    );
  return undefined;
}

export const acceptQuote = withAccount((call: AccountCall) => {
  const { engine, account } = call;
  const id = call.request.params.quoteId ?? "";
  const record = ownEntry(account.quotes, id);
  if (!record) return refused(REFUSAL_STATUS.notFound, `no quote ${id} was found for this API key`);
  const now = engine.clock.now();
  const problem = staleness(record, now) ?? fundingProblem(engine, account, record);
  if (problem) return problem;
  const tradeRecord = tradeOf(engine, account, record, now);
  const transactions = swapTransactions(engine, record, tradeRecord.trade.reference, now);
  for (const transaction of transactions) {
    const wallet = walletOf(account, transaction.walletCode)!;
    wallet.balanceMinor += transaction.type === "CREDIT" ? transaction.amountMinor : -transaction.amountMinor;
    wallet.updatedAt = now;
  }
  account.transactions.push(...transactions);
  account.trades.push(tradeRecord);
  record.tradeId = tradeRecord.trade.id;
  return answered(call, tradeRecord.trade);
});
