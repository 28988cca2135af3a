// The sandbox as the request pipeline's answer source: each operation the sandbox models answers from the state
// (operations/), every other one the documented example, as ./msw answers it (choices.ts, "answers.unmodelled").
// The caller's account is the one of its API key (the admission step, limits.ts, made it on first use).
import { createDocumentedSource } from "../pipeline/answers.js";
import type { AnswerSource } from "../pipeline/pipeline.js";
import { UNMODELLED_OPERATIONS } from "./choices.js";
import { apiKeyOf, type Engine, type Handler } from "./engine.js";
import { acceptQuote } from "./operations/accept-quote.js";
import { getCurrencies, getCurrencyPairs, getFiatRates, getTradePair, getTradePairs } from "./operations/catalogue.js";
import { getCollectionCustomer, getCollectionCustomers } from "./operations/collections.js";
import { createQuote } from "./operations/create-quote.js";
import { createDepositAddress, getDepositAddresses } from "./operations/deposit-addresses.js";
import { getActiveNetworks, getWithdrawalCurrencyNetworks } from "./operations/networks.js";
import { requestBankWithdrawal, requestCryptoWithdrawal } from "./operations/withdrawals.js";
import { getTradeHistory, getTradesSummary } from "./operations/trades.js";
import { getTransaction, getUserTransactions, listDeposits, listPayouts } from "./operations/transactions.js";
import { settleDue } from "./money/withdrawals.js";
import { ownEntry } from "./state.js";
import { getMyWallets, getWalletBalance, getWalletBalanceByCode } from "./operations/wallets.js";
import { resendTransactionWebhook, resendWebhooks } from "./operations/webhooks.js";

/** The modelled operations, by operationId. */
const HANDLERS: Record<string, Handler> = {
  getFiatRates,
  getCurrencies,
  getTradePairs,
  getTradePair,
  getCurrencyPairs,
  createQuote,
  acceptQuote,
  getWalletBalance,
  getWalletBalanceByCode,
  getMyWallets,
  getUserTransactions,
  getTransaction,
  listDeposits,
  listPayouts,
  getTradeHistory,
  getTradesSummary,
  getCollectionCustomers,
  getActiveNetworks,
  getWithdrawalCurrencyNetworks,
  createDepositAddress,
  getDepositAddresses,
  requestCryptoWithdrawal,
  requestBankWithdrawal,
  getCollectionCustomer,
  resendWebhooks,
  resendTransactionWebhook,
};

/** The operationIds the sandbox answers from its state. */
export const MODELLED_OPERATIONS: readonly string[] = Object.keys(HANDLERS);

export function createSandboxSource(engine: Engine): AnswerSource {
  const documented = createDocumentedSource(engine.spec);
  const unmodelled = new Set<string>(UNMODELLED_OPERATIONS);
  return {
    // At once (no promise) for every modelled operation: the engine waits for nothing.
    answer(request) {
      settleDue(engine); // withdrawals whose moment the clock has reached are settled before anything is read
      const id = request.operation.operationId ?? "";
      const handler = HANDLERS[id];
      if (!handler) {
        if (!unmodelled.has(id)) throw new Error(`sandbox: ${id} is neither modelled nor listed as unmodelled`);
        return documented.answer(request);
      }
      const key = apiKeyOf(request.headers);
      const account = key === undefined ? undefined : ownEntry(engine.state.accounts, key);
      return handler({ engine, request, account });
    },
  };
}
