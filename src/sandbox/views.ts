// The state as the contract's answers show it: wallets, transactions, pairs and currencies written in the shapes
// of the documented examples (templates.ts), filled from the state. Used by several operations, so written once.
import type { Currency, Pair } from "./catalogue.js";
import { DOLLAR_VALUE_DECIMALS } from "./rules.js";
import { iso } from "./clock.js";
import type { Engine } from "./engine.js";
import {
  type AccountRecord,
  findQuote,
  fromMinor,
  type QuoteRecord,
  type TradeRecord,
  type TransactionRecord,
  type WalletRecord,
} from "./state.js";
import { shaped } from "./templates.js";

/** The catalogue currency of `code` (every wallet's currency is in the catalogue it was made from). */
export function currencyOf(engine: Engine, code: string): Currency {
  const currency = engine.state.catalogue.currencies.find((candidate) => candidate.code === code);
  if (!currency) throw new Error(`sandbox: ${code} is not in the catalogue`);
  return currency;
}

/** The balance of a wallet as an amount of its currency. */
export const balanceOf = (engine: Engine, wallet: WalletRecord): number =>
  fromMinor(wallet.balanceMinor, currencyOf(engine, wallet.code));

/** A wallet's fields from the state (choices.ts, "wallets.balances"). */
function walletFields(engine: Engine, account: AccountRecord, wallet: WalletRecord) {
  const available = balanceOf(engine, wallet);
  return {
    id: wallet.id,
    createdAt: iso(wallet.createdAt),
    updatedAt: iso(wallet.updatedAt),
    active: true,
    availableBalance: available,
    pendingBalance: 0,
    pendingSwapBalance: 0,
    lockedBalance: 0,
    p2pBalance: 0,
    totalSwappableBalance: available,
    totalPendingBalance: 0,
    userId: account.userId,
    currencyId: wallet.currencyId,
  };
}

/** A wallet with its currency, as Get Wallet Balance and Get My Wallets answer it. */
export function walletView(engine: Engine, account: AccountRecord, wallet: WalletRecord): unknown {
  const currency = currencyOf(engine, wallet.code);
  return shaped(engine.templates.wallet, { ...walletFields(engine, account, wallet), currency });
}

/** The wallet a transaction moved (its account keeps one wallet per code). */
export const walletOfTransaction = (account: AccountRecord, transaction: TransactionRecord): WalletRecord =>
  account.wallets.find((candidate) => candidate.code === transaction.walletCode)!;

/** A transaction's own fields (no wallet, deposit or payout), from the state. */
export function transactionFields(engine: Engine, account: AccountRecord, transaction: TransactionRecord) {
  const wallet = walletOfTransaction(account, transaction);
  return {
    id: transaction.id,
    createdAt: iso(transaction.createdAt),
    updatedAt: iso(transaction.updatedAt ?? transaction.createdAt),
    active: true,
    reference: transaction.reference,
    description: transaction.description,
    narration: transaction.narration,
    type: transaction.type,
    category: transaction.category,
    amount: fromMinor(transaction.amountMinor, currencyOf(engine, wallet.code)),
    walletId: wallet.id,
  };
}

/** A transaction with its wallet (as it is now), as Get User Transactions answers it. */
export function transactionView(engine: Engine, account: AccountRecord, transaction: TransactionRecord): unknown {
  const wallet = walletOfTransaction(account, transaction);
  const { templates } = engine;
  return shaped(templates.transaction, {
    ...transactionFields(engine, account, transaction),
    wallet: shaped(templates.transactionWallet, walletFields(engine, account, wallet)),
  });
}

/** A pair as the pair listings answer it. */
export const pairSummaryView = (engine: Engine, pair: Pair): unknown => shaped(engine.templates.pairSummary, pair);

/** A pair as nested in a trade: its currencies limited to the base fields, name and code. */
function tradePairView(engine: Engine, pair: Pair): unknown {
  const { templates } = engine;
  return shaped(templates.tradePair, {
    ...pair,
    source: shaped(templates.currencySummary, pair.source),
    target: shaped(templates.currencySummary, pair.target),
  });
}

/** A quote as Create Quote answers it. */
export function quoteView(engine: Engine, quote: QuoteRecord): unknown {
  const view = shaped<Record<string, unknown>>(engine.templates.quote, quote);
  // Where the template has it (in its place): no copy of the quote with expiryDate added to shape from.
  if (Object.hasOwn(view, "expiryDate")) view.expiryDate = iso(quote.expiresAt);
  return view;
}

/** A trade as Accept Quote answers it: its quote's terms, its pair from the catalogue. */
export function tradeView(engine: Engine, account: AccountRecord, trade: TradeRecord): unknown {
  const quote = findQuote(account.quotes, trade.quoteId)!;
  const pair = engine.state.catalogue.pairs.find((candidate) => candidate.id === trade.pairId)!;
  return shaped(engine.templates.trade, {
    id: trade.id,
    createdAt: iso(trade.createdAt),
    updatedAt: iso(trade.createdAt),
    active: true,
    reference: trade.reference,
    rate: quote.rate,
    side: quote.side,
    amount: quote.amount,
    amountReceived: quote.amountReceived,
    sourceDollarRate: quote.sourceDollarRate,
    targetDollarRate: quote.targetDollarRate,
    userId: account.userId,
    pairId: pair.id,
    dollarValue: trade.dollarCents / 10 ** DOLLAR_VALUE_DECIMALS,
    pair: tradePairView(engine, pair),
  });
}
