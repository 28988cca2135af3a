// Money in and out of the sandbox as the Sandbox object and the control API offer it: simulate a deposit, settle
// a withdrawal, and settle the withdrawals the sandbox clock has reached (before each request and after each
// advance, so a test sees settled withdrawals as soon as its clock passes their moment). Each returns the
// transaction as Get Transaction answers it.
import type { components } from "../../../generated/schema.js";
import { isWithdrawalFinal, WITHDRAWAL_FINAL_STATUSES, WITHDRAWAL_SETTLEMENT } from "../rules.js";
import type { Engine, WithdrawalSettings } from "../engine.js";
import { transactionDetailView } from "./views.js";
import { makeDeposit, type SandboxDepositRequest } from "./deposits.js";
import { armSettlement, type FinalStatus, settleById, settleDue } from "./withdrawals.js";

export type { SandboxDepositRequest };

type Transaction = components["schemas"]["Transaction"];

/** How withdrawals settle when no test settles them (choices.ts, "withdrawals.settlement"). */
export interface WithdrawalOptions {
  /** Default 60 000 (1 min) on the sandbox clock; null: only when a test settles them. */
  settleAfterMs?: number | null;
  /** Default SUCCESSFUL. */
  outcome?: FinalStatus;
}

/** The settings of `options`; throws a RangeError on a delay that is no whole number of ms, 0 or more. */
export function withdrawalSettings(options: WithdrawalOptions = {}): WithdrawalSettings {
  const settleAfterMs =
    options.settleAfterMs === undefined ? WITHDRAWAL_SETTLEMENT.settleAfterMs : options.settleAfterMs;
  if (settleAfterMs !== null && !(Number.isSafeInteger(settleAfterMs) && settleAfterMs >= 0))
    throw new RangeError("sandbox withdrawals: settleAfterMs must be a whole number of ms, 0 or more, or null");
  const outcome = options.outcome ?? WITHDRAWAL_SETTLEMENT.outcome;
  if (!isWithdrawalFinal(outcome))
    throw new RangeError(`sandbox withdrawals: outcome must be ${WITHDRAWAL_FINAL_STATUSES.join(" or ")}`);
  return { settleAfterMs, outcome };
}

export function createMoney(engine: Engine) {
  return {
    /** Settles the withdrawals whose moment the clock has reached. */
    settleDue: () => settleDue(engine),
    /** After a restore or an advance: settles what is due, and waits for the next (an alarm with real time). */
    resume(): void {
      settleDue(engine);
      armSettlement(engine);
    },
    /** Simulates a deposit; throws a RangeError (with the control API's status) when it cannot be. */
    deposit(request: SandboxDepositRequest): Transaction {
      settleDue(engine);
      const { account, transaction } = makeDeposit(engine, request);
      return transactionDetailView(engine, account, transaction) as Transaction;
    },
    /** Settles a withdrawal now; throws a RangeError (with the control API's status) when it cannot be. */
    settleWithdrawal(transactionId: string, status: FinalStatus): Transaction {
      settleDue(engine);
      const { account, transaction } = settleById(engine, transactionId, status);
      return transactionDetailView(engine, account, transaction) as Transaction;
    },
  };
}
