// The life of a withdrawal: requested (the wallet debited by its amount and fee at once, the published first
// state), then settled SUCCESSFUL or FAILED, either when the sandbox clock reaches its settlement moment or when
// a test settles it (POST /_sandbox/withdrawals/{transactionId}/settle, `sandbox.settleWithdrawal`). A FAILED
// withdrawal returns its amount and fee by a CREDIT transaction, so every balance stays its starting balance plus
// its history. Each state change sends the WITHDRAWAL webhook (choices.ts, "withdrawals.*").
import { isWithdrawalFinal, SETTLE_REFUSAL, WITHDRAWAL_FINAL_STATUSES, WITHDRAWAL_FIRST_STATUS } from "../rules.js";
import { type ClockAlarm, createAlarm } from "../clock.js";
import { type Engine, nowOf } from "../engine.js";
import { datedReference, uuid } from "../ids.js";
import {
  type AccountRecord,
  markChanged,
  postTransaction,
  type SettlementRecord,
  type TransactionRecord,
  type WithdrawalDestination,
} from "../state.js";
import { externalReference, chainHash } from "./generate.js";
import { SandboxRefusal } from "../refusal.js";
import { webhookPayload } from "./views.js";

export type FinalStatus = (typeof WITHDRAWAL_FINAL_STATUSES)[number];

/** What a withdrawal request was found to be, once checked. */
export interface WithdrawalTerms {
  currency: string;
  amountMinor: number;
  feeMinor: number;
  destination: WithdrawalDestination;
  narration: string | null;
  dollarValue: number;
  bitcoinValue: number;
}

const alarms = new WeakMap<Engine, ClockAlarm>();

/**
 * With real time, an alarm settles the soonest withdrawal at its moment even when no request comes (so its
 * webhook goes out); with clock.start, withdrawals settle when the clock is advanced.
 */
export function armSettlement(engine: Engine): void {
  let alarm = alarms.get(engine);
  if (!alarm) {
    alarm = createAlarm(engine.clock, () => {
      settleDue(engine);
      armSettlement(engine); // the wait may end before the moment (the timer's limit): wait again
    });
    alarms.set(engine, alarm);
  }
  alarm.set(soonestSettlement(engine));
}

/** The moment, on the sandbox clock, of the soonest settlement of any store (each is on its key's), or undefined. */
function soonestSettlement(engine: Engine): number | undefined {
  let soonest: number | undefined;
  for (const account of Object.values(engine.state.accounts)) {
    const due = account.settlements[0];
    const at = due && due.at - account.clockOffsetMs;
    if (at !== undefined && (soonest === undefined || at < soonest)) soonest = at;
  }
  return soonest;
}

/** Puts `entry` in its store's settlement queue, soonest first (entries of one delay arrive in order: a push). */
function schedule(engine: Engine, account: AccountRecord, entry: SettlementRecord): void {
  const queue = account.settlements;
  let at = queue.length;
  while (at > 0 && queue[at - 1]!.at > entry.at) at--;
  queue.splice(at, 0, entry);
  armSettlement(engine);
}

/** Records a withdrawal the request checks allowed: the debit, its first state, its settlement, its webhook. */
export function recordWithdrawal(engine: Engine, account: AccountRecord, terms: WithdrawalTerms): TransactionRecord {
  const now = nowOf(engine, account);
  const { ids } = engine.state;
  const transaction: TransactionRecord = {
    id: uuid(ids),
    createdAt: now,
    reference: uuid(ids),
    description: String(engine.templates.cryptoWithdrawal.description),
    narration: terms.narration,
    type: "DEBIT",
    category: "WITHDRAWAL",
    walletCode: terms.currency,
    amountMinor: terms.amountMinor,
    withdrawal: {
      payoutId: uuid(ids),
      status: WITHDRAWAL_FIRST_STATUS[terms.destination.kind],
      feeMinor: terms.feeMinor,
      destination: terms.destination,
      transferReference: datedReference(ids, "TRF", now),
      externalReference: externalReference(ids),
      dollarValue: terms.dollarValue,
      bitcoinValue: terms.bitcoinValue,
      hash: null,
    },
  };
  postTransaction(account, transaction);
  const delay = engine.withdrawals.settleAfterMs;
  if (delay !== null) schedule(engine, account, { at: now + delay, transactionId: transaction.id });
  engine.notify(account.apiKey, transaction.id, webhookPayload(engine, account, transaction));
  return transaction;
}

/** Moves a withdrawal not yet settled to `status` at `at`; a FAILED one gets its amount and fee back. */
function settle(
  engine: Engine,
  account: AccountRecord,
  transaction: TransactionRecord,
  status: FinalStatus,
  at: number,
) {
  const withdrawal = transaction.withdrawal!;
  withdrawal.status = status;
  transaction.updatedAt = at;
  markChanged(account, transaction);
  const { ids } = engine.state;
  if (status === "SUCCESSFUL" && withdrawal.destination.kind === "crypto") withdrawal.hash = chainHash(ids);
  if (status === "FAILED") {
    const refund: TransactionRecord = {
      id: uuid(ids),
      createdAt: at,
      reference: transaction.reference,
      description: `Refund of ${transaction.description.toLowerCase()}`,
      narration: null,
      type: "CREDIT",
      category: transaction.category,
      walletCode: transaction.walletCode,
      amountMinor: transaction.amountMinor + withdrawal.feeMinor,
    };
    withdrawal.refundId = refund.id;
    postTransaction(account, refund);
  }
  const queue = account.settlements;
  const queued = queue.findIndex((entry) => entry.transactionId === transaction.id);
  if (queued >= 0) queue.splice(queued, 1);
  engine.notify(account.apiKey, transaction.id, webhookPayload(engine, account, transaction));
}

/**
 * Settles each withdrawal whose moment its key's clock has reached, at its moment, with the default outcome: of
 * `only` (the store a request reads: it sees no other), else of every store, soonest first across them (on the
 * sandbox clock: each store's moments are on its key's).
 */
export function settleDue(engine: Engine, only?: AccountRecord): void {
  const stores = only ? [only] : Object.values(engine.state.accounts);
  const due: Array<{ account: AccountRecord; entry: SettlementRecord }> = [];
  for (const account of stores) {
    const now = nowOf(engine, account);
    for (const entry of account.settlements) {
      if (entry.at > now) break;
      due.push({ account, entry });
    }
  }
  if (due.length === 0) return;
  const sandboxAt = ({ account, entry }: (typeof due)[number]) => entry.at - account.clockOffsetMs;
  due.sort((a, b) => sandboxAt(a) - sandboxAt(b)); // stable: a store's order, then the stores' order
  for (const { account, entry } of due) {
    const transaction = account.transactions.find((candidate) => candidate.id === entry.transactionId);
    if (transaction?.withdrawal && !isWithdrawalFinal(transaction.withdrawal.status))
      settle(engine, account, transaction, engine.withdrawals.outcome, entry.at);
  }
  armSettlement(engine);
}

/** Settles the withdrawal `transactionId` now; throws a SandboxRefusal when there is none or it is settled. */
export function settleById(engine: Engine, transactionId: string, status: FinalStatus) {
  if (!isWithdrawalFinal(status))
    throw new SandboxRefusal(SETTLE_REFUSAL.invalid, `status must be one of ${WITHDRAWAL_FINAL_STATUSES.join(", ")}`);
  for (const account of Object.values(engine.state.accounts)) {
    const transaction = account.transactions.find((candidate) => candidate.id === transactionId);
    if (!transaction) continue;
    const withdrawal = transaction.withdrawal;
    if (!withdrawal) break;
    if (isWithdrawalFinal(withdrawal.status))
      throw new SandboxRefusal(SETTLE_REFUSAL.settled, `withdrawal ${transactionId} is already ${withdrawal.status}`);
    settle(engine, account, transaction, status, nowOf(engine, account));
    return { account, transaction };
  }
  throw new SandboxRefusal(SETTLE_REFUSAL.unknown, `no withdrawal ${transactionId} in the sandbox`);
}
