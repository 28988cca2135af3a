// The flows of verify on money in and out: deposit addresses (their values, the pairs refused), simulated deposits,
// the checks and the settlement of withdrawals, payouts and the records of withdrawals, and the filters of the
// deposit, payout and history lists. Each checks the register's rules as a user sees them through the API. Those that
// need the control API (a deposit, a settlement, an account with chosen balances) run on the package's sandbox, on an
// account of their own, deleted after; the list readers also run on a deployment, over the run's own account.
import { openApiDocument } from "../../contract/bundled.js";
import { exampleData } from "../../sandbox/catalogue.js";
import { SandboxControlError } from "../../sandbox/control-client.js";
import {
  ACCOUNT_NUMBER_MASK,
  ADDRESS_FALLBACK,
  CHAIN_HASH_HEX_DIGITS,
  DATED_REFERENCE_CHARACTERS,
  DEPOSIT_REFUSAL,
  DEPOSIT_STATUS,
  EXTERNAL_REFERENCE_FORM,
  REFUSAL_STATUS,
  SETTLE_REFUSAL,
  WITHDRAWAL_SETTLEMENT,
  isWithdrawalFinal,
} from "../../sandbox/rules.js";
import { unfitToRead } from "./account-flows.js";
import { expectStatus, type FlowAnswer, type FlowContext, FlowFailure } from "./context.js";
import { unfitWithoutControl, withOwnAccount } from "./sandbox-flows.js";
import { type Flow, type FlowFitness, same } from "./trade-flows.js";
import type { SandboxDepositRequest } from "../../sandbox/money/index.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HASH = new RegExp(`^[0-9a-f]{${CHAIN_HASH_HEX_DIGITS}}$`);
const FALLBACK_ADDRESS = new RegExp(`^${ADDRESS_FALLBACK.prefix}[0-9a-fA-F]{${ADDRESS_FALLBACK.hexDigits}}$`);
/** A network code no catalogue has: a pair that is not active. */
const NO_NETWORK = "API-CONTRACT-VERIFY-NONE";
/** An address no account was given. */
const NOT_GIVEN = "api-contract-verify-not-given";
/** A page that holds a whole list (lists.pagination's walk uses the same). */
const WHOLE = "page=1&pageSize=1000";

// ---------------------------------------------------------------------------------------------------------------
// What the catalogue says, read through the API.

interface ActiveNetwork {
  currency: string;
  networkCode: string;
  minimumDeposit?: number;
  depositFee?: number;
  receiveFeeType?: string;
  isReceivable?: boolean;
}

interface Currency {
  id: string;
  code: string;
  type?: string;
  maximumDecimalPlaces?: number;
  withdrawable?: boolean;
  minimumWithdrawal?: number;
  maximumWithdrawal?: number;
  maximumDeposit?: number;
  withdrawalFee?: number;
}

interface WithdrawalNetwork {
  code: string;
  addressRegex?: string | null;
  memoRegex?: string | null;
  fee?: number;
  feeType?: string;
  minimum?: number;
}

/** Every network of Get Active Networks, with its currency. */
async function activeNetworks(context: FlowContext): Promise<ActiveNetwork[]> {
  const answer = expectStatus(await context.call("GET", "/currencies/networks/active"), 200, "(active networks)");
  return Object.entries(answer.body.data as Record<string, { networks?: ActiveNetwork[] }>).flatMap(
    ([currency, entry]) => (entry.networks ?? []).map((network) => ({ ...network, currency })),
  );
}

async function currencies(context: FlowContext): Promise<Currency[]> {
  return expectStatus(await context.call("GET", "/currencies"), 200, "(the currencies)").body.data;
}

async function withdrawalNetworks(context: FlowContext, currency: Currency): Promise<WithdrawalNetwork[]> {
  const path = `/currencies/${encodeURIComponent(currency.id)}/networks`;
  return expectStatus(await context.call("GET", path), 200, "(withdrawal networks)").body.data;
}

/** The smallest amount of a currency: one unit of its last decimal. */
const unitOf = (currency: Currency) => 10 ** -(currency.maximumDecimalPlaces ?? 6);

/** A receivable network with a FLAT deposit fee, its currency, and the least deposit it takes with its fee. */
async function depositRoute(context: FlowContext) {
  const [networks, all] = [await activeNetworks(context), await currencies(context)];
  const network = networks.find((n) => n.isReceivable !== false && (n.receiveFeeType ?? "FLAT") === "FLAT");
  const currency = all.find((c) => c.code === network?.currency);
  if (!network || !currency) throw new FlowFailure("GET /currencies/networks/active lists no receivable network");
  const fee = network.depositFee ?? 0;
  const amount = Math.max(1, network.minimumDeposit ?? 0) + fee;
  return { network, currency, all, networks, fee, amount };
}

/** A crypto currency and a FLAT-fee withdrawal network it also takes deposits on (its addresses pass its regex). */
async function withdrawalRoute(context: FlowContext) {
  const [active, all] = [await activeNetworks(context), await currencies(context)];
  for (const currency of all.filter((c) => c.type !== "FIAT" && c.withdrawable !== false)) {
    const networks = await withdrawalNetworks(context, currency);
    const network = networks.find(
      (n) =>
        (n.feeType ?? "FLAT") === "FLAT" &&
        active.some((a) => a.currency === currency.code && a.networkCode === n.code && a.isReceivable !== false),
    );
    if (!network) continue;
    const amount = Math.max(1, currency.minimumWithdrawal ?? 0, network.minimum ?? 0);
    return { currency, network, networks, active, all, amount, fee: network.fee ?? 0 };
  }
  throw new FlowFailure("no crypto currency with a receivable, FLAT-fee withdrawal network");
}

/** The FIAT currency a bank withdrawal pays out, and the least it may withdraw. */
function bankCurrency(all: Currency[]) {
  const currency = all.find((c) => c.type === "FIAT" && c.withdrawable !== false);
  if (!currency) throw new FlowFailure("GET /currencies lists no FIAT currency to pay out to a bank account");
  return { currency, amount: Math.max(1, currency.minimumWithdrawal ?? 0) };
}

/** A bank account to pay out to (the account number ends in 6789: its masked form is checkable by hand). */
const BANK_ACCOUNT = {
  accountNumber: "0123456789",
  accountName: "Api Contract",
  bankName: "Verify Bank",
  bankCode: "058",
};

// ---------------------------------------------------------------------------------------------------------------
// Accounts and the control API.

/** The available balance of each currency of `key`'s account (Get My Wallets). */
async function balancesOf(context: FlowContext, key: string): Promise<Map<string, number>> {
  const answer = expectStatus(await context.call("GET", "/wallets/me", undefined, key), 200, "(the wallets)");
  const wallets = answer.body.data as Array<{ availableBalance: number; currency: { code: string } }>;
  return new Map(wallets.map((wallet) => [wallet.currency.code, wallet.availableBalance]));
}

/** The status a control request was refused with (0: it was not). */
async function refusedWith(request: Promise<unknown>): Promise<number> {
  try {
    await request;
    return 0;
  } catch (error) {
    if (error instanceof SandboxControlError) return error.status;
    throw error;
  }
}

/** Why a flow that makes deposit addresses cannot run (on the sandbox it uses an account of its own). */
function unfitToMakeAddresses(context: FlowFitness): string | undefined {
  if (context.target === "mock") return "the mock keeps no state between requests";
  if (context.target === "deployment" && !context.allowSideEffects)
    return "it makes deposit addresses (allow side effects to run it)";
  return undefined;
}

/** On the sandbox, an account of the flow's own; elsewhere the run's key (undefined). */
async function ownOrRunKey<T>(context: FlowContext, steps: (key: string | undefined) => Promise<T>): Promise<T> {
  return context.control ? withOwnAccount("money", context, {}, steps) : steps(undefined);
}

// ---------------------------------------------------------------------------------------------------------------
// addresses.values

/** The most receivable pairs the flow makes an address on. */
const MAX_ADDRESS_PAIRS = 4;

/** Whether the sandbox builds a value from `regex`: only literals, classes and repeats (no group, |, . or [^…]). */
const followable = (regex: string) => !/[()|.]|\[\^/.test(regex.replace(/\\./g, ""));

/** What is wrong with `value` as an address of a network with `regex`, or undefined. */
function addressProblem(value: string, regex: string | null | undefined): string | undefined {
  if (regex && followable(regex)) return new RegExp(regex).test(value) ? undefined : `does not match ${regex}`;
  return FALLBACK_ADDRESS.test(value) ? undefined : `is not ${ADDRESS_FALLBACK.prefix} and hex (regex ${regex})`;
}

const addressValuesFlow: Flow = {
  name: "address values: each receivable network's address against its addressRegex",
  choices: ["addresses.values"],
  operations: ["getActiveNetworks", "getCurrencies", "getWithdrawalCurrencyNetworks", "createDepositAddress"],
  spend: { requests: 2 + 2 * MAX_ADDRESS_PAIRS, quotes: 0, trades: 0, addresses: MAX_ADDRESS_PAIRS },
  unfit: unfitToMakeAddresses,
  run: (context) =>
    ownOrRunKey(context, async (key) => {
      const pairs = (await activeNetworks(context)).filter((n) => n.isReceivable !== false);
      if (pairs.length === 0) throw new FlowFailure("GET /currencies/networks/active lists no receivable network");
      const all = await currencies(context);
      const regexes = new Map<string, WithdrawalNetwork[]>();
      const problems: string[] = [];
      for (const pair of pairs.slice(0, MAX_ADDRESS_PAIRS)) {
        const currency = all.find((c) => c.code === pair.currency);
        if (currency && !regexes.has(pair.currency))
          regexes.set(pair.currency, await withdrawalNetworks(context, currency));
        const regex = regexes.get(pair.currency)?.find((n) => n.code === pair.networkCode)?.addressRegex;
        const body = { currency: pair.currency, network: pair.networkCode };
        const made = expectStatus(await context.call("POST", "/addresses/broker", body, key), 200, "(an address)");
        const problem = addressProblem(made.body.data.value, regex);
        if (problem) problems.push(`${made.exchange}: ${made.body.data.value} ${problem}`);
      }
      context.check("addresses.values", problems.length === 0, problems.join("; "));
    }),
};

// ---------------------------------------------------------------------------------------------------------------
// addresses.not-receivable

const notReceivableFlow: Flow = {
  name: "address refused: a pair not receivable, and one not active",
  choices: ["addresses.not-receivable"],
  operations: ["getActiveNetworks", "createDepositAddress", "getDepositAddresses"],
  // A target that does not refuse them makes two addresses.
  spend: { requests: 5, quotes: 0, trades: 0, addresses: 2 },
  unfit: unfitToMakeAddresses,
  run: (context) =>
    ownOrRunKey(context, async (key) => {
      const networks = await activeNetworks(context);
      const first = networks[0];
      if (!first) throw new FlowFailure("GET /currencies/networks/active lists no network");
      const closed = networks.find((n) => n.isReceivable === false);
      const pairs = [{ currency: first.currency, network: NO_NETWORK }];
      if (closed) pairs.push({ currency: closed.currency, network: closed.networkCode });
      const list = async () =>
        expectStatus(await context.call("GET", "/addresses/me/broker", undefined, key), 200, "(the addresses)");
      const before = await list();
      const answers: FlowAnswer[] = [];
      for (const pair of pairs) answers.push(await context.call("POST", "/addresses/broker", pair, key));
      const after = await list();
      const refused = answers.every((answer) => answer.status === REFUSAL_STATUS.notReceivable);
      const nothingMade = JSON.stringify(after.body.data) === JSON.stringify(before.body.data);
      const evidence = `${answers.map((a) => a.exchange).join("; ")}; addresses unchanged: ${nothingMade}`;
      context.check("addresses.not-receivable", refused && nothingMade, evidence);
    }),
};

// ---------------------------------------------------------------------------------------------------------------
// deposits

/** A hash given to a deposit, to be found on it as given. */
const GIVEN_HASH = "ab".repeat(CHAIN_HASH_HEX_DIGITS / 2);

/** The dollar rate of `code` as quotes read it (the sandbox's rates: a dollar rate, else 1 / the fiat sellRate). */
async function dollarRateOf(context: FlowContext, code: string): Promise<number> {
  const rates = await context.control!.rates();
  const fiat = rates.fiat.find((rate) => rate.currency === code);
  return rates.dollar[code] ?? (fiat ? Number((1 / fiat.sellRate).toFixed(8)) : 0);
}

/** What is wrong with the deposit `id` as Get Transaction shows it, or undefined. */
async function depositProblem(
  context: FlowContext,
  key: string,
  expected: { id: string; currency: string; network: string; fee: number; rate: number; hash?: string; to: string },
): Promise<string | undefined> {
  const read = await context.call("GET", `/transactions/${encodeURIComponent(expected.id)}`, undefined, key);
  const t = expectStatus(read, 200, "(the deposit)").body.data;
  const d = t.deposit ?? {};
  const holds =
    t.type === "CREDIT" &&
    t.category === "DEPOSIT" &&
    UUID.test(t.reference) &&
    t.description === `${expected.currency} deposit on ${expected.network}` &&
    d.status === DEPOSIT_STATUS &&
    same(d.fee, expected.fee) &&
    same(d.dollarRate, expected.rate) &&
    (expected.hash === undefined ? HASH.test(d.hash) : d.hash === expected.hash) &&
    d.destinationAddress === expected.to;
  const seen = `${t.type} ${t.category} "${t.description}", ${d.status}, fee ${d.fee}, rate ${d.dollarRate}`;
  const wanted = `${DEPOSIT_STATUS}, fee ${expected.fee}, rate ${expected.rate}, to ${expected.to}`;
  const hash = `hash ${d.hash}, to ${d.destinationAddress}`;
  return holds ? undefined : `${read.exchange}: ${seen}, ${hash} (expected ${wanted})`;
}

/** The statuses the control API refuses deposits with that the register says it refuses; the problems found. */
async function depositRefusals(context: FlowContext, key: string, route: Awaited<ReturnType<typeof depositRoute>>) {
  const { network, currency, amount } = route;
  const pair = { apiKey: key, currency: currency.code, network: network.networkCode };
  const decimals = currency.maximumDecimalPlaces ?? 6;
  const { invalid, noAccount } = DEPOSIT_REFUSAL;
  const tries: Array<[string, SandboxDepositRequest, number]> = [
    ["with more decimals", { ...pair, amount: amount + 10 ** -(decimals + 1) }, invalid],
    ["to an unknown key", { ...pair, apiKey: `${key}-none`, amount }, noAccount],
    ["to an address not given", { apiKey: key, address: NOT_GIVEN, amount }, invalid],
  ];
  if ((network.minimumDeposit ?? 0) > unitOf(currency))
    tries.push(["below the minimum", { ...pair, amount: network.minimumDeposit! / 2 }, invalid]);
  if ((currency.maximumDeposit ?? 0) > 0)
    tries.push(["above the maximum", { ...pair, amount: currency.maximumDeposit! + 1 }, invalid]);
  const closed = route.networks.find((n) => n.isReceivable === false);
  if (closed)
    tries.push([
      "not receivable",
      { apiKey: key, currency: closed.currency, network: closed.networkCode, amount },
      invalid,
    ]);
  const problems: string[] = [];
  for (const [what, request, want] of tries) {
    const got = await refusedWith(context.control!.deposit(request));
    if (got !== want) problems.push(`a deposit ${what}: sandbox.deposit answered ${got || 200}, not ${want}`);
  }
  return problems;
}

/** The one DEPOSIT webhook each deposit sends, in the account's outbox: the problems found. */
async function depositWebhookProblems(context: FlowContext, key: string, ids: string[]): Promise<string[]> {
  const sent = await context.control!.webhooks(key);
  return ids.flatMap((id) => {
    const of = sent.filter((w) => w.transactionId === id && JSON.parse(w.body).type === "DEPOSIT");
    return of.length === 1 ? [] : [`deposit ${id}: ${of.length} DEPOSIT webhooks`];
  });
}

const depositsFlow: Flow = {
  name: "deposits: two simulated, read back, and those refused",
  choices: ["deposits"],
  operations: [
    "getActiveNetworks",
    "getCurrencies",
    "createDepositAddress",
    "getDepositAddresses",
    "getTransaction",
    "getMyWallets",
  ],
  spend: { requests: 8, quotes: 0, trades: 0, addresses: 1 },
  unfit: (context) => unfitWithoutControl(context, "to simulate deposits"),
  async run(context) {
    const route = await depositRoute(context);
    const { currency, network, fee, amount } = route;
    const rate = await dollarRateOf(context, currency.code);
    await withOwnAccount("money", context, { [currency.code]: 0 }, async (key) => {
      const pair = { apiKey: key, currency: currency.code, network: network.networkCode, amount };
      const expected = { currency: currency.code, network: network.networkCode, fee, rate };
      // No address yet: the deposit makes the account's own; then it goes to the latest of the pair.
      const first = await context.control!.deposit(pair);
      const listed = await context.call("GET", "/addresses/me/broker", undefined, key);
      const own = expectStatus(listed, 200, "(the addresses)").body.data[0]?.value;
      const body = { currency: currency.code, network: network.networkCode, uniqueUserIdentifier: `v-${key}` };
      const made = await context.call("POST", "/addresses/broker", body, key);
      const latest = expectStatus(made, 200, "(an address)").body.data.value;
      const second = await context.control!.deposit({ ...pair, hash: GIVEN_HASH });
      const problems = [
        await depositProblem(context, key, { ...expected, id: first.id, to: own }),
        await depositProblem(context, key, { ...expected, id: second.id, to: latest, hash: GIVEN_HASH }),
      ].filter((problem) => problem !== undefined);
      const balance = (await balancesOf(context, key)).get(currency.code) ?? NaN;
      if (!same(balance, 2 * (amount - fee)))
        problems.push(`${currency.code} holds ${balance} after two deposits of ${amount} less ${fee}`);
      problems.push(...(await depositWebhookProblems(context, key, [first.id, second.id])));
      problems.push(...(await depositRefusals(context, key, route)));
      context.check("deposits", problems.length === 0, problems.join("; "));
    });
  },
};

// ---------------------------------------------------------------------------------------------------------------
// withdrawals.checks

type Route = Awaited<ReturnType<typeof withdrawalRoute>>;

/** The withdrawal requests the register refuses, each with its status (the route's address valid where it is). */
function refusedWithdrawals(route: Route, address: string, bank: ReturnType<typeof bankCurrency>) {
  const { currency, network, amount, active } = route;
  const to = { address, network: network.code };
  const crypto = (change: object, destination: object = to) => ({
    path: "/wallets/ext/debit/crypto",
    body: { amount, currency: currency.code, destination, ...change },
  });
  const bankBody = (change: object) => ({
    path: "/wallets/ext/debit/fiat",
    body: { amount: bank.amount, currency: bank.currency.code, destination: BANK_ACCOUNT, ...change },
  });
  const { notWithdrawable, invalidWithdrawal, balanceTooLow } = REFUSAL_STATUS;
  const elsewhere = active.find((a) => a.currency === currency.code && a.networkCode !== network.code)?.networkCode;
  const minimum = Math.max(network.minimum ?? 0, currency.minimumWithdrawal ?? 0);
  const decimals = currency.maximumDecimalPlaces ?? 6;
  const cases: Array<[string, { path: string; body: object }, number]> = [
    ["its currency by id", crypto({ currency: currency.id }), notWithdrawable],
    [
      "a network not among its withdrawal networks",
      crypto({}, { ...to, network: elsewhere ?? NO_NETWORK }),
      notWithdrawable,
    ],
    ["an address not matching addressRegex", crypto({}, { ...to, address: `x${address}` }), invalidWithdrawal],
    ["an amount of 0", crypto({ amount: 0 }), invalidWithdrawal],
    ["more decimals", crypto({ amount: amount + 10 ** -(decimals + 1) }), invalidWithdrawal],
    ["beyond the balance (amount and fee)", crypto({}), balanceTooLow],
    ["a bank withdrawal of a currency not FIAT", bankBody({ currency: currency.code }), notWithdrawable],
  ];
  if (minimum > unitOf(currency))
    cases.push(["below the minimum", crypto({ amount: minimum - unitOf(currency) }), invalidWithdrawal]);
  if ((currency.maximumWithdrawal ?? 0) > 0)
    cases.push(["above the maximum", crypto({ amount: currency.maximumWithdrawal! + 1 }), invalidWithdrawal]);
  if (bank.amount > unitOf(bank.currency))
    cases.push(["a bank withdrawal below the minimum", bankBody({ amount: bank.amount - 1 }), invalidWithdrawal]);
  if (network.memoRegex)
    cases.push(["a memo not matching memoRegex", crypto({}, { ...to, memo: "\n" }), invalidWithdrawal]);
  return cases;
}

const withdrawalChecksFlow: Flow = {
  name: "withdrawal checks: each refused request, and the state as it was",
  choices: ["withdrawals.checks"],
  operations: [
    "getActiveNetworks",
    "getCurrencies",
    "getWithdrawalCurrencyNetworks",
    "createDepositAddress",
    "requestCryptoWithdrawal",
    "requestBankWithdrawal",
    "getMyWallets",
    "getUserTransactions",
  ],
  // The currencies' withdrawal networks (one per crypto currency tried: the sandbox's catalogue has one).
  spend: { requests: 19, quotes: 0, trades: 0, addresses: 1 },
  unfit: (context) => unfitWithoutControl(context, "an account with chosen balances"),
  async run(context) {
    const route = await withdrawalRoute(context);
    const bank = bankCurrency(route.all);
    // Just short of the amount and its fee: a request that passes every other check is refused for the balance.
    const short = route.amount + route.fee - unitOf(route.currency);
    await withOwnAccount("money", context, { [route.currency.code]: short, [bank.currency.code]: 0 }, async (key) => {
      const where = { currency: route.currency.code, network: route.network.code };
      const made = await context.call("POST", "/addresses/broker", where, key);
      const address = expectStatus(made, 200, "(an address)").body.data.value;
      const state = async () =>
        JSON.stringify([
          [...(await balancesOf(context, key))],
          expectStatus(await context.call("GET", `/transactions/me?${WHOLE}`, undefined, key), 200, "(history)").body
            .data,
        ]);
      const before = await state();
      const problems: string[] = [];
      for (const [what, request, status] of refusedWithdrawals(route, address, bank)) {
        const answer = await context.call("POST", request.path, request.body, key);
        if (answer.status !== status) problems.push(`${what}: ${answer.exchange} (expected ${status})`);
      }
      if ((await state()) !== before) problems.push("the wallets or the history changed after the refusals");
      context.check("withdrawals.checks", problems.length === 0, problems.join("; "));
    });
  },
};

// ---------------------------------------------------------------------------------------------------------------
// withdrawals.settlement

/** How long before its moment the flow looks at a withdrawal: the sandbox's real time runs on meanwhile. */
const BEFORE_SETTLEMENT_MS = 5_000;

/** Moves the sandbox clock forward to `moment` (not back: it only moves forward). */
async function advanceTo(context: FlowContext, moment: number): Promise<void> {
  const { now } = await context.control!.clock();
  await context.control!.advanceClock(Math.max(0, moment - now));
}

/** A bank withdrawal of the least the currency allows, from an account that holds it and any fee. */
async function requestPayout(context: FlowContext, key: string, bank: ReturnType<typeof bankCurrency>) {
  const body = { amount: bank.amount, currency: bank.currency.code, destination: BANK_ACCOUNT };
  const asked = await context.call("POST", "/wallets/ext/debit/fiat", body, key);
  return expectStatus(asked, 200, "(a bank withdrawal its account can pay)");
}

/** What a bank withdrawal needs in its wallet: twice its amount (a percentage fee up to 100 %), and a flat fee. */
const payoutBalance = ({ currency, amount }: ReturnType<typeof bankCurrency>) =>
  2 * amount + (currency.withdrawalFee ?? 0);

// A bank withdrawal: its state shows in Get Transaction's payout (a crypto withdrawal's only in its webhooks).
const settlementFlow: Flow = {
  name: "withdrawal settlement: before its moment, at it, and settled again",
  choices: ["withdrawals.settlement"],
  operations: ["getCurrencies", "requestBankWithdrawal", "getTransaction"],
  spend: { requests: 4, quotes: 0, trades: 0, addresses: 0 },
  unfit: (context) => unfitWithoutControl(context, "to move the sandbox's clock"),
  async run(context) {
    const bank = bankCurrency(await currencies(context));
    await withOwnAccount("money", context, { [bank.currency.code]: payoutBalance(bank) }, async (key) => {
      const withdrawal = (await requestPayout(context, key, bank)).body.data;
      const moment = Date.parse(withdrawal.createdAt) + WITHDRAWAL_SETTLEMENT.settleAfterMs;
      const path = `/transactions/${encodeURIComponent(withdrawal.id)}`;
      const read = async () => expectStatus(await context.call("GET", path, undefined, key), 200, "(the withdrawal)");
      await advanceTo(context, moment - BEFORE_SETTLEMENT_MS);
      const before = await read();
      await advanceTo(context, moment);
      const after = await read();
      const again = await refusedWith(context.control!.settleWithdrawal(withdrawal.id, { status: "FAILED" }));
      const payout = (answer: FlowAnswer) => answer.body.data.payout ?? {};
      const at = new Date(moment).toISOString();
      const holds =
        !isWithdrawalFinal(payout(before).status) &&
        payout(after).status === WITHDRAWAL_SETTLEMENT.outcome &&
        after.body.data.updatedAt === at &&
        again === SETTLE_REFUSAL.settled;
      const evidence =
        `${before.exchange}; ${after.exchange}: ${payout(before).status} ${BEFORE_SETTLEMENT_MS} ms before ${at}, ` +
        `${payout(after).status} updated ${after.body.data.updatedAt} at it (expected ` +
        `${WITHDRAWAL_SETTLEMENT.outcome} updated ${at}); settled again: ${again || 200} ` +
        `(expected ${SETTLE_REFUSAL.settled})`;
      context.check("withdrawals.settlement", holds, evidence);
    });
  },
};

// ---------------------------------------------------------------------------------------------------------------
// withdrawals.payouts and withdrawals.records

/** The description of the published crypto withdrawal sample, which the register gives every withdrawal. */
const SAMPLE_DESCRIPTION = String(
  (exampleData(openApiDocument, "requestCryptoWithdrawal") as { description?: unknown }).description,
);

interface Payout {
  bankAccount?: { accountNumber?: string };
  transferReference?: string;
  externalReference?: string;
}

/** What is wrong with a payout as the payouts list shows it and as its request answered it, or undefined. */
function payoutProblem(listed: FlowAnswer, asked: FlowAnswer, rates: { dollar: number; bitcoin?: number }) {
  const sent = asked.body.data;
  const items = listed.body.data as Array<{ id: string; payout?: Payout }>;
  const payout: Payout = items[0]?.payout ?? {};
  const day = String(sent.createdAt).slice(0, 10).replace(/-/g, "");
  const transfer = new RegExp(`^TRF-${day}-[A-Za-z0-9]{${DATED_REFERENCE_CHARACTERS}}$`);
  const external = new RegExp(`^${EXTERNAL_REFERENCE_FORM.prefix}\\d{${EXTERNAL_REFERENCE_FORM.digits}}$`);
  const { dollarValue, bitcoinValue } = sent.payout;
  const dollars = Number(sent.amount) * rates.dollar;
  const holds =
    items.length === 1 &&
    items[0]!.id === sent.id &&
    payout.bankAccount?.accountNumber === `${ACCOUNT_NUMBER_MASK}${BANK_ACCOUNT.accountNumber.slice(-4)}` &&
    sent.payout.bankAccount?.accountNumber === BANK_ACCOUNT.accountNumber &&
    transfer.test(payout.transferReference ?? "") &&
    external.test(payout.externalReference ?? "") &&
    Math.abs(dollarValue - dollars) <= 0.005 + 1e-9 &&
    same(dollarValue * 100, Math.round(dollarValue * 100)) &&
    same(bitcoinValue, rates.bitcoin ? Number((dollarValue / rates.bitcoin).toFixed(8)) : 0);
  const seen =
    `listed ${items.length}: account number ${payout.bankAccount?.accountNumber}, ${payout.transferReference}, ` +
    `${payout.externalReference}; answered ${sent.payout.bankAccount?.accountNumber}, dollarValue ${dollarValue}, ` +
    `bitcoinValue ${bitcoinValue}`;
  const expected = `expected ${dollars} dollars to cents, BTC rate ${rates.bitcoin ?? "none"}`;
  return holds ? undefined : `${asked.exchange}; ${listed.exchange}: ${seen} (${expected})`;
}

/** The history of `key`'s account, whole. */
async function historyOf(context: FlowContext, key: string | undefined, query = "") {
  const answer = await context.call("GET", `/transactions/me?${WHOLE}${query}`, undefined, key);
  return expectStatus(answer, 200, "(the history)");
}

/** What is wrong with the records of two withdrawals and the refund of the crypto one, or undefined. */
function recordsProblem(history: FlowAnswer, withdrawals: Array<{ id: string; reference: string }>) {
  const items = history.body.data as Array<{ id: string; reference: string; type: string; description: string }>;
  const [crypto] = withdrawals;
  const refund = items.find((item) => item.reference === crypto!.reference && item.type === "CREDIT");
  const recorded = withdrawals.every((w) => {
    const item = items.find((candidate) => candidate.id === w.id);
    return item !== undefined && UUID.test(item.reference) && item.description === SAMPLE_DESCRIPTION;
  });
  const refundDescription = `Refund of ${SAMPLE_DESCRIPTION.toLowerCase()}`;
  if (recorded && refund?.description === refundDescription) return undefined;
  const seen = withdrawals.map((w) => items.find((item) => item.id === w.id)?.description).join(", ");
  return (
    `${history.exchange}: withdrawals "${seen}", refund "${refund?.description}" (expected ` +
    `"${SAMPLE_DESCRIPTION}", UUID references, refund "${refundDescription}")`
  );
}

const payoutsFlow: Flow = {
  name: "payouts: a bank and a crypto withdrawal, listed and recorded, the crypto one refunded",
  choices: ["withdrawals.payouts", "withdrawals.records"],
  operations: [
    "getCurrencies",
    "getActiveNetworks",
    "getWithdrawalCurrencyNetworks",
    "createDepositAddress",
    "requestCryptoWithdrawal",
    "requestBankWithdrawal",
    "listPayouts",
    "getUserTransactions",
    "getTransaction",
  ],
  spend: { requests: 11, quotes: 0, trades: 0, addresses: 1 },
  unfit: (context) => unfitWithoutControl(context, "an account with chosen balances, and to settle a withdrawal"),
  async run(context) {
    const route = await withdrawalRoute(context);
    const bank = bankCurrency(route.all);
    const balances = { [route.currency.code]: route.amount + route.fee, [bank.currency.code]: payoutBalance(bank) };
    const rates = await context.control!.rates();
    const dollar = await dollarRateOf(context, bank.currency.code);
    await withOwnAccount("money", context, balances, async (key) => {
      const asked = await requestPayout(context, key, bank);
      const crypto = await requestWithdrawal(context, key, route);
      const listed = await context.call("GET", `${context.pathOf("listPayouts")}?${WHOLE}`, undefined, key);
      const problems = [
        payoutProblem(expectStatus(listed, 200, "(the payouts)"), asked, {
          dollar,
          bitcoin: rates.dollar.BTC,
        }),
      ];
      const inHistory = (await historyOf(context, key)).body.data.some(
        (item: { id: string; category: string }) => item.id === crypto.id && item.category === "WITHDRAWAL",
      );
      const read = await context.call("GET", `/transactions/${encodeURIComponent(crypto.id)}`, undefined, key);
      if (!inHistory || read.status !== 200)
        problems.push(`crypto withdrawal ${crypto.id} in the history: ${inHistory}; ${read.exchange}`);
      context.check(
        "withdrawals.payouts",
        problems.every((p) => !p),
        problems.filter(Boolean).join("; "),
      );
      await context.control!.settleWithdrawal(crypto.id, { status: "FAILED" });
      const records = recordsProblem(await historyOf(context, key), [crypto, asked.body.data]);
      context.check("withdrawals.records", records === undefined, records ?? "");
    });
  },
};

/** A crypto withdrawal of the route's amount from an account that holds it and its fee: its transaction. */
async function requestWithdrawal(context: FlowContext, key: string, route: Route) {
  const where = { currency: route.currency.code, network: route.network.code };
  const made = await context.call("POST", "/addresses/broker", where, key);
  const destination = { address: expectStatus(made, 200, "(an address)").body.data.value, network: route.network.code };
  const body = { amount: route.amount, currency: route.currency.code, destination };
  const asked = await context.call("POST", "/wallets/ext/debit/crypto", body, key);
  return expectStatus(asked, 200, "(a withdrawal its account can pay)").body.data as { id: string; reference: string };
}

// ---------------------------------------------------------------------------------------------------------------
// lists.filters and lists.category: read-only, so also on a deployment (over the run's account as it is).

/**
 * On the sandbox, `steps` on an account of its own holding a simulated deposit and a bank payout (two categories,
 * one item in each list); elsewhere on the run's account as it is.
 */
async function onAccountWithMoney(context: FlowContext, steps: (key: string | undefined) => Promise<void>) {
  if (!context.control) return steps(undefined);
  const route = await depositRoute(context);
  const bank = bankCurrency(route.all);
  const balances = { [route.currency.code]: 0, [bank.currency.code]: payoutBalance(bank) };
  await withOwnAccount("money", context, balances, async (key) => {
    const pair = { currency: route.currency.code, network: route.network.networkCode };
    await context.control!.deposit({ apiKey: key, ...pair, amount: route.amount });
    await requestPayout(context, key, bank);
    await steps(key);
  });
}

/** What onAccountWithMoney calls (on the sandbox only). */
const SEEDING = ["getActiveNetworks", "getCurrencies", "requestBankWithdrawal"];

interface Listed {
  id: string;
  createdAt: string;
  walletId: string;
  deposit?: { status: string };
  payout?: { status: string };
}

/** A filter of a listing and the items it should keep. */
type Filter = [query: string, keeps: (item: Listed) => boolean];

/** The filters the register names, around the first item of a listing (moments are ms since the epoch). */
function filtersAround(first: Listed, currencyOf: (item: Listed) => string | undefined, otherCurrency?: string) {
  const status = (item: Listed) => item.deposit?.status ?? item.payout?.status;
  const t0 = Date.parse(first.createdAt);
  const at = (item: Listed) => Date.parse(item.createdAt);
  const dayStart = Date.parse(`${first.createdAt.slice(0, 10)}T00:00:00Z`);
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const [before, after] = [day(dayStart - 1), day(dayStart + 86_400_000)];
  // The same moment as a date-time at +01:00.
  const offset = new Date(t0 + 3_600_000).toISOString().replace("Z", "+01:00");
  const filters: Filter[] = [
    [`status=${status(first)}`, (i) => status(i) === status(first)],
    [`status=${status(first)?.toLowerCase()}`, (i) => status(i) === status(first)?.toLowerCase()],
    [`startDate=${first.createdAt}`, (i) => at(i) >= t0],
    [`endDate=${new Date(t0 - 1).toISOString()}`, (i) => at(i) <= t0 - 1],
    [`startDate=${encodeURIComponent(offset)}`, (i) => at(i) >= t0],
    [`startDate=${day(t0)}&endDate=${day(t0)}`, (i) => at(i) >= dayStart && at(i) < dayStart + 86_400_000],
    [`endDate=${before}`, (i) => at(i) < dayStart],
    [`startDate=${after}`, (i) => at(i) >= dayStart + 86_400_000],
  ];
  const currency = currencyOf(first);
  if (currency) filters.push([`currencyId=${currency}`, (i) => currencyOf(i) === currency]);
  if (otherCurrency) filters.push([`currencyId=${otherCurrency}`, (i) => currencyOf(i) === otherCurrency]);
  return filters;
}

/** What is wrong with the filters of the listing at `path`, or undefined; undefined too when it lists nothing. */
async function filterProblems(context: FlowContext, key: string | undefined, path: string, ids: CurrencyIds) {
  const whole = expectStatus(await context.call("GET", `${path}?${WHOLE}`, undefined, key), 200, "(a listing)");
  const items = whole.body.data as Listed[];
  if (items.length === 0) return { tried: false, problems: [] };
  const currencyOf = (item: Listed) => ids.byWallet.get(item.walletId);
  const other = ids.all.find((id) => id !== currencyOf(items[0]!));
  const problems: string[] = [];
  for (const [query, keeps] of filtersAround(items[0]!, currencyOf, other)) {
    const answer = expectStatus(await context.call("GET", `${path}?${WHOLE}&${query}`, undefined, key), 200, query);
    const kept = items.filter(keeps).map((item) => item.id);
    const got = (answer.body.data as Listed[]).map((item) => item.id);
    if (got.join() !== kept.join() || answer.body.meta?.total !== kept.length)
      problems.push(`${answer.exchange} (expected ${kept.length}: ${kept.join(", ")})`);
  }
  const bad = await context.call("GET", `${path}?${WHOLE}&startDate=28%2F11%2F2026`, undefined, key);
  if (bad.status !== REFUSAL_STATUS.invalidPage)
    problems.push(`${bad.exchange} (expected ${REFUSAL_STATUS.invalidPage})`);
  return { tried: true, problems };
}

interface CurrencyIds {
  all: string[];
  byWallet: Map<string, string>;
}

/** The catalogue's currency ids, and the currency id of each wallet of the account. */
async function currencyIds(context: FlowContext, key: string | undefined): Promise<CurrencyIds> {
  const all = (await currencies(context)).map((currency) => currency.id);
  const answer = expectStatus(await context.call("GET", "/wallets/me", undefined, key), 200, "(the wallets)");
  const wallets = answer.body.data as Array<{ id: string; currencyId?: string; currency?: { id?: string } }>;
  const byWallet = new Map(wallets.map((w) => [w.id, w.currencyId ?? w.currency?.id ?? ""] as [string, string]));
  return { all, byWallet };
}

const FILTERED_LISTS = ["listDeposits", "listPayouts"];

const filtersFlow: Flow = {
  name: "list filters: deposits and payouts by currency, status and dates",
  choices: ["lists.filters"],
  operations: [...FILTERED_LISTS, "getMyWallets", ...SEEDING],
  // Each listing whole, 10 filters and a refused date; on the sandbox its seeding (catalogue reads, a payout).
  spend: { requests: 2 + FILTERED_LISTS.length * 12 + 3, quotes: 0, trades: 0, addresses: 0 },
  unfit: unfitToRead,
  run: (context) =>
    onAccountWithMoney(context, async (key) => {
      const ids = await currencyIds(context, key);
      let tried = false;
      const problems: string[] = [];
      for (const id of FILTERED_LISTS) {
        const found = await filterProblems(context, key, context.pathOf(id)!, ids);
        tried ||= found.tried;
        problems.push(...found.problems);
      }
      // A list with nothing in it shows nothing of its filters: no verdict.
      if (tried) context.check("lists.filters", problems.length === 0, problems.join("; "));
    }),
};

/** A category no transaction of the sandbox has (the clients send it). */
const UNUSED_CATEGORY = "TRANSFER";

const categoryFlow: Flow = {
  name: "history by category: each category of the history, and TRANSFER",
  choices: ["lists.category"],
  operations: ["getUserTransactions", ...SEEDING],
  // The history whole, then at most four categories and TRANSFER; on the sandbox its seeding.
  spend: { requests: 1 + 5 + 3, quotes: 0, trades: 0, addresses: 0 },
  unfit: unfitToRead,
  run: (context) =>
    onAccountWithMoney(context, async (key) => {
      const items = (await historyOf(context, key)).body.data as Array<{ id: string; category: string }>;
      if (items.length === 0) return; // an empty history shows nothing of the filter: no verdict
      const categories = [...new Set(items.map((item) => item.category))].slice(0, 4);
      const problems: string[] = [];
      for (const category of [...categories, UNUSED_CATEGORY]) {
        const answer = await historyOf(context, key, `&category=${encodeURIComponent(category)}`);
        const kept = items.filter((item) => item.category === category).map((item) => item.id);
        const got = (answer.body.data as Array<{ id: string }>).map((item) => item.id);
        if (got.join() !== kept.join()) problems.push(`${answer.exchange} (expected ${kept.length}: ${kept.join()})`);
      }
      context.check("lists.category", problems.length === 0, problems.join("; "));
    }),
};

/** The money flows, in the order verify runs them (after the account flows, before the sandbox flows). */
export const MONEY_RULE_FLOWS: readonly Flow[] = [
  addressValuesFlow,
  notReceivableFlow,
  depositsFlow,
  withdrawalChecksFlow,
  settlementFlow,
  payoutsFlow,
  filtersFlow,
  categoryFlow,
];
