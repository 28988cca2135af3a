// The flows of verify that need what only the package's sandbox gives through its control API: a second account
// (another key's quote and transaction), and the settlement of a withdrawal (its states, its fee, the refund of a
// FAILED one). On a deployment the isolation flow runs with a second key given (--second-api-key); the others are
// untested there.
import { REFUSAL_STATUS } from "../../sandbox/rules.js";
import { expectStatus, type FlowContext, FlowFailure } from "./context.js";
import { receivable } from "./account-flows.js";
import { type Flow, type FlowFitness, same, sellablePair, TRADE_OPERATIONS, walletsOf } from "./trade-flows.js";

/** Why a flow that drives the sandbox through its control API cannot run here. */
export function unfitWithoutControl(context: FlowFitness, what: string): string | undefined {
  if (context.target === "mock") return "the mock keeps no state between requests";
  return context.control ? undefined : `it needs ${what}, which only the package's sandbox gives it (control API)`;
}

/**
 * Runs `steps` with an account of the flow's own (api-contract-verify-<what>-…, its balances chosen) through the
 * control API, deleted after, so the run's own account stays as the other flows expect it.
 */
export async function withOwnAccount<T>(
  what: string,
  context: FlowContext,
  balances: Record<string, number>,
  steps: (key: string) => Promise<T>,
): Promise<T> {
  const key = `api-contract-verify-${what}-${crypto.randomUUID().slice(0, 8)}`;
  await context.control!.putAccount(key, { balances });
  try {
    return await steps(key);
  } finally {
    await context.control!.deleteAccount(key);
  }
}

/** A currency and network the target takes deposits on and withdrawals to, with the network's withdrawal terms. */
export async function withdrawalRoute(context: FlowContext) {
  const currencies = expectStatus(await context.call("GET", "/currencies"), 200, "(the currencies)").body
    .data as Array<{
    id: string;
    code: string;
    type?: string;
    withdrawable?: boolean;
    minimumWithdrawal?: number;
  }>;
  for (const currency of currencies.filter((c) => c.type !== "FIAT" && c.withdrawable !== false)) {
    const path = `/currencies/${encodeURIComponent(currency.id)}/networks`;
    const networks = expectStatus(await context.call("GET", path), 200, "(withdrawal networks)").body.data as Array<{
      code: string;
      fee?: number;
      feeType?: string;
      minimum?: number;
    }>;
    const network = networks.find((candidate) => (candidate.feeType ?? "FLAT") === "FLAT");
    if (network) {
      const amount = Math.max(1, currency.minimumWithdrawal ?? 0, network.minimum ?? 0);
      return { currency: currency.code, network: network.code, fee: network.fee ?? 0, amount };
    }
  }
  throw new FlowFailure("no crypto currency with a FLAT-fee withdrawal network to withdraw to");
}

/** Another key's quote, accepted with the run's key: whether it was hidden (refused 404), with the exchanges. */
async function acceptTheirQuote(context: FlowContext, other: string) {
  const pair = await sellablePair(context);
  const body = { sourceId: pair.source, targetId: pair.target, amount: 1, side: "SELL" };
  const theirs = expectStatus(await context.call("POST", "/trades/quote", body, other), 200, "(their quote)");
  const accepted = await context.call("POST", `/trades/quote/${encodeURIComponent(theirs.body.data.id)}`, {});
  return { hidden: accepted.status === REFUSAL_STATUS.notFound, exchange: accepted.exchange };
}

/** Another key's transaction `id`, read with the run's key: whether it was hidden (refused 404). */
async function readTheirTransaction(context: FlowContext, id: string) {
  const read = await context.call("GET", `/transactions/${encodeURIComponent(id)}`);
  return { hidden: read.status === REFUSAL_STATUS.notFound, exchange: read.exchange };
}

/** On the sandbox: a second account of the flow's own, its quote, and a deposit made through the control API. */
async function isolationOnSandbox(context: FlowContext) {
  const other = `api-contract-verify-other-${crypto.randomUUID().slice(0, 8)}`;
  await context.control!.putAccount(other, { balances: {} });
  try {
    const quote = await acceptTheirQuote(context, other);
    const deposit = await context.control!.deposit({ apiKey: other, ...(await receivable(context)), amount: 1 });
    const transaction = await readTheirTransaction(context, deposit.id);
    context.check(
      "accounts.isolation",
      quote.hidden && transaction.hidden,
      `${quote.exchange}; ${transaction.exchange}`,
    );
  } finally {
    await context.control!.deleteAccount(other);
  }
}

/**
 * On a deployment, with the second key given: the first transaction it lists (if any), and with side effects
 * allowed a quote of its own (accepting it with the run's key would trade, should the target not refuse it).
 */
async function isolationWithSecondKey(context: FlowContext, other: string) {
  const listed = await context.call("GET", "/transactions/me?page=1&pageSize=1", undefined, other);
  const [newest] = (expectStatus(listed, 200, "(the second key's transactions)").body.data ?? []) as Array<{
    id: string;
  }>;
  const seen = [
    ...(newest ? [await readTheirTransaction(context, newest.id)] : []),
    ...(context.allowSideEffects ? [await acceptTheirQuote(context, other)] : []),
  ];
  if (!seen.length) {
    const why = "the second key has no transaction to read, and a quote of its own needs side effects allowed";
    return context.untested("accounts.isolation", why);
  }
  const shown = seen.map((part) => part.exchange).join("; ");
  context.check(
    "accounts.isolation",
    seen.every((part) => part.hidden),
    shown,
  );
}

const isolationFlow: Flow = {
  name: "isolation: another key's quote and transaction",
  choices: ["accounts.isolation"],
  operations: [...TRADE_OPERATIONS, "getTransaction", "getActiveNetworks", "getUserTransactions"],
  // The pair (2), their quote, its accept, their transaction's list and its read; the accept trades should the
  // target not refuse it.
  spend: { requests: 6, quotes: 1, trades: 1, addresses: 0 },
  unfit(context) {
    if (context.target === "mock") return "the mock keeps no state between requests";
    if (context.control || context.secondKey !== undefined) return undefined;
    return "it needs a second account: a second key (--second-api-key), or the package's sandbox's control API";
  },
  run: (context) =>
    context.control ? isolationOnSandbox(context) : isolationWithSecondKey(context, context.secondKey!),
};

const withdrawalFlow: Flow = {
  name: "withdrawal: requested, its fee taken, settled FAILED and refunded",
  choices: ["withdrawals.fees", "withdrawals.states"],
  operations: ["getCurrencies", "getWithdrawalCurrencyNetworks", "createDepositAddress", "requestCryptoWithdrawal"],
  // The currencies and a withdrawal network list per crypto currency tried (the sandbox's catalogue: one).
  spend: { requests: 9, quotes: 0, trades: 0, addresses: 1 },
  unfit: (context) => unfitWithoutControl(context, "to settle a withdrawal"),
  async run(context) {
    const route = await withdrawalRoute(context);
    const where = { currency: route.currency, network: route.network };
    const address = expectStatus(await context.call("POST", "/addresses/broker", where), 200, "(an address)");
    const before = await walletsOf(context);
    const destination = { address: address.body.data.value, network: route.network };
    const body = { amount: route.amount, currency: route.currency, destination };
    const requested = await context.call("POST", "/wallets/ext/debit/crypto", body);
    const withdrawal = expectStatus(requested, 200, "(a withdrawal of its minimum)").body.data;
    const during = await walletsOf(context);
    const taken = Number((before.get(route.currency)!.balance - during.get(route.currency)!.balance).toPrecision(12));
    const { currency, amount, fee } = route;
    const fees = `${requested.exchange}; ${currency} fell by ${taken} (amount ${amount} + fee ${fee})`;
    context.check("withdrawals.fees", same(taken, route.amount + route.fee), fees);
    // Its states show in its webhooks (a later flow); here, what a FAILED one does to the account.
    await context.control!.settleWithdrawal(withdrawal.id, { status: "FAILED" });
    const after = await walletsOf(context);
    const history = expectStatus(await context.call("GET", "/transactions/me"), 200, "(the history)");
    const refund = (history.body.data as Array<{ reference: string; type: string; category: string }>).find(
      (item) => item.reference === withdrawal.reference && item.type === "CREDIT" && item.category === "WITHDRAWAL",
    );
    const [was, now] = [before.get(route.currency)!.balance, after.get(route.currency)!.balance];
    const refunded = refund !== undefined;
    const states = `after FAILED, ${route.currency} back to ${now} (was ${was}); a refund CREDIT: ${refunded}`;
    context.check("withdrawals.states", same(now, was) && refunded, states);
  },
};

/** The flows that drive the package's sandbox, in the order verify runs them. */
export const SANDBOX_FLOWS: readonly Flow[] = [isolationFlow, withdrawalFlow];
