// The caller's transaction history: Get User Transactions (page, pageSize, category), one transaction by id
// (another key's id is not found), and the deposit and payout listings with their pagination meta and the
// filters the contract declares (currencyId, status, startDate, endDate: choices.ts "lists.filters").
import { DEPOSIT_STATUS, REFUSAL_STATUS } from "../rules.js";
import {
  type AccountCall,
  answered,
  pageItems,
  pageMeta,
  pageOf,
  single,
  withAccount,
  type OperationModule,
} from "../engine.js";
import { refuse } from "../refusal.js";
import { depositTransactionView, payoutTransactionView, transactionDetailView } from "../money/views.js";
import type { TransactionRecord } from "../state.js";
import { currencyOf, transactionView } from "../views.js";

const getUserTransactions = withAccount((call) => {
  const page = pageOf(call.request);
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

const getTransaction = withAccount((call) => {
  const id = call.request.params.transactionId;
  const transaction = call.account.transactions.find((candidate) => candidate.id === id);
  if (!transaction) return refuse(REFUSAL_STATUS.notFound, `no transaction ${id} was found for this API key`);
  return answered(call, transactionDetailView(call.engine, call.account, transaction));
});

/** An ISO 8601 date, or date-time with its offset (Date.parse alone takes other forms, and local time). */
const ISO_DATE_OR_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * Whether the date (and hour) written in an ISO value exist: Date.parse takes 2026-02-30 as 2026-03-02 and T24:00
 * as the next day. The date is made from its parts (setUTCFullYear keeps years below 100) and written back.
 */
function existsAsWritten(value: string): boolean {
  const date = new Date(0);
  date.setUTCFullYear(Number(value.slice(0, 4)), Number(value.slice(5, 7)) - 1, Number(value.slice(8, 10)));
  const hour = Number(value.slice(11, 13)); // a date alone has none: Number("") is 0
  return date.toISOString().slice(0, 10) === value.slice(0, 10) && hour < 24;
}

/** A date filter's moment: a date-time, or a date (its first moment; for endDate, its last). */
function momentOf(value: string | undefined, end: boolean): number | undefined | null {
  if (value === undefined) return undefined;
  if (!ISO_DATE_OR_DATE_TIME.test(value) || !existsAsWritten(value)) return null;
  const dateOnly = value.length === "YYYY-MM-DD".length;
  const moment = Date.parse(dateOnly ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(moment)) return null;
  return dateOnly && end ? moment + 86_400_000 - 1 : moment;
}

/** The deposit or payout a listing shows a transaction with (its status), or undefined when it does not list it. */
type Listed = (transaction: TransactionRecord) => { status: string } | undefined;

/** A listing of the transactions `listed` picks (with their status), filtered and paged, each as `view` writes it. */
function listing(listed: Listed, view: typeof depositTransactionView) {
  return withAccount((call: AccountCall) => {
    const page = pageOf(call.request);
    const { account, engine, request } = call;
    const [currencyId, status] = [single(request.query.currencyId), single(request.query.status)];
    const start = momentOf(single(request.query.startDate), false);
    const end = momentOf(single(request.query.endDate), true);
    if (start === null || end === null)
      return refuse(
        REFUSAL_STATUS.invalidPage,
        "startDate and endDate must be ISO 8601 dates, or date-times with their offset",
      );
    const chosen = account.transactions.filter((transaction) => {
      const item = listed(transaction);
      return (
        item !== undefined &&
        (currencyId === undefined || currencyOf(engine, transaction.walletCode).id === currencyId) &&
        (status === undefined || item.status === status) &&
        (start === undefined || transaction.createdAt >= start) &&
        (end === undefined || transaction.createdAt <= end)
      );
    });
    const items = pageItems(chosen, page).map((transaction) => view(engine, account, transaction));
    return answered(call, items, pageMeta(call, page, chosen.length));
  });
}

const listDeposits = listing(
  (transaction) => (transaction.deposit ? { status: DEPOSIT_STATUS } : undefined),
  depositTransactionView,
);
const listPayouts = listing(
  (transaction) => (transaction.withdrawal?.destination.kind === "bank" ? transaction.withdrawal : undefined),
  payoutTransactionView,
);

/** What this module answers, the refusals it answers with, the register entries it applies (operations/index.ts). */
export const transactionOperations: OperationModule = {
  handlers: { getUserTransactions, getTransaction, listDeposits, listPayouts },
  refusals: ["invalidPage", "notFound", "keylessAccountRead"],
  choices: [
    "lists.pagination",
    "lists.category",
    "lists.filters",
    "withdrawals.payouts",
    "withdrawals.records",
    "accounts.isolation",
    "accounts.keyless",
  ],
};
