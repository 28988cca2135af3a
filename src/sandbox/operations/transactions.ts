// The caller's transaction history: Get User Transactions (page, pageSize, category), one transaction by id
// (another key's id is not found), and the deposit and payout listings with their pagination meta (empty pages:
// the sandbox has no deposits or payouts yet, choices.ts "lists.pagination").
import { REFUSAL_STATUS } from "../choices.js";
import { answered, pageItems, pageMeta, pageOf, refused, single, withAccount } from "../engine.js";
import { transactionView } from "../views.js";

export const getUserTransactions = withAccount((call) => {
  const page = pageOf(call.request);
  if ("kind" in page) return page;
  const category = single(call.request.query.category);
  const { account, engine } = call;
  const chosen = account.transactions.filter(
    (transaction) => category === undefined || transaction.category === category,
  );
  return answered(
    call,
    pageItems(chosen, page).map((transaction) => transactionView(engine, account, transaction)),
  );
});

export const getTransaction = withAccount((call) => {
  const id = call.request.params.transactionId;
  const transaction = call.account.transactions.find((candidate) => candidate.id === id);
  if (!transaction) return refused(REFUSAL_STATUS.notFound, `no transaction ${id} was found for this API key`);
  return answered(call, transactionView(call.engine, call.account, transaction));
});

/** An empty page with its meta (deposits and payouts come with the next version of the sandbox). */
const emptyPage = withAccount((call) => {
  const page = pageOf(call.request);
  if ("kind" in page) return page;
  return answered(call, [], pageMeta(call, page, 0));
});

export const listDeposits = emptyPage;
export const listPayouts = emptyPage;
