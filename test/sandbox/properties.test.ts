// pins: quotes.no-reservation, accounts.isolation, withdrawals.fees
// Properties of the sandbox over random sequences of operations on several keys (quotes, accepts, deposits, crypto
// and bank withdrawals, settlements, reads, clock advances, rate changes, accounts put and deleted, the state
// restored into a new sandbox mid-way), checked against a small model of what the sandbox must do:
//   - no money is created or destroyed except by configuration: every balance is its account's starting balance
//     plus its history (deposits in, withdrawals and their fees out, refunds of failed ones back), each trade
//     moves exactly its amount out and its amountReceived in, each withdrawal settles once (by a test or when the
//     clock reaches its moment) and every deposit and withdrawal state has its webhook in the outbox;
//   - no quote is accepted twice or after its expiry (each accept's status is the model's);
//   - no key sees another's data (ids in a key's answers are that key's; another's id is not found);
//   - every answer passes the contract validator, and no answer is a 500;
//   - no amount or balance goes beyond the largest the sandbox keeps exact (choices.ts, "money.exact"): quotes and
//     balances near and beyond it are generated, and each refusal is the model's.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_MINOR_UNITS, REFUSAL_STATUS, WITHDRAWAL_SETTLEMENT } from "../../src/sandbox/rules.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { successExample, RATE_LIMIT_HEADERS } from "../support/spec.js";
import { type Answer, api, control, newSandbox, thrownBy } from "./support/sandbox.js";

const KEYS = ["key-a", "key-b", "__proto__"] as const;
type Key = (typeof KEYS)[number];

const currencies = successExample("getCurrencies").data as Array<{ code: string; maximumDecimalPlaces: number }>;
const decimals = Object.fromEntries(currencies.map((currency) => [currency.code, currency.maximumDecimalPlaces]));
const ngnxRate = (
  successExample("getFiatRates").data as Array<{ currency: string; buyRate: number; sellRate: number }>
).find((rate) => rate.currency === "NGNX")!;
const documented = successExample("getMyWallets").data as Array<{ availableBalance: number; currency: any }>;
const toMinor = (code: string, amount: number) => Math.round(Number((amount * 10 ** decimals[code]!).toPrecision(15)));
const defaultMinor = () =>
  Object.fromEntries(
    currencies.map(({ code }) => [
      code,
      toMinor(code, documented.find((w) => w.currency.code === code)?.availableBalance ?? 0),
    ]),
  );

type Command =
  | { kind: "quote"; key: Key; side: "SELL" | "BUY"; cents: number }
  | { kind: "accept"; key: Key; pick: number }
  | {
      kind: "read";
      key: Key;
      what: "wallets" | "transactions" | "trades" | "summary" | "someone's transaction" | "deposits" | "payouts";
      pick: number;
    }
  | { kind: "deposit"; key: Key; cents: number }
  | { kind: "withdraw"; key: Key; bank: boolean; cents: number; goodAddress: boolean }
  | { kind: "settle"; pick: number; failed: boolean }
  | { kind: "advance"; ms: number }
  | { kind: "rates"; sellRate: number; buyRate: number }
  | { kind: "put"; key: Key; usdtCents: number; ngnxKobo: number }
  | { kind: "delete"; key: Key }
  | { kind: "restore" };

const key = fc.constantFrom(...KEYS);
/** Amounts in hundredths: mostly within the default balances, sometimes far beyond them. */
const cents = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 20_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 30_000_000 }) },
);
/** A quote's amount in hundredths: as `cents`, or far beyond any balance, up to beyond the largest amount. */
const quoteCents = fc.oneof(
  { weight: 5, arbitrary: cents },
  { weight: 1, arbitrary: fc.integer({ min: 100_000_000_000, max: Number.MAX_SAFE_INTEGER }) },
  { weight: 1, arbitrary: fc.constantFrom(1e20, 1e308) }, // 1e306 sold: a received amount past any double
);
/** The largest USDT balance (choices.ts, "money.exact"), as the sandbox writes it and in hundredths. */
const LARGEST_USDT = (MAX_MINOR_UNITS / 10 ** decimals.USDT!).toFixed(decimals.USDT!);
const LARGEST_USDT_CENTS = Math.floor(MAX_MINOR_UNITS / 10 ** (decimals.USDT! - 2));
/** A USDT balance put, in hundredths: small, or within 10 USDT of the largest either side. */
const usdtCents = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 1_000_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: LARGEST_USDT_CENTS - 1000, max: LARGEST_USDT_CENTS + 1000 }) },
);
/** Which quote an accept names: the key's latest (-1), the n-th of all keys' quotes, or an unknown one. */
const pick = fc.oneof({ weight: 3, arbitrary: fc.constant(-1) }, { weight: 2, arbitrary: fc.nat() });
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("quote"),
      key,
      side: fc.constantFrom("SELL", "BUY"),
      cents: quoteCents,
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("accept"), key, pick }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("read"),
      key,
      what: fc.constantFrom(
        "wallets",
        "transactions",
        "trades",
        "summary",
        "someone's transaction",
        "deposits",
        "payouts",
      ),
      pick: fc.nat(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("deposit"), key, cents }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("withdraw"),
      key,
      bank: fc.boolean(),
      cents,
      goodAddress: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("settle"), pick: fc.nat(), failed: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("advance"),
      ms: fc.oneof(
        fc.integer({ min: 0, max: 40_000 }),
        fc.constant(30_000),
        fc.constant(WITHDRAWAL_SETTLEMENT.settleAfterMs),
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("rates"),
      sellRate: fc.integer({ min: 1, max: 300_000 }).map((n) => n / 100),
      buyRate: fc.integer({ min: 1, max: 300_000 }).map((n) => n / 100),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("put"),
      key,
      usdtCents,
      ngnxKobo: fc.integer({ min: 0, max: 1_000_000_000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete"), key }) },
  { weight: 1, arbitrary: fc.constant({ kind: "restore" as const }) },
);

interface ModelQuote {
  id: string;
  key: Key;
  source: string;
  target: string;
  amountMinor: number;
  receivedMinor: number;
  expiresAt: number;
  accepted: boolean;
}

interface ModelWithdrawal {
  id: string;
  key: Key;
  code: string;
  amountMinor: number;
  feeMinor: number;
  settleAt: number;
  settled: boolean;
}

/** What the sandbox must hold: balances (minor units) and starting balances per key, quotes, ids per key. */
class Model {
  balances = new Map<Key, Record<string, number>>();
  starting = new Map<Key, Record<string, number>>();
  quotes: ModelQuote[] = [];
  transactionIds = new Map<Key, Set<string>>();
  tradeIds = new Map<Key, Set<string>>();
  withdrawals: ModelWithdrawal[] = [];
  /** How many webhooks each key's outbox holds (a deposit's, each state of a withdrawal). */
  webhooks = new Map<Key, number>();
  /** NGNX's rates in hundredths: the contract's example (1652.4 and 1611.8) until a test sets others. */
  rates = { buyHundredths: Math.round(ngnxRate.buyRate * 100), sellHundredths: Math.round(ngnxRate.sellRate * 100) };

  /** The account of `key` as the sandbox makes it on first use. */
  touch(key: Key) {
    if (!this.balances.has(key)) this.reset(key, defaultMinor());
  }
  reset(key: Key, balances: Record<string, number>) {
    this.balances.set(key, { ...balances });
    this.starting.set(key, { ...balances });
    this.quotes = this.quotes.filter((quote) => quote.key !== key);
    this.withdrawals = this.withdrawals.filter((withdrawal) => withdrawal.key !== key);
    this.webhooks.set(key, 0);
    this.transactionIds.set(key, new Set());
    this.tradeIds.set(key, new Set());
  }
  /** What the pending withdrawals of `key` from its `code` wallet would return if they failed (minor units). */
  refundable(key: Key, code: string): number {
    const pending = this.withdrawals.filter((w) => w.key === key && w.code === code && !w.settled);
    return pending.reduce((sum, w) => sum + w.amountMinor + w.feeMinor, 0);
  }
  /** Whether crediting `key`'s `code` wallet `minor` would take it beyond the largest balance. */
  beyondLargest(key: Key, code: string, minor: number): boolean {
    return this.balances.get(key)![code]! + this.refundable(key, code) + minor > MAX_MINOR_UNITS;
  }
  forget(key: Key) {
    this.reset(key, {});
    this.balances.delete(key);
  }
}

/** The checks every answer gets: the contract, and no 500. */
function conforming(answer: Answer, what: string): Answer {
  expect({ what, status: answer.status, violations: answer.violations }).toEqual({
    what,
    status: answer.status,
    violations: [],
  });
  expect(answer.status).not.toBe(500);
  return answer;
}

/** Runs one command against the sandbox and the model, checking what the model predicts. */
async function step(context: { sandbox: Sandbox & { bugs: string[] }; model: Model }, command: Command) {
  const { model } = context;
  const sandbox = context.sandbox;
  if (command.kind === "advance") {
    const now = sandbox.clock.advance(command.ms);
    // Withdrawals whose moment the clock reached settle with the registered outcome (SUCCESSFUL: nothing returns).
    for (const withdrawal of model.withdrawals)
      if (!withdrawal.settled && withdrawal.settleAt <= now) settleInModel(model, withdrawal, false);
  } else if (command.kind === "deposit") await depositStep(sandbox, model, command);
  else if (command.kind === "withdraw") await withdrawStep(sandbox, model, command);
  else if (command.kind === "settle") await settleStep(sandbox, model, command);
  else if (command.kind === "rates") {
    sandbox.setRates({ fiat: [{ currency: "NGNX", buyRate: command.buyRate, sellRate: command.sellRate }] });
    model.rates = {
      buyHundredths: Math.round(command.buyRate * 100),
      sellHundredths: Math.round(command.sellRate * 100),
    };
  } else if (command.kind === "put") {
    const balances = { USDT: command.usdtCents / 100, NGNX: command.ngnxKobo / 100 };
    const beyond = balances.USDT * 10 ** decimals.USDT! > MAX_MINOR_UNITS;
    const thrown = thrownBy(() => sandbox.putAccount(command.key, { balances }));
    expect({ balances, refused: thrown?.message }).toEqual({
      balances,
      refused: beyond ? expect.stringContaining(`the balance of USDT has more than ${LARGEST_USDT} USDT`) : undefined,
    });
    if (!beyond) model.reset(command.key, { USDT: toMinor("USDT", balances.USDT), NGNX: command.ngnxKobo });
  } else if (command.kind === "delete") {
    expect(sandbox.deleteAccount(command.key)).toBe(model.balances.has(command.key));
    model.forget(command.key);
  } else if (command.kind === "quote") await quoteStep(sandbox, model, command);
  else if (command.kind === "accept") await acceptStep(sandbox, model, command);
  else if (command.kind === "read") await readStep(sandbox, model, command);
}

const TRX_ADDRESS = `T${"A".repeat(33)}`;
const BANK = { accountNumber: "0123456789", accountName: "Jane Doe", bankName: "OPAY", bankCode: "999992" };

async function depositStep(sandbox: Sandbox, model: Model, command: Command & { kind: "deposit" }) {
  const amount = command.cents / 100;
  const body = { apiKey: command.key, currency: "USDT", network: "TRX", amount };
  const answer = await control(sandbox, "POST", "/_sandbox/deposits", body);
  // TRX's minimumDeposit is 1 USDT in the contract's example; a key never used has no account.
  const expected = !model.balances.has(command.key)
    ? 404
    : amount < 1 || model.beyondLargest(command.key, "USDT", toMinor("USDT", amount))
      ? 400
      : 201;
  expect({ body, status: answer.status }).toEqual({ body, status: expected });
  if (answer.status !== 201) return;
  model.balances.get(command.key)!.USDT! += toMinor("USDT", amount);
  model.transactionIds.get(command.key)!.add(answer.body.id);
  model.webhooks.set(command.key, model.webhooks.get(command.key)! + 1);
}

/**
 * The registered outcome of a withdrawal request: USDT on TRX (minimum 10, fee 1 FLAT, at most 250 000) or NGNX to
 * a bank (minimum 1000, 0.5 % capped at 2000, at most 20 000 000), from the contract's example catalogue.
 */
function withdrawalTerms(model: Model, command: Command & { kind: "withdraw" }) {
  const code = command.bank ? "NGNX" : "USDT";
  const amount = command.bank ? command.cents : command.cents / 100;
  const amountMinor = toMinor(code, amount);
  const feeMinor = command.bank ? Math.min(Math.round((amountMinor * 0.5) / 100), 200_000) : toMinor("USDT", 1);
  const [minimum, maximum] = command.bank ? [1000, 20_000_000] : [10, 250_000];
  const held = model.balances.get(command.key)![code]!;
  const status =
    !command.bank && !command.goodAddress
      ? REFUSAL_STATUS.invalidWithdrawal
      : amount < minimum || amount > maximum
        ? REFUSAL_STATUS.invalidWithdrawal
        : held < amountMinor + feeMinor
          ? REFUSAL_STATUS.balanceTooLow
          : 200;
  return { code, amount, amountMinor, feeMinor, status };
}

async function withdrawStep(sandbox: Sandbox, model: Model, command: Command & { kind: "withdraw" }) {
  model.touch(command.key);
  const terms = withdrawalTerms(model, command);
  const body = command.bank
    ? { amount: terms.amount, currency: "NGNX", destination: BANK }
    : {
        amount: terms.amount,
        currency: "USDT",
        destination: { address: command.goodAddress ? TRX_ADDRESS : "T0", network: "TRX" },
      };
  const path = command.bank ? "/wallets/ext/debit/fiat" : "/wallets/ext/debit/crypto";
  const answer = conforming(await api(sandbox, "POST", path, body, { key: command.key }), "withdraw");
  expect({ body, status: answer.status }).toEqual({ body, status: terms.status });
  if (answer.status !== 200) return;
  const { id } = answer.body.data;
  if (command.bank) expect(toMinor("NGNX", answer.body.data.payout.fee)).toBe(terms.feeMinor);
  model.balances.get(command.key)![terms.code]! -= terms.amountMinor + terms.feeMinor;
  model.transactionIds.get(command.key)!.add(id);
  model.webhooks.set(command.key, model.webhooks.get(command.key)! + 1);
  const settleAt = sandbox.clock.now() + WITHDRAWAL_SETTLEMENT.settleAfterMs;
  model.withdrawals.push({ id, key: command.key, ...terms, settleAt, settled: false });
}

/** A withdrawal settled: one more webhook; a FAILED one returns its amount and fee. */
function settleInModel(model: Model, withdrawal: ModelWithdrawal, failed: boolean) {
  withdrawal.settled = true;
  model.webhooks.set(withdrawal.key, model.webhooks.get(withdrawal.key)! + 1);
  if (failed) model.balances.get(withdrawal.key)![withdrawal.code]! += withdrawal.amountMinor + withdrawal.feeMinor;
}

async function settleStep(sandbox: Sandbox, model: Model, command: Command & { kind: "settle" }) {
  const picked = model.withdrawals[command.pick % (model.withdrawals.length + 1)];
  const id = picked?.id ?? "no-such-withdrawal";
  const status = command.failed ? "FAILED" : "SUCCESSFUL";
  const answer = await control(sandbox, "POST", `/_sandbox/withdrawals/${id}/settle`, { status });
  expect({ id, status: answer.status }).toEqual({ id, status: !picked ? 404 : picked.settled ? 409 : 200 });
  if (answer.status === 200) settleInModel(model, picked!, command.failed);
}

/**
 * `numerator / denominator` (both positive) rounded to 15 significant digits, then down to a whole number, in exact
 * integer arithmetic: the register's "floor at 15 digits" (choices.ts, "quotes.rounding"), so that 0.29 × 100 is
 * 29, while the float product is 28.999999999999996.
 */
function floorAt15Digits(numerator: bigint, denominator: bigint): bigint {
  let digits = 0; // the number of digits of the whole part, or less than 1 for a value below 1
  for (let whole = numerator / denominator; whole > 0n; whole /= 10n) digits += 1;
  if (digits === 0) for (let n = numerator * 10n; n < denominator; n *= 10n) digits -= 1;
  const shift = 15 - digits; // 10^shift scales the value to 15 digits before the point
  const [scaledN, scaledD] =
    shift >= 0 ? [numerator * 10n ** BigInt(shift), denominator] : [numerator, denominator * 10n ** BigInt(-shift)];
  const rounded = (2n * scaledN + scaledD) / (2n * scaledD); // half up
  return shift >= 0 ? rounded / 10n ** BigInt(shift) : rounded * 10n ** BigInt(-shift);
}

async function quoteStep(sandbox: Sandbox, model: Model, command: Command & { kind: "quote" }) {
  model.touch(command.key);
  // The pair is USDT/NGNX; SELL pays USDT, BUY pays NGNX (the clients' reading, choices.ts "quotes.sides").
  const [paid, received] = command.side === "SELL" ? ["USDT", "NGNX"] : ["NGNX", "USDT"];
  const amount = command.cents / 100;
  const body = { sourceId: "USDT", targetId: "NGNX", amount, side: command.side };
  const answer = conforming(await api(sandbox, "POST", "/trades/quote", body, { key: command.key }), "quote");
  // Exact: SELL receives cents/100 × rate kobo×100; BUY receives cents/100 ÷ rate × 10^6 micro-USDT.
  const rate = command.side === "SELL" ? model.rates.sellHundredths : model.rates.buyHundredths;
  const cents = BigInt(command.cents);
  const minor =
    command.side === "SELL"
      ? floorAt15Digits(cents * BigInt(rate), 100n)
      : floorAt15Digits(cents * 10n ** BigInt(decimals.USDT!), BigInt(rate));
  const expected =
    amount * 10 ** decimals[paid]! > MAX_MINOR_UNITS || minor === 0n || minor > BigInt(MAX_MINOR_UNITS)
      ? REFUSAL_STATUS.invalidQuoteRequest
      : 200;
  expect({ body, status: answer.status }).toEqual({ body, status: expected });
  if (answer.status !== 200) return;
  const quote = answer.body.data;
  expect({ rate: quote.rate, minor: toMinor(received, quote.amountReceived) }).toEqual({
    rate: rate / 100,
    minor: Number(minor),
  });
  model.quotes.push({
    id: quote.id,
    key: command.key,
    source: paid,
    target: received,
    amountMinor: toMinor(paid, quote.amount),
    receivedMinor: Number(minor),
    expiresAt: Date.parse(quote.expiryDate),
    accepted: false,
  });
}

async function acceptStep(sandbox: Sandbox, model: Model, command: Command & { kind: "accept" }) {
  model.touch(command.key);
  const own = model.quotes.filter((quote) => quote.key === command.key);
  const picked = command.pick < 0 ? own.at(-1) : model.quotes[command.pick % (model.quotes.length + 1)];
  const id = picked?.id ?? "qt_unknown00000000";
  const answer = conforming(await api(sandbox, "POST", `/trades/quote/${id}`, {}, { key: command.key }), "accept");
  const balances = model.balances.get(command.key)!;
  const expected =
    !picked || picked.key !== command.key
      ? REFUSAL_STATUS.notFound
      : picked.accepted
        ? REFUSAL_STATUS.quoteAccepted
        : sandbox.clock.now() >= picked.expiresAt
          ? REFUSAL_STATUS.quoteExpired
          : balances[picked.source]! < picked.amountMinor
            ? REFUSAL_STATUS.balanceTooLow
            : model.beyondLargest(command.key, picked.target, picked.receivedMinor)
              ? REFUSAL_STATUS.balanceTooHigh
              : 200;
  expect({ id, status: answer.status }).toEqual({ id, status: expected });
  if (answer.status !== 200 || !picked) return;
  picked.accepted = true;
  balances[picked.source]! -= picked.amountMinor;
  balances[picked.target]! += picked.receivedMinor;
  model.tradeIds.get(command.key)!.add(answer.body.data.id);
  // The trade's two transactions, so that other keys can ask for them by id.
  const latest = await api(sandbox, "GET", "/transactions/me?pageSize=2", undefined, { key: command.key });
  for (const transaction of conforming(latest, "latest transactions").body.data)
    model.transactionIds.get(command.key)!.add(transaction.id);
}

async function readStep(sandbox: Sandbox, model: Model, command: Command & { kind: "read" }) {
  model.touch(command.key);
  const get = async (path: string) =>
    conforming(await api(sandbox, "GET", path, undefined, { key: command.key }), path);
  if (command.what === "wallets") {
    const wallets = (await get("/wallets/me")).body.data;
    const held = Object.fromEntries(
      wallets.map((w: any) => [w.currency.code, toMinor(w.currency.code, w.availableBalance)]),
    );
    expect(held).toEqual(model.balances.get(command.key));
  } else if (command.what === "transactions") {
    const transactions = (await get("/transactions/me?pageSize=100000")).body.data;
    for (const transaction of transactions) model.transactionIds.get(command.key)!.add(transaction.id);
    expect(everyBalanceIsItsHistory(model, command.key, transactions)).toBe(true);
  } else if (command.what === "trades") {
    const trades = (await get("/trades/me?pageSize=100000")).body.data;
    expect(new Set(trades.map((trade: any) => trade.id))).toEqual(model.tradeIds.get(command.key));
  } else if (command.what === "summary") {
    const trades = (await get("/trades/me?pageSize=100000")).body.data;
    const cents = trades.reduce((sum: number, trade: any) => sum + Math.round(trade.dollarValue * 100), 0);
    expect((await get("/trades/summary/me")).body.data.totalDollarVolume).toBe(cents / 100);
  } else if (command.what === "deposits" || command.what === "payouts") {
    const listed = (await get(`/transactions/${command.what === "deposits" ? "deposits" : "withdrawals"}/me`)).body;
    expect(listed.meta.total).toBe(listed.data.length);
    for (const transaction of listed.data)
      expect(model.transactionIds.get(command.key)!.has(transaction.id)).toBe(true);
    const pending = model.withdrawals.filter((w) => w.key === command.key && !w.settled && w.code === "NGNX");
    if (command.what === "payouts")
      expect(
        listed.data
          .filter((t: any) => t.payout.status === "APPROVED")
          .map((t: any) => t.id)
          .sort(),
      ).toEqual(pending.map((w) => w.id).sort());
  } else {
    const everyone = [...model.transactionIds].flatMap(([owner, ids]) => [...ids].map((id) => ({ owner, id })));
    const picked = everyone[command.pick % Math.max(1, everyone.length)] ?? { owner: undefined, id: "no-such-id" };
    const answer = await get(`/transactions/${picked.id}`);
    expect(answer.status).toBe(picked.owner === command.key ? 200 : REFUSAL_STATUS.notFound);
  }
}

/**
 * Whether each wallet of `key` is its starting balance plus its transactions (and the model's balance): a
 * withdrawal's fee leaves with it (its transaction shows the amount), a refund returns amount and fee.
 */
function everyBalanceIsItsHistory(model: Model, key: Key, transactions: any[]): boolean {
  const sums: Record<string, number> = { ...model.starting.get(key) };
  const fees = new Map(model.withdrawals.map((withdrawal) => [withdrawal.id, withdrawal.feeMinor]));
  for (const transaction of transactions) {
    const code = currencies.find((currency) => (currency as any).id === transaction.wallet.currencyId)!.code;
    const minor = toMinor(code, transaction.amount);
    sums[code]! += transaction.type === "CREDIT" ? minor : -minor - (fees.get(transaction.id) ?? 0);
  }
  return JSON.stringify(sums) === JSON.stringify(model.balances.get(key));
}

describe("sandbox properties", () => {
  it("keeps money, quotes, keys and the contract over random sequences of operations", {
    timeout: 120_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 40 }), async (commands) => {
        const limits = { requestsPerMinute: 1_000_000, quotesPerHour: 1_000_000 };
        const context = { sandbox: newSandbox({ limits }), model: new Model() };
        for (const command of commands) {
          if (command.kind === "restore") {
            const next = newSandbox({ limits });
            next.restore(JSON.parse(JSON.stringify(context.sandbox.snapshot())));
            context.sandbox = next;
          } else await step(context, command);
        }
        for (const key of context.model.balances.keys()) {
          await readStep(context.sandbox, context.model, { kind: "read", key, what: "transactions", pick: 0 });
          expect((await context.sandbox.webhooks.list(key)).length).toBe(context.model.webhooks.get(key));
        }
        expect(context.sandbox.bugs).toEqual([]);
      }),
      {
        numRuns: 100,
        // Found by a run (seed 667711637): the float quotient of this BUY sat a minor unit under the exact one.
        examples: [
          [
            [
              { kind: "quote", key: "key-a", side: "BUY", cents: 129091991550194 },
              { kind: "withdraw", key: "key-a", bank: false, cents: 1, goodAddress: false },
            ] as Command[],
          ],
        ],
      },
    );
  });
});

type LimitCommand = { kind: "request"; key: Key; quote: boolean } | { kind: "advance"; ms: number } | { kind: "wait" };

const limitCommand: fc.Arbitrary<LimitCommand> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("request"), key, quote: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("advance"), ms: fc.integer({ min: 0, max: 4_000_000 }) }) },
  // A client that honours the headers: the clock moved to the last answer's X-RateLimit-Reset second.
  { weight: 1, arbitrary: fc.constant({ kind: "wait" as const }) },
);

describe("rate-limit properties", () => {
  it("refuses exactly the requests past a limit in its window, and the headers say what is left and when", async () => {
    const perMinute = 5;
    const quotesPerHour = 3;
    /** A whole second (2026-11-26T10:00:00Z); each run's clock starts 0 to 999 ms after it. */
    const wholeSecond = Date.UTC(2026, 10, 26, 10, 0, 0);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 999 }),
        fc.array(limitCommand, { minLength: 1, maxLength: 40 }),
        async (startMs, commands) => {
          const sandbox = newSandbox({
            clock: { start: wholeSecond + startMs },
            limits: { requestsPerMinute: perMinute, quotesPerHour },
          });
          // The model's windows by key and limit: opened at the first counted request, open for the limit's period.
          const windows = new Map<string, { opened: number; count: number }>();
          let now = wholeSecond + startMs;
          let lastReset: number | undefined;
          const size = (name: string) => (name.endsWith("hour") ? 3_600_000 : 60_000);
          const openWindow = (name: string) => {
            const open = windows.get(name);
            return open && now < open.opened + size(name) ? open : undefined;
          };
          const countOf = (name: string) => openWindow(name)?.count ?? 0;
          const count = (name: string) => {
            const open = openWindow(name) ?? { opened: now, count: 0 };
            open.count += 1;
            windows.set(name, open);
          };
          /** The reset of a window: the first whole second (Unix seconds) at or after its end. */
          const resetOf = (name: string) => {
            const end = openWindow(name)!.opened + size(name);
            const second = Math.floor(end / 1000);
            return second * 1000 >= end ? second : second + 1;
          };
          const advance = (ms: number) => {
            now += ms;
            sandbox.clock.advance(ms);
          };
          for (const command of commands) {
            if (command.kind === "advance") advance(command.ms);
            if (command.kind === "wait" && lastReset !== undefined) advance(Math.max(0, lastReset * 1000 - now));
            if (command.kind !== "request") continue;
            const minute = `${command.key} minute`;
            const hour = `${command.key} hour`;
            const minuteSpent = countOf(minute) >= perMinute;
            const spent = minuteSpent || (command.quote && countOf(hour) >= quotesPerHour);
            const answer = command.quote
              ? await api(
                  sandbox,
                  "POST",
                  "/trades/quote",
                  { sourceId: "USDT", targetId: "NGNX", amount: 1, side: "SELL" },
                  { key: command.key },
                )
              : await api(sandbox, "GET", "/currencies/fiat-rates", undefined, { key: command.key });
            conforming(answer, "limited request");
            expect(answer.status).toBe(spent ? 429 : 200);
            if (!spent) {
              count(minute);
              if (command.quote) count(hour);
            }
            const left = Number(answer.headers.get(RATE_LIMIT_HEADERS.remaining));
            const minuteLeft = perMinute - countOf(minute);
            const hourLeft = quotesPerHour - countOf(hour);
            const expectedLeft = command.quote ? Math.min(minuteLeft, hourLeft) : minuteLeft;
            expect(left).toBe(Math.max(0, expectedLeft));
            // The limit the headers describe: refused, the first one spent (the minute's before the hour's);
            // answered, the one with the fewest requests left (the minute's on a tie).
            const described = spent
              ? minuteSpent
                ? minute
                : hour
              : command.quote && hourLeft < minuteLeft
                ? hour
                : minute;
            lastReset = Number(answer.headers.get(RATE_LIMIT_HEADERS.reset));
            expect(lastReset).toBe(resetOf(described));
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
