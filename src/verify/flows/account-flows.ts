// The account flows of verify: a quote beyond the balance, deposit addresses asked for twice, the account's paged
// lists walked whole, and the rate-limit headers across a sequence of requests. Each checks the register's rules
// for what it sees.
import { RATE_LIMIT_HEADERS } from "../../../generated/client-meta.js";
import { PAGE_DEFAULTS, REFUSAL_STATUS, RULE_FORMS } from "../../sandbox/rules.js";
import { expectStatus, type FlowAnswer, type FlowContext, FlowFailure } from "./context.js";
import {
  type Flow,
  type FlowFitness,
  same,
  sellablePair,
  TRADE_OPERATIONS,
  unfitToTrade,
  walletsOf,
} from "./trade-flows.js";

/** Why a flow that only reads cannot run: on the mock every answer is a documented example, whatever came before. */
export const unfitToRead = (context: FlowFitness): string | undefined =>
  context.target === "mock" ? "the mock keeps no state between requests" : undefined;

const balanceFlow: Flow = {
  name: "balance too low: a quote of more than the balance, accepted",
  choices: ["quotes.balance-too-low"],
  operations: [...TRADE_OPERATIONS, "getMyWallets"],
  // A target that does not refuse it executes the trade.
  spend: { requests: 6, quotes: 1, trades: 1, addresses: 0 },
  unfit: unfitToTrade,
  async run(context) {
    const pair = await sellablePair(context);
    const before = await walletsOf(context);
    const amount = before.get(pair.source)!.balance + 1;
    const body = { sourceId: pair.source, targetId: pair.target, amount, side: "SELL" };
    const quote = expectStatus(await context.call("POST", "/trades/quote", body), 200, "(a quote beyond the balance)");
    const accepted = await context.call("POST", `/trades/quote/${encodeURIComponent(quote.body.data.id)}`, {});
    const after = await walletsOf(context);
    const unchanged = [...before].every(([code, wallet]) => same(after.get(code)?.balance ?? NaN, wallet.balance));
    const refused = accepted.status === REFUSAL_STATUS.balanceTooLow;
    context.check(
      "quotes.balance-too-low",
      refused && unchanged,
      `${accepted.exchange}; wallets unchanged: ${unchanged}`,
    );
  },
};

/** A receivable currency and network of Get Active Networks. */
export async function receivable(context: FlowContext): Promise<{ currency: string; network: string }> {
  const active = expectStatus(await context.call("GET", "/currencies/networks/active"), 200, "(active networks)");
  for (const [currency, entry] of Object.entries(active.body.data as Record<string, { networks?: unknown[] }>)) {
    const networks = (entry.networks ?? []) as Array<{ networkCode: string; isReceivable?: boolean }>;
    const network = networks.find((candidate) => candidate.isReceivable !== false);
    if (network) return { currency, network: network.networkCode };
  }
  throw new FlowFailure("GET /currencies/networks/active lists no receivable network");
}

const addressFlow: Flow = {
  name: "deposit addresses: one identifier twice, and none twice",
  choices: ["addresses.identifiers"],
  operations: ["getActiveNetworks", "createDepositAddress"],
  spend: { requests: 5, quotes: 0, trades: 0, addresses: 2 },
  unfit(context) {
    if (context.target === "mock") return "the mock keeps no state between requests";
    if (context.target === "deployment" && !context.allowSideEffects)
      return "it makes deposit addresses (allow side effects to run it)";
    return undefined;
  },
  async run(context) {
    const where = await receivable(context);
    const ask = async (identifier: string | undefined) => {
      const body = identifier === undefined ? where : { ...where, uniqueUserIdentifier: identifier };
      return expectStatus(await context.call("POST", "/addresses/broker", body), 200, "(a deposit address)");
    };
    const identifier = `api-contract-verify-${crypto.randomUUID().slice(0, 8)}`;
    const first = await ask(identifier);
    const again = await ask(identifier);
    const own = await ask(undefined);
    const ownAgain = await ask(undefined);
    const addressOf = (answer: FlowAnswer): string => answer.body.data.value;
    const sameForIdentifier = addressOf(first) === addressOf(again);
    const sameWithout = addressOf(own) === addressOf(ownAgain) && own.body.data.isMaster === true;
    const evidence = `${again.exchange} (first: ${addressOf(first)}); ${ownAgain.exchange} (first: ${addressOf(own)})`;
    context.check("addresses.identifiers", sameForIdentifier && sameWithout, evidence);
  },
};

/** The account's paged lists the flow walks (operationIds), where the contract has them. */
const PAGED_LISTS = ["getUserTransactions", "getTradeHistory", "getDepositAddresses", "listDeposits", "listPayouts"];

/** The ids of one page of `path`, and the answer. */
async function page(context: FlowContext, path: string, number: number, size: number) {
  const answer = expectStatus(
    await context.call("GET", `${path}?page=${number}&pageSize=${size}`),
    200,
    "(a page of a list)",
  );
  const items = answer.body.data as Array<{ id: string; createdAt?: string }>;
  return { answer, items };
}

/** The most pages of 2 the flow walks of one list: the walk is compared with the first items of one page of all. */
const MAX_WALKED_PAGES = 10;

/** What is wrong with walking `path` by pages of 2 against one page of all, or undefined. */
async function walkProblem(context: FlowContext, path: string): Promise<string | undefined> {
  const whole = await page(context, path, 1, 1000);
  const walked: string[] = [];
  const pages = Math.min(MAX_WALKED_PAGES, Math.ceil(whole.items.length / 2) + 1);
  for (let number = 1; number <= pages; number++) {
    const { items } = await page(context, path, number, 2);
    walked.push(...items.map((item) => item.id));
    if (items.length < 2) break;
  }
  const ids = whole.items.slice(0, 2 * MAX_WALKED_PAGES).map((item) => item.id);
  if (walked.join() !== ids.join())
    return `${path} by pages of 2: ${walked.join(", ")}; in one page: ${ids.join(", ")}`;
  const times = whole.items.map((item) => Date.parse(item.createdAt ?? ""));
  const ordered = times.every(
    (time, i) => i === 0 || (RULE_FORMS.listOrder === "newest-first" ? time <= times[i - 1]! : time >= times[i - 1]!),
  );
  return ordered ? undefined : `${whole.answer.exchange}: not ${RULE_FORMS.listOrder}`;
}

const paginationFlow: Flow = {
  name: "pagination: the account's paged lists walked whole",
  choices: ["lists.pagination"],
  operations: ["getUserTransactions"],
  // Each list: one page of all, then at most MAX_WALKED_PAGES pages of 2; the default page twice.
  spend: { requests: PAGED_LISTS.length * (1 + MAX_WALKED_PAGES) + 2, quotes: 0, trades: 0, addresses: 0 },
  unfit: unfitToRead,
  async run(context) {
    const problems: string[] = [];
    for (const id of PAGED_LISTS) {
      const path = context.pathOf(id);
      if (path === undefined) continue;
      const problem = await walkProblem(context, path);
      if (problem) problems.push(problem);
    }
    // Without page and pageSize: the first page of the default size.
    const path = context.pathOf("getUserTransactions")!;
    const defaults = expectStatus(await context.call("GET", path), 200, "(the first page by default)");
    const first = await page(context, path, PAGE_DEFAULTS.page, PAGE_DEFAULTS.pageSize);
    if (JSON.stringify(defaults.body.data) !== JSON.stringify(first.items))
      problems.push(`${defaults.exchange}: not page ${PAGE_DEFAULTS.page} of ${PAGE_DEFAULTS.pageSize}`);
    context.check("lists.pagination", problems.length === 0, problems.join("; "));
  },
};

/** The rate-limit headers of an answer, as numbers. */
function limitsOf(answer: FlowAnswer) {
  const header = (name: string) => Number(answer.headers.get(name));
  return { remaining: header(RATE_LIMIT_HEADERS.remaining), reset: header(RATE_LIMIT_HEADERS.reset) };
}

const rateLimitFlow: Flow = {
  name: "rate limits: X-RateLimit-* across three counted requests",
  choices: ["limits.counting", "limits.headers"],
  operations: ["getFiatRates"],
  spend: { requests: 3, quotes: 0, trades: 0, addresses: 0 },
  unfit: unfitToRead,
  async run(context) {
    const answers: FlowAnswer[] = [];
    for (let i = 0; i < 3; i++)
      answers.push(expectStatus(await context.call("GET", "/currencies/fiat-rates"), 200, "(a counted read)"));
    const limits = answers.map(limitsOf);
    // Within one window (the same reset), each counted request takes one from remaining.
    const falling = limits.every(
      (l, i) => i === 0 || l.reset !== limits[i - 1]!.reset || l.remaining === limits[i - 1]!.remaining - 1,
    );
    const seconds = answers.map((answer) => Date.parse(answer.headers.get("date") ?? "") / 1000);
    const ahead = limits.every((l, i) => Number.isInteger(l.reset) && l.reset >= Math.floor(seconds[i]!));
    const evidence = answers
      .map(
        (answer, i) =>
          `${answer.exchange.split(" → ")[0]} → remaining ${limits[i]!.remaining}, reset ${limits[i]!.reset}`,
      )
      .join("; ");
    context.check("limits.counting", falling, evidence);
    context.check("limits.headers", ahead, evidence);
  },
};

/** The account flows, in the order verify runs them (after the trade flows, which leave a history to walk). */
export const ACCOUNT_FLOWS: readonly Flow[] = [balanceFlow, addressFlow, paginationFlow, rateLimitFlow];
