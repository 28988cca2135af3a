// The caller's trades: the trade history (each trade as Accept Quote answered it, newest first, paged) and the
// trades summary (their dollar volume, choices.ts "trades.summary").
import { answered, pageItems, pageOf, single, withAccount, type OperationModule } from "../engine.js";
import { DOLLAR_VALUE_DECIMALS } from "../rules.js";
import { findQuote } from "../state.js";
import { tradeView } from "../views.js";

const getTradeHistory = withAccount((call) => {
  const page = pageOf(call.request);
  return answered(
    call,
    pageItems(call.account.trades, page).map((trade) => tradeView(call.engine, call.account, trade)),
  );
});

const getTradesSummary = withAccount((call) => {
  const currencyId = single(call.request.query.currencyId);
  const trades = call.account.trades.filter((trade) => {
    const quote = findQuote(call.account.quotes, trade.quoteId)!;
    return currencyId === undefined || quote.sourceId === currencyId || quote.targetId === currencyId;
  });
  const cents = trades.reduce((sum, trade) => sum + trade.dollarCents, 0);
  return answered(call, { totalDollarVolume: cents / 10 ** DOLLAR_VALUE_DECIMALS });
});

/** What this module answers, the refusals it answers with, the register entries it applies (operations/index.ts). */
export const tradeOperations: OperationModule = {
  handlers: { getTradeHistory, getTradesSummary },
  refusals: ["invalidPage", "keylessAccountRead"],
  choices: ["trades.records", "trades.summary", "lists.pagination", "accounts.keyless"],
};
