// The sandbox as its users hold it (`Sandbox`, what createSandbox answers, index.ts): apart from index.ts so that
// the control API (control.ts), which index.ts builds into sandbox.fetch, can take a sandbox without importing
// index.ts back.
import type { components } from "../../generated/schema.js";
import type {
  SandboxAccount,
  SandboxAccountStore,
  SandboxChoice,
  SandboxRates,
  SandboxSettings,
  SandboxState,
} from "../../generated/sandbox-control.js";
import type { SandboxDepositRequest } from "./money/index.js";
import type { AccountSettings } from "./state.js";
import type { Webhooks } from "./webhooks/index.js";

type Transaction = components["schemas"]["Transaction"];

/** A clock: its moment (ms since the epoch), and a move forward that answers the new moment. */
export interface SandboxClockHandle {
  now(): number;
  advance(ms: number): number;
}

export interface Sandbox {
  /** The API under /v1 and the control API under /_sandbox. */
  fetch(request: Request): Promise<Response>;
  /** The sandbox's clock; advancing it moves every key's clock by as much. */
  clock: SandboxClockHandle;
  /**
   * One key's clock: the sandbox's plus that key's own advances. Its quotes, limit windows, withdrawals and webhook
   * retries follow it; advancing it moves no other key's. Throws a RangeError (status 404) when the key has no
   * account, when called.
   */
  accountClock(apiKey: string): SandboxClockHandle;
  putAccount(apiKey: string, settings: AccountSettings): SandboxAccount;
  getAccount(apiKey: string): SandboxAccount | undefined;
  deleteAccount(apiKey: string): boolean;
  /** Sets the rates given (each fiat rate by its currency, each dollar rate by its code); answers those in use. */
  setRates(rates: Partial<SandboxRates>): SandboxRates;
  /** The settings that may change while the sandbox runs (its option requireKnownKeys). */
  settings(): SandboxSettings;
  /**
   * Changes them for every key until the next change or the sandbox's stop (they are not in its state); throws a
   * RangeError (status 400) for a value that is not a boolean.
   */
  putSettings(settings: SandboxSettings): SandboxSettings;
  /** The whole state (clock included), JSON-serialisable. */
  snapshot(): SandboxState;
  /** Puts back a state a snapshot gave; throws a RangeError on one this version cannot restore. */
  restore(state: SandboxState): void;
  /** One key's whole store (its secrets included), JSON-serialisable; undefined when the key has no account. */
  accountState(apiKey: string): SandboxAccountStore | undefined;
  /**
   * Puts back one key's store as accountState gave it (from this sandbox or another), making the account if there is
   * none, no other key's store touched; throws a RangeError (status 400) naming the first problem of one it refuses.
   */
  restoreAccount(apiKey: string, store: SandboxAccountStore): void;
  /** The register of the sandbox's choices. */
  readonly choices: readonly SandboxChoice[];
  /** Simulates an incoming payment (POST /_sandbox/deposits); throws a RangeError when it cannot be. */
  deposit(deposit: SandboxDepositRequest): Transaction;
  /** Settles a withdrawal in progress now (POST /_sandbox/withdrawals/{id}/settle); throws a RangeError if not. */
  settleWithdrawal(transactionId: string, status: "SUCCESSFUL" | "FAILED"): Transaction;
  /** The outbox: every webhook of a key (exact body, signature, URL, attempts); `settled()` once none is due. */
  readonly webhooks: Pick<Webhooks, "list" | "settled">;
}
