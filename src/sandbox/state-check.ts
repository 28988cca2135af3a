// What a restore takes: a state whose every part has the shape the sandbox writes (the control document's
// SandboxState, checked in state-schema.ts), what an older state lacks filled in from the schema's defaults, and
// which keeps the rules no schema states, checked here: each store is its key's; its wallets are of catalogue
// currencies, its transactions of its wallets, its deposit addresses of currencies it has a wallet of; every
// balance is its starting balance plus its transactions' effects (money is never created by a restore: deposits
// in, withdrawals and their fees out, refunds back) and stays, with what its pending withdrawals would return,
// within MAX_MINOR_UNITS; no quote id is ahead of the id generator; its trades name its quotes and the
// catalogue's pairs; its withdrawals to settle are its withdrawals in progress; its webhook settings are those an
// account may be given (an http or https URL, with a secret), and each pending webhook can go on (signed with
// the account's secret, a next attempt due unless one runs). No two records of the state share an id, and the
// clock is not before a moment the state records as past. A state a sandbox answered always
// passes; another is refused (400) naming where it is wrong, as a JSON pointer. The catalogue and rates are then
// checked against the contract by the caller (catalogue.ts).
import { escapePointerToken } from "../openapi/document.js";
import { quoteCounter } from "./ids.js";
import { refuse } from "./refusal.js";
import { iso } from "./clock.js";
import { CLOCK_RANGE, isWithdrawalFinal, MAX_MINOR_UNITS } from "./rules.js";
import { type AccountRecord, effectMinor, refundableMinor, type SandboxStateData, setOwnEntry } from "./state.js";
import {
  savedStateProblem,
  stateShapeProblem,
  storeShapeProblem,
  withStateDefaults,
  withStoreDefaults,
} from "./state-schema.js";
import type { Steps } from "./turns.js";
import { webhookSettingsProblem } from "./webhooks/outbox.js";

/** The codes of the catalogue's currencies and the ids of its pairs, which wallets and trades name; the id counter. */
interface CatalogueNames {
  codes: Set<string>;
  pairIds: Set<string>;
  counter: number;
}

/** Why a state may lack a webhookSecret: it was read over the control API without asking for the secrets. */
const NO_SECRETS_READ = " (GET /_sandbox/state leaves the secrets out unless asked with ?secrets=true)";

/** The index of the first of `items` that fails `test`, or undefined. */
function firstFailing<T>(items: readonly T[], test: (item: T) => boolean): number | undefined {
  const index = items.findIndex((item) => !test(item));
  return index < 0 ? undefined : index;
}

/** Whether every wallet, transaction and deposit address of `account` is of a currency it may hold. */
function currencyProblem(at: string, account: AccountRecord, names: CatalogueNames): string | undefined {
  const wallet = firstFailing(account.wallets, ({ code }) => names.codes.has(code));
  if (wallet !== undefined) return `${at}/wallets/${wallet}/code is not a currency of the catalogue`;
  const walletCodes = new Set(account.wallets.map(({ code }) => code));
  const transaction = firstFailing(account.transactions, ({ walletCode }) => walletCodes.has(walletCode));
  if (transaction !== undefined) return `${at}/transactions/${transaction}/walletCode names no wallet of the account`;
  const address = firstFailing(account.addresses, ({ currency }) => walletCodes.has(currency));
  if (address !== undefined) return `${at}/addresses/${address}/currency names no wallet of the account`;
  return undefined;
}

/**
 * Whether every wallet of `account` is its starting balance plus its transactions, and holds, with what its pending
 * withdrawals would return, no more than MAX_MINOR_UNITS.
 */
function historyProblem(at: string, account: AccountRecord): string | undefined {
  const sums = new Map<string, number>();
  for (const transaction of account.transactions)
    sums.set(transaction.walletCode, (sums.get(transaction.walletCode) ?? 0) + effectMinor(transaction));
  for (const [index, wallet] of account.wallets.entries()) {
    const where = `${at}/wallets/${index}/balanceMinor`;
    if (wallet.startingMinor + (sums.get(wallet.code) ?? 0) !== wallet.balanceMinor)
      return `${where}: the ${wallet.code} balance is not its starting balance plus its transactions`;
    if (wallet.balanceMinor + refundableMinor(account, wallet.code) > MAX_MINOR_UNITS)
      return (
        `${where}: the ${wallet.code} balance, with what its pending withdrawals would return, is over ` +
        `${MAX_MINOR_UNITS}`
      );
  }
  return undefined;
}

/** Whether each quote id is not ahead of the generator (so new ids cannot collide), each trade names its quote. */
function tradingProblem(at: string, account: AccountRecord, names: CatalogueNames): string | undefined {
  // The schema's pattern makes every id one quoteCounter reads.
  const ahead = account.quotes.findIndex(({ id }) => (quoteCounter(id) ?? 0) > names.counter);
  if (ahead >= 0) return `${at}/quotes/${ahead}/id is ahead of /ids/counter`;
  const quoteIds = new Set(account.quotes.map(({ id }) => id));
  const stray = firstFailing(account.trades, ({ quoteId }) => quoteIds.has(quoteId));
  if (stray !== undefined) return `${at}/trades/${stray}/quoteId names no quote of the account`;
  const unpaired = firstFailing(account.trades, ({ pairId }) => names.pairIds.has(pairId));
  if (unpaired !== undefined) return `${at}/trades/${unpaired}/pairId names no pair of the catalogue`;
  return undefined;
}

/** Whether each withdrawal to settle of a store names one of its withdrawals in progress. */
function settlementsProblem(at: string, account: AccountRecord): string | undefined {
  const inProgress = new Set(
    account.transactions
      .filter(({ withdrawal }) => withdrawal && !isWithdrawalFinal(withdrawal.status))
      .map(({ id }) => id),
  );
  const stray = firstFailing(account.settlements, ({ transactionId }) => inProgress.has(transactionId));
  if (stray !== undefined) return `${at}/settlements/${stray} names no withdrawal in progress`;
  // A withdrawal settles once: a second entry would stay behind it, naming a withdrawal no longer in progress.
  const twice = account.settlements.findIndex(
    ({ transactionId }, index) =>
      account.settlements.findIndex((other) => other.transactionId === transactionId) < index,
  );
  return twice < 0 ? undefined : `${at}/settlements/${twice} names a withdrawal an earlier entry settles`;
}

/**
 * Whether each pending webhook of a store can go on: its account can sign it (a webhookSecret), and it has a next
 * attempt unless one runs (its last attempt has no outcome yet). Either kind would stay pending forever.
 */
function outboxProblem(at: string, account: AccountRecord): string | undefined {
  const pending = account.outbox
    .map((record, index) => ({ record, index }))
    .filter(({ record }) => record.status === "pending");
  for (const { record, index } of pending) {
    const unsigned = `${at}/outbox/${index} is pending in an account without a webhookSecret: it could never be signed`;
    if (account.webhookSecret === undefined) return `${unsigned}${NO_SECRETS_READ}`;
    const last = record.attempts.at(-1);
    const running = last !== undefined && last.status === undefined && last.error === undefined;
    if (!running && record.nextAttemptAt === undefined)
      return `${at}/outbox/${index} is pending with no nextAttemptAt and no attempt running: it would never be sent`;
  }
  return undefined;
}

/** The ids a store's records are found by, each with its pointer: no two records of a state may share one. */
function* recordIds(at: string, account: AccountRecord): Generator<[string, string]> {
  for (const part of ["wallets", "quotes", "trades", "transactions", "outbox"] as const)
    for (const [index, { id }] of account[part].entries()) yield [id, `${at}/${part}/${index}/id`];
}

/**
 * A register of the ids of the stores given to it so far, each with its pointer: given a store, it tells whether an
 * id of it names a record that store or an earlier one has (ids are drawn for the whole sandbox), the first such.
 */
function idRegister() {
  const seen = new Map<string, string>();
  return (at: string, account: AccountRecord): string | undefined => {
    for (const [id, where] of recordIds(at, account)) {
      const first = seen.get(id);
      if (first !== undefined) return `${where} is also ${first}: each record has an id of its own`;
      seen.set(id, where);
    }
    return undefined;
  };
}

/** The moments a store records as past (made, moved, tried), each with its pointer. */
function* pastMoments(at: string, account: AccountRecord): Generator<[number, string]> {
  yield [account.createdAt, `${at}/createdAt`];
  for (const [index, wallet] of account.wallets.entries()) yield [wallet.updatedAt, `${at}/wallets/${index}/updatedAt`];
  for (const part of ["quotes", "trades", "transactions", "outbox"] as const)
    for (const [index, { createdAt }] of account[part].entries()) yield [createdAt, `${at}/${part}/${index}/createdAt`];
  for (const [index, { attempts }] of account.outbox.entries())
    for (const [n, { at: tried }] of attempts.entries()) yield [tried, `${at}/outbox/${index}/attempts/${n}/at`];
}

/**
 * Whether a key's clock (the clock plus its offset) is before a moment its store records, where what comes next
 * would be dated before what came, or past the last moment a clock shows.
 */
function clockProblem(
  clock: SandboxStateData["clock"],
  at: string,
  account: AccountRecord,
  named?: (keyNow: number) => string,
): string | undefined {
  const [now, where] = clock.kind === "fixed" ? [clock.nowMs, "/clock/nowMs"] : [clock.lastMs, "/clock/lastMs"];
  const keyNow = now + account.clockOffsetMs;
  const keyClock = named?.(keyNow) ?? (account.clockOffsetMs === 0 ? where : `${where} + ${at}/clockOffsetMs`);
  if (keyNow > CLOCK_RANGE.latest) return `${keyClock} is past ${iso(CLOCK_RANGE.latest)}, the last moment`;
  for (const [moment, pointer] of pastMoments(at, account))
    if (moment > keyNow) return `${keyClock} is before ${pointer}: the clock is never set back`;
  return undefined;
}

/** The catalogue's names and the id counter of `state`, which its stores are checked against. */
const namesOf = (state: SandboxStateData): CatalogueNames => ({
  codes: new Set(state.catalogue.currencies.map(({ code }) => code)),
  pairIds: new Set(state.catalogue.pairs.map(({ id }) => id)),
  counter: state.ids.counter,
});

/** What breaks a rule no schema states in the store `account` of `apiKey` at pointer `at`, or undefined. */
function storeProblem(at: string, apiKey: string, account: AccountRecord, names: CatalogueNames): string | undefined {
  const settings = webhookSettingsProblem(account);
  return (
    (account.apiKey === apiKey ? undefined : `${at}/apiKey is not the key of its store`) ??
    (settings && `${at}: ${settings}${account.webhookSecret === undefined ? NO_SECRETS_READ : ""}`) ??
    currencyProblem(at, account, names) ??
    tradingProblem(at, account, names) ??
    settlementsProblem(at, account) ??
    outboxProblem(at, account) ??
    historyProblem(at, account)
  );
}

/** The pointer of `apiKey`'s store in a state. */
const storePointer = (apiKey: string) => `/accounts/${escapePointerToken(apiKey)}`;

/** The highest counter of the quote ids of `account` (0 for none). */
export const highestQuoteCounter = (account: AccountRecord): number =>
  Math.max(0, ...account.quotes.map(({ id }) => quoteCounter(id) ?? 0));

/**
 * A copy of `value` as the store of `apiKey` in `state` (PUT /_sandbox/accounts/{apiKey}/state), what an older store
 * lacks filled in; a refusal (400) naming the first problem by its pointer in the store. The store is checked as a
 * restore checks each store (the catalogue and clock of `state`), and its ids against every other store's. Its quote
 * ids may be ahead of the state's generator: the caller moves the generator past them.
 */
export function checkedStore(state: SandboxStateData, apiKey: string, value: unknown): AccountRecord {
  const shape = storeShapeProblem(value);
  if (shape) refuse(400, `sandbox account state: ${shape}`);
  const store = withStoreDefaults(structuredClone(value) as AccountRecord);
  const names = { ...namesOf(state), counter: Math.max(state.ids.counter, highestQuoteCounter(store)) };
  const sharesAnId = idRegister();
  const sharedId = () => {
    let shared = sharesAnId("", store);
    for (const [key, account] of Object.entries(state.accounts))
      if (key !== apiKey) shared ??= sharesAnId(storePointer(key), account);
    return shared;
  };
  const problem =
    storeProblem("", apiKey, store, names) ??
    sharedId() ??
    clockProblem(state.clock, "", store, (keyNow) => `the key's clock (${iso(keyNow)})`);
  if (problem) refuse(400, `sandbox account state: ${problem}`);
  return store;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `state` with `accounts` in place of its stores: its other parts as they are, in their order. */
function withAccounts(state: Record<string, unknown>, accounts: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, part] of Object.entries(state)) setOwnEntry(copy, name, name === "accounts" ? accounts : part);
  return copy;
}

/**
 * A copy of `value` (a state of format 2: a format-1 state is brought to it first) as a restore holds it, what an
 * older state lacks filled in; a refusal (400) naming the first problem where it is not one. `handedOver`: `value`
 * is the restore's alone (parsed for it), so it is filled in as it is, not copied first.
 * It is checked a store at a time, in steps (turns.ts): a restore over HTTP gives the event loop a turn between two
 * stores (control.ts), one in process runs them at once. The first problem named is the one a check of the whole
 * state at once names: the schema before the rules (a store against SandboxAccountStore alone, and the first that
 * fails named by the whole state's check of it beside the other parts, whose problems may come before its own;
 * then the parts), then each store's rules in the order of the keys, then the ids two stores share, then the clock.
 */
export function* checkedStateSteps(value: unknown, handedOver = false): Steps<SandboxStateData> {
  const saved = savedStateProblem(value);
  if (saved) refuse(400, `sandbox state: ${saved}`);
  const whole = value as Record<string, unknown>; // an object: savedStateProblem says so
  const stores = isRecord(whole.accounts) ? Object.entries(whole.accounts) : [];
  for (const [key, store] of stores) {
    if (storeShapeProblem(store) !== undefined)
      refuse(400, `sandbox state: ${stateShapeProblem(withAccounts(whole, { [key]: store }))}`);
    yield;
  }
  const parts = isRecord(whole.accounts) ? withAccounts(whole, {}) : whole;
  const shape = stateShapeProblem(parts);
  if (shape) refuse(400, `sandbox state: ${shape}`);
  const state = withStateDefaults((handedOver ? parts : structuredClone(parts)) as SandboxStateData);
  const names = namesOf(state);
  const sharesAnId = idRegister();
  let sharedId: string | undefined;
  let clockBehind: string | undefined;
  for (const [key, given] of stores) {
    const at = storePointer(key);
    const store = withStoreDefaults((handedOver ? given : structuredClone(given)) as AccountRecord);
    setOwnEntry(state.accounts, key, store);
    const problem = storeProblem(at, key, store, names);
    if (problem) refuse(400, `sandbox state: ${problem}`);
    sharedId ??= sharesAnId(at, store);
    clockBehind ??= clockProblem(state.clock, at, store);
    yield;
  }
  const problem = sharedId ?? clockBehind;
  if (problem) refuse(400, `sandbox state: ${problem}`);
  return state;
}
