// The sandbox's state: one account per API key (its wallets, quotes, trades and transactions), the catalogue,
// the rates, the clock, the id generator and the limit windows, all plain JSON, so a snapshot is a copy of it and
// a restore puts a copy back (`version` says the format; the control document's SandboxState declares it).
// Balances are kept in minor units (integers, to the currency's decimals) so that every balance is exactly its
// starting balance plus its transactions' effects (`effectMinor`: a deposit credits its amount less its fee, a
// withdrawal debits its amount and its fee).
import type {
  SandboxAccountSettings,
  SandboxAccountStore,
  SandboxDepositAddressRecord,
  SandboxQuoteRecord,
  SandboxRates,
  SandboxSettlementRecord,
  SandboxTradeRecord,
  SandboxTransactionRecord,
  SandboxWalletRecord,
  SandboxWindowCount,
  SandboxWithdrawalRecord,
} from "../../generated/sandbox-control.js";
import type { Catalogue, Currency } from "./catalogue.js";
import { decimalsOf, excessOf, largestAmountOf } from "./catalogue.js";
import { isWithdrawalFinal, MAX_MINOR_UNITS, type Rounding } from "./rules.js";
import type { ClockState } from "./clock.js";
import { type IdState, uuid } from "./ids.js";

/** The format a snapshot is written in; a restore also takes format 1 (before one store per key). */
export const STATE_VERSION = 2;

// The records are the control document's (generated/sandbox-control.d.ts, from the schemas SandboxState names):
// their fields are declared there once. Only where JSON Schema's oneOf reaches TypeScript as one open object (a
// withdrawal's destination) does the code narrow it to its union; the records that hold one follow.
export type WalletRecord = SandboxWalletRecord;

/** A quote as stored: the terms Create Quote answered (its expiryDate is `expiresAt`), and its trade. */
export type QuoteRecord = SandboxQuoteRecord;

/** The side of a quote whose currency the caller pays (register "quotes.sides"; absent on a record: the source). */
export type QuotePayer = NonNullable<SandboxQuoteRecord["pays"]>;

/** A trade as stored: its own fields; its terms are its quote's, its pair the catalogue's (views.ts). */
export type TradeRecord = SandboxTradeRecord;

/** Where a withdrawal goes: an address on a network, or a bank account (SandboxWithdrawalDestination's oneOf). */
export type WithdrawalDestination =
  | { kind: "crypto"; address: string; network: string; memo?: string }
  | {
      kind: "bank";
      bankAccountId: string;
      accountNumber: string;
      accountName: string;
      bankName: string;
      bankCode: string;
      merchantCode?: string;
    };

/** The payout of a DEBIT/WITHDRAWAL transaction and its state (choices.ts, "withdrawals.states"). */
export type WithdrawalRecord = Omit<SandboxWithdrawalRecord, "destination"> & { destination: WithdrawalDestination };

export type TransactionRecord = Omit<SandboxTransactionRecord, "withdrawal"> & { withdrawal?: WithdrawalRecord };

/** What a transaction did to its wallet, in minor units: its amount, less a deposit's fee, plus a withdrawal's. */
export const effectMinor = (transaction: TransactionRecord): number =>
  transaction.type === "CREDIT"
    ? transaction.amountMinor - (transaction.deposit?.feeMinor ?? 0)
    : -(transaction.amountMinor + (transaction.withdrawal?.feeMinor ?? 0));

/** What the pending withdrawals of `account` from its `code` wallet would return if they failed (minor units). */
export function refundableMinor(account: AccountRecord, code: string): number {
  let refundable = 0;
  for (const transaction of account.transactions)
    if (transaction.walletCode === code && transaction.withdrawal && !isWithdrawalFinal(transaction.withdrawal.status))
      refundable -= effectMinor(transaction);
  return refundable;
}

/**
 * Why `wallet` of `account` cannot take a credit of `creditMinor`, or undefined: with it, and with what its pending
 * withdrawals would return, it would hold more than MAX_MINOR_UNITS (choices.ts, "money.exact").
 */
export function creditProblem(
  account: AccountRecord,
  wallet: WalletRecord,
  creditMinor: number,
  currency: Currency,
): string | undefined {
  if (wallet.balanceMinor + refundableMinor(account, wallet.code) + creditMinor <= MAX_MINOR_UNITS) return undefined;
  return (
    `the ${wallet.code} wallet would hold more than ${largestAmountOf(currency)} ${wallet.code}, the most the ` +
    "sandbox keeps exact (counting what its pending withdrawals would return)"
  );
}

/** Records `transaction` on `account`, its wallet moved by effectMinor: the one rule a restore checks too. */
export function postTransaction(account: AccountRecord, transaction: TransactionRecord): void {
  const wallet = account.wallets.find((candidate) => candidate.code === transaction.walletCode)!;
  wallet.balanceMinor += effectMinor(transaction);
  wallet.updatedAt = transaction.createdAt;
  account.transactions.push(transaction);
}

/** The records of a store's growing lists changed after they were added, not yet journaled (journal.ts). */
const changedRecords = new WeakMap<AccountRecord, Set<object>>();

/**
 * Notes that `record`, already in one of `account`'s growing lists (a quote accepted, a withdrawal settled), has
 * changed: the --state journal writes a store's new records and these, not the whole store.
 */
export function markChanged(account: AccountRecord, record: object): void {
  const changed = changedRecords.get(account) ?? new Set<object>();
  changedRecords.set(account, changed);
  changed.add(record);
}

/** The records of `account` changed since the last call (and forgets them). */
export function takeChanged(account: AccountRecord): ReadonlySet<object> {
  const changed = changedRecords.get(account) ?? new Set<object>();
  changedRecords.delete(account);
  return changed;
}

/** A deposit address of an account: one per currency, network and customer identifier. */
export type DepositAddressRecord = SandboxDepositAddressRecord;

/** A withdrawal of the store's account the sandbox clock settles at `at` (choices.ts, "withdrawals.settlement"). */
export type SettlementRecord = SandboxSettlementRecord;

/**
 * The store of one API key: everything of the key (its account's settings, wallets, quotes, trades, transactions,
 * addresses, limit windows, outbox and settlements in progress), so putting or deleting it is one assignment and a
 * handler given it sees nothing of another key.
 */
export type AccountRecord = Omit<SandboxAccountStore, "transactions"> & { transactions: TransactionRecord[] };

/** One limit window of one key: which window (its start) and how many requests it counted. */
export type WindowCount = SandboxWindowCount;

/**
 * The state as the sandbox holds it. Its shape, as a snapshot writes it and a restore takes it, is declared once, as
 * the control document's SandboxState (openapi-sandbox/control.yaml), whose generated types the records above are;
 * here the clock and the catalogue are the code's narrower view (a union; the contract's Currency and Pair), and
 * test/sandbox/state-schema.test.ts checks that a snapshot satisfies both.
 */
export type SandboxStateData = {
  version: typeof STATE_VERSION;
  clock: ClockState;
  ids: IdState;
  catalogue: Catalogue;
  rates: SandboxRates;
  /** The store of each API key. */
  accounts: Record<string, AccountRecord>;
  /** The limit windows of requests without an API key (they share one), by limit name. */
  keylessWindows: Record<string, WindowCount>;
};

/** An account's configuration, as users give it (the control document's SandboxAccountSettings). */
export type AccountSettings = SandboxAccountSettings;

// A product of decimal amounts carries binary error (0.29 * 100 is 28.999999999999996): the sandbox reads such a
// value at 15 significant digits before it rounds it. Writing the digits out costs most of a Create Quote's
// arithmetic, and it can change the result only near the rounding's boundary; below 1e12 the 15 digits keep three
// decimals, so a value 0.01 or more away from the boundary rounds as it is.
const EXACT_BELOW = 1e12;
const at15Digits = (value: number): number => Number(value.toPrecision(15));

/** Math.round of `value` at 15 significant digits. */
export function roundAt15Digits(value: number): number {
  const rounded = Math.round(value);
  const clear = Math.abs(value) < EXACT_BELOW && 0.5 - Math.abs(value - rounded) >= 0.01;
  return clear ? rounded : Math.round(at15Digits(value));
}

/** Math.ceil of `value` at 15 significant digits. */
function ceilAt15Digits(value: number): number {
  return -floorAt15Digits(-value);
}

/** `value` at 15 significant digits, brought to a whole number as `rounding` says. */
export function wholeAt15Digits(value: number, rounding: Rounding): number {
  if (rounding === "down") return floorAt15Digits(value);
  return rounding === "up" ? ceilAt15Digits(value) : roundAt15Digits(value);
}

/** Math.floor of `value` at 15 significant digits. */
export function floorAt15Digits(value: number): number {
  const floored = Math.floor(value);
  const clear = Math.abs(value) < EXACT_BELOW && value - floored <= 0.99;
  return clear ? floored : Math.floor(at15Digits(value));
}

/** The quote of `id` among an account's `quotes`, or undefined. */
export function findQuote(quotes: readonly QuoteRecord[], id: string): QuoteRecord | undefined {
  return quotes.find((quote) => quote.id === id);
}

/** Amount ↔ minor units of a currency. */
export const toMinor = (amount: number, currency: Currency): number =>
  roundAt15Digits(amount * 10 ** decimalsOf(currency));
export const fromMinor = (minor: number, currency: Currency): number => minor / 10 ** decimalsOf(currency);

/** What is wrong with `balances` for `catalogue`, or undefined. */
export function balancesProblem(balances: Record<string, number>, catalogue: Catalogue): string | undefined {
  for (const [code, amount] of Object.entries(balances)) {
    const currency = catalogue.currencies.find((candidate) => candidate.code === code);
    if (!currency) return `${code} is not a currency of the sandbox's catalogue`;
    if (typeof amount !== "number" || !Number.isFinite(amount) || amount < 0)
      return `the balance of ${code} must be a number, 0 or more`;
    const excess = excessOf(amount, currency);
    if (excess) return `the balance of ${code} has ${excess}`;
  }
  return undefined;
}

/** A new account: one wallet per catalogue currency, `balances` over `defaults`. */
export function newAccount(
  apiKey: string,
  settings: AccountSettings,
  context: { catalogue: Catalogue; defaults: Record<string, number>; ids: IdState; now: number },
): AccountRecord {
  const { catalogue, defaults, ids, now } = context;
  const balances = { ...defaults, ...settings.balances };
  const wallets = catalogue.currencies.map((currency): WalletRecord => {
    const startingMinor = toMinor(balances[currency.code] ?? 0, currency);
    const wallet = { id: uuid(ids), code: currency.code, currencyId: currency.id, createdAt: now, updatedAt: now };
    return { ...wallet, startingMinor, balanceMinor: startingMinor };
  });
  const account: AccountRecord = {
    apiKey,
    userId: uuid(ids),
    business: settings.business ?? false,
    createdAt: now,
    wallets,
    quotes: [],
    trades: [],
    transactions: [],
    addresses: [],
    windows: {},
    outbox: [],
    collectionCustomers: structuredClone(settings.collectionCustomers ?? []),
    clockOffsetMs: 0, // its clock starts at the sandbox's (choices.ts, "clock.per-key")
    settlements: [],
  };
  if (settings.apiSecret !== undefined) account.apiSecret = settings.apiSecret;
  if (settings.webhookUrl !== undefined) account.webhookUrl = settings.webhookUrl;
  if (settings.webhookSecret !== undefined) account.webhookSecret = settings.webhookSecret;
  return account;
}

/** The own entry `key` of a record (never one of Object.prototype's: an API key may be "__proto__"). */
export function ownEntry<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Sets the own entry `key` of a record, whatever the key ("__proto__" included). */
export function setOwnEntry<T>(record: Record<string, T>, key: string, value: T): void {
  // A key Object.prototype does not have (an id, an API key) is set by assignment, which makes an own entry
  // without defineProperty's cost; "__proto__", "constructor" and the like are defined.
  if (!(key in Object.prototype)) record[key] = value;
  else Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}
