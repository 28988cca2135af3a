// What a restore takes: a state of this version whose every part has the shape the sandbox writes (so no
// answer built from it can fail), whose wallets are of catalogue currencies, and whose every balance is its
// starting balance plus its transactions' effects (money is never created by a restore: deposits in, withdrawals
// and their fees out, refunds back), and whose withdrawals to settle are withdrawals in progress. A state a
// sandbox answered always passes; a hand-edited one is refused with where it is wrong. The catalogue and rates
// are checked against the contract by the caller (catalogue.ts).
import { isWithdrawalFinal, MAX_MINOR_UNITS } from "./rules.js";
import { isClockMoment } from "./clock.js";
import { quoteCounter } from "./ids.js";
import { type AccountRecord, effectMinor, refundableMinor, STATE_VERSION, type TransactionRecord } from "./state.js";
import { outboxProblem } from "./webhooks/outbox.js";

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isWhole = (value: unknown): value is number => Number.isSafeInteger(value);
const isCount = (value: unknown): value is number => isWhole(value) && value >= 0;
/** Minor units as the sandbox holds them: a count up to MAX_MINOR_UNITS (choices.ts, "money.exact"). */
const isMinor = (value: unknown): value is number => isCount(value) && value <= MAX_MINOR_UNITS;
const isText = (value: unknown): value is string => typeof value === "string";

/** The first field of `record` that fails its test, as "at.field", or undefined. */
function fieldProblem(at: string, record: unknown, tests: Record<string, (value: unknown) => boolean>) {
  if (!isRecord(record)) return `${at} must be an object`;
  const wrong = Object.entries(tests).find(([field, test]) => !test(record[field]));
  return wrong ? `${at}.${wrong[0]} is not as the sandbox writes it` : undefined;
}

/** The first problem of the items of `list` (an array), or undefined. */
function itemsProblem(at: string, list: unknown, problemOf: (item: unknown, at: string) => string | undefined) {
  if (!Array.isArray(list)) return `${at} must be a list`;
  for (const [index, item] of list.entries()) {
    const problem = problemOf(item, `${at}[${index}]`);
    if (problem) return problem;
  }
  return undefined;
}

const WALLET = (codes: Set<string>) => ({
  id: isText,
  code: (value: unknown) => isText(value) && codes.has(value),
  currencyId: isText,
  createdAt: isWhole,
  updatedAt: isWhole,
  startingMinor: isMinor,
  balanceMinor: isMinor,
});

const isNumber = (value: unknown): boolean => Number.isFinite(value);

const QUOTE_RECORD = {
  id: isText,
  sourceId: isText,
  targetId: isText,
  sourceCode: isText,
  targetCode: isText,
  side: (value: unknown) => value === "BUY" || value === "SELL",
  rate: isNumber,
  amount: isNumber,
  amountReceived: isNumber,
  sourceDollarRate: isNumber,
  targetDollarRate: isNumber,
  expiresIn: isNumber,
  createdAt: isWhole,
  expiresAt: isWhole,
  tradeId: (value: unknown) => value === undefined || isText(value),
  pays: (value: unknown) => value === undefined || value === "source" || value === "target",
};

const TRADE_RECORD = (quoteIds: Set<unknown>, pairIds: Set<string>) => ({
  id: isText,
  reference: isText,
  createdAt: isWhole,
  quoteId: (value: unknown) => isText(value) && quoteIds.has(value),
  pairId: (value: unknown) => isText(value) && pairIds.has(value),
  dollarCents: isWhole,
});

const isOptional = (test: (value: unknown) => boolean) => (value: unknown) => value === undefined || test(value);

const DEPOSIT = {
  id: isText,
  hash: isText,
  network: isText,
  address: isText,
  dollarRate: isNumber,
  feeMinor: isCount,
};

const DESTINATIONS = {
  crypto: { address: isText, network: isText, memo: isOptional(isText) },
  bank: {
    bankAccountId: isText,
    accountNumber: isText,
    accountName: isText,
    bankName: isText,
    bankCode: isText,
    merchantCode: isOptional(isText),
  },
} as const;

const WITHDRAWAL = {
  payoutId: isText,
  status: isText,
  feeMinor: isCount,
  transferReference: isText,
  externalReference: isText,
  dollarValue: isNumber,
  bitcoinValue: isNumber,
  hash: (value: unknown) => value === null || isText(value),
  refundId: isOptional(isText),
};

/** What is wrong with a transaction's deposit or withdrawal, or undefined. */
function moneyProblem(at: string, transaction: unknown): string | undefined {
  const { deposit, withdrawal } = transaction as Json;
  if (deposit !== undefined) return fieldProblem(`${at}.deposit`, deposit, DEPOSIT);
  if (withdrawal === undefined) return undefined;
  const problem = fieldProblem(`${at}.withdrawal`, withdrawal, WITHDRAWAL);
  if (problem) return problem;
  const destination = (withdrawal as Json).destination as Json | undefined;
  const kind = isRecord(destination) ? String(destination.kind) : "";
  if (kind !== "crypto" && kind !== "bank") return `${at}.withdrawal.destination.kind must be crypto or bank`;
  return fieldProblem(`${at}.withdrawal.destination`, destination, DESTINATIONS[kind]);
}

const ADDRESS = (codes: Set<string>) => ({
  id: isText,
  createdAt: isWhole,
  value: isText,
  reference: isText,
  currency: (value: unknown) => isText(value) && codes.has(value),
  network: isText,
  identifier: isOptional(isText),
});

const TRANSACTION = (codes: Set<string>) => ({
  id: isText,
  createdAt: isWhole,
  updatedAt: isOptional(isWhole),
  reference: isText,
  description: isText,
  narration: (value: unknown) => value === null || isText(value),
  type: (value: unknown) => value === "CREDIT" || value === "DEBIT",
  category: isText,
  walletCode: (value: unknown) => isText(value) && codes.has(value),
  amountMinor: isMinor,
});

/**
 * Whether every wallet of `account` is its starting balance plus its transactions, and holds, with what its pending
 * withdrawals would return, no more than MAX_MINOR_UNITS.
 */
function historyProblem(at: string, account: Json): string | undefined {
  const sums = new Map<string, number>();
  for (const transaction of account.transactions as Json[]) {
    const signed = effectMinor(transaction as unknown as TransactionRecord);
    sums.set(String(transaction.walletCode), (sums.get(String(transaction.walletCode)) ?? 0) + signed);
  }
  for (const wallet of account.wallets as Json[]) {
    const code = String(wallet.code);
    if ((wallet.startingMinor as number) + (sums.get(code) ?? 0) !== wallet.balanceMinor)
      return `${at}: the ${code} balance is not its starting balance plus its transactions`;
    const refundable = refundableMinor(account as unknown as AccountRecord, code);
    if ((wallet.balanceMinor as number) + refundable > MAX_MINOR_UNITS)
      return `${at}: the ${code} balance, with what its pending withdrawals would return, is over ${MAX_MINOR_UNITS}`;
  }
  return undefined;
}

/** Quotes as the sandbox writes them: each id a quote id not ahead of the generator (so new ids cannot collide). */
function quotesProblem(at: string, quotes: unknown, ids: Json): string | undefined {
  return itemsProblem(at, quotes, (quote, where) => {
    const problem = fieldProblem(where, quote, QUOTE_RECORD);
    if (problem) return problem;
    const counter = quoteCounter(String((quote as Json).id));
    if (counter === undefined) return `${where}.id is not a quote id as the sandbox writes it`;
    return counter > (ids.counter as number) ? `${where}.id is ahead of ids.counter` : undefined;
  });
}

/** The codes of the catalogue's currencies and the ids of its pairs, which wallets and trades name; the id state. */
interface CatalogueNames {
  codes: Set<string>;
  pairIds: Set<string>;
  ids: Json;
}

function accountProblem(at: string, apiKey: string, account: unknown, names: CatalogueNames): string | undefined {
  const tests = { apiKey: (value: unknown) => value === apiKey, userId: isText, createdAt: isWhole };
  const problem =
    fieldProblem(at, account, { ...tests, business: (value) => typeof value === "boolean" }) ??
    fieldProblem(at, account, { apiSecret: (value) => value === undefined || (isText(value) && value !== "") }) ??
    fieldProblem(at, account, { webhookUrl: (value) => value === undefined || isText(value) }) ??
    fieldProblem(at, account, { webhookSecret: (value) => value === undefined || (isText(value) && value !== "") });
  if (problem) return problem;
  const record = account as Json;
  const walletCodes = new Set((Array.isArray(record.wallets) ? record.wallets : []).map((w) => String(w?.code)));
  const quoteIds = new Set((Array.isArray(record.quotes) ? record.quotes : []).map((quote) => quote?.id));
  return (
    itemsProblem(`${at}.wallets`, record.wallets, (wallet, where) =>
      fieldProblem(where, wallet, WALLET(names.codes)),
    ) ??
    quotesProblem(`${at}.quotes`, record.quotes, names.ids) ??
    itemsProblem(`${at}.trades`, record.trades, (trade, where) =>
      fieldProblem(where, trade, TRADE_RECORD(quoteIds, names.pairIds)),
    ) ??
    itemsProblem(
      `${at}.transactions`,
      record.transactions,
      (item, where) => fieldProblem(where, item, TRANSACTION(walletCodes)) ?? moneyProblem(where, item),
    ) ??
    itemsProblem(`${at}.addresses`, record.addresses, (item, where) =>
      fieldProblem(where, item, ADDRESS(walletCodes)),
    ) ??
    windowsProblem(`${at}.windows`, record.windows) ??
    outboxProblem(`${at}.outbox`, record.outbox) ??
    settlementsProblem(at, record) ??
    historyProblem(at, record)
  );
}

const CLOCK = {
  fixed: { nowMs: isClockMoment },
  real: { offsetMs: isWhole, lastMs: isClockMoment },
} as const;

function windowsProblem(at: string, windows: unknown): string | undefined {
  if (!isRecord(windows)) return `${at} must be an object`;
  for (const [name, window] of Object.entries(windows)) {
    const problem = fieldProblem(`${at}.${name}`, window, { start: isWhole, count: isCount });
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Whether each withdrawal to settle of a store names one of its withdrawals in progress, never a settled one or
 * another transaction.
 */
function settlementsProblem(at: string, account: Json): string | undefined {
  const transactions = (account.transactions ?? []) as Json[];
  return itemsProblem(`${at}.settlements`, account.settlements, (entry, where) => {
    const problem = fieldProblem(where, entry, { at: isWhole, transactionId: isText });
    if (problem) return problem;
    const transaction = transactions.find((candidate) => candidate.id === (entry as Json).transactionId);
    const status = (transaction?.withdrawal as Json | undefined)?.status;
    const inProgress = status !== undefined && !isWithdrawalFinal(status);
    return inProgress ? undefined : `${where} names no withdrawal in progress`;
  });
}

/** What keeps `value` from being a state this version restores, or undefined. */
export function stateProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return "a state is a JSON object";
  if (value.version !== STATE_VERSION) return `the state's version must be 1 or ${STATE_VERSION}`;
  const clock = value.clock as Json | undefined;
  const clockTests = isRecord(clock) && (clock.kind === "fixed" || clock.kind === "real") ? CLOCK[clock.kind] : null;
  if (!clockTests) return "clock.kind must be fixed or real";
  const basics =
    fieldProblem("clock", clock, clockTests) ??
    fieldProblem("ids", value.ids, { seed: isCount, counter: isCount }) ??
    fieldProblem("catalogue", value.catalogue, { currencies: Array.isArray, pairs: Array.isArray }) ??
    fieldProblem("rates", value.rates, { fiat: Array.isArray, dollar: isRecord }) ??
    windowsProblem("keylessWindows", value.keylessWindows);
  if (basics) return basics;
  if (!isRecord(value.accounts)) return "accounts must be an object";
  const { currencies, pairs } = value.catalogue as { currencies: unknown[]; pairs: unknown[] };
  const names = {
    codes: new Set(currencies.map((currency) => (isRecord(currency) ? String(currency.code) : ""))),
    pairIds: new Set(pairs.map((pair) => (isRecord(pair) ? String(pair.id) : ""))),
    ids: value.ids as Json,
  };
  for (const [apiKey, account] of Object.entries(value.accounts)) {
    const problem = accountProblem(`accounts.${apiKey}`, apiKey, account, names);
    if (problem) return problem;
  }
  return undefined;
}
