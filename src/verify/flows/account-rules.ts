// The flows of verify that check the register's rules of accounts, wallets, signing, limit windows and the clock,
// as a user of the API sees them. Those that need a state of their own (a new key, an account put, a secret, a
// clock moved) make accounts of their own through the sandbox's control API and delete them; they never change
// the run's own account. Reading without a key and the wallets' zero balances need no control API.
import { BASE_PATH, RATE_LIMIT_HEADERS, SIGNING_HEADERS } from "../../../generated/client-meta.js";
import { createSigner } from "../../client/signing.js";
import { isObject, jsonMedia, listOperations, namedExamples } from "../../openapi/document.js";
import { durationMs } from "../../pipeline/rate-limit.js";
import { SandboxControlError } from "../../sandbox/control-client.js";
import {
  CLOCK_RANGE,
  RATE_LIMITED_STATUS,
  REFUSAL_STATUS,
  RULE_FORMS,
  SIGNATURE_WINDOW_MS,
} from "../../sandbox/rules.js";
import { expectStatus, type FlowAnswer, type FlowContext, FlowFailure } from "./context.js";
import { receivable, unfitToRead } from "./account-flows.js";
import { unfitWithoutControl } from "./sandbox-flows.js";
import { type Flow, type FlowFitness, same, sellablePair, TRADE_OPERATIONS, walletsOf } from "./trade-flows.js";

/** A key of the flow's own, new to the target: `api-contract-verify-<what>-<random>`. */
const ownKey = (what: string) => `api-contract-verify-${what}-${crypto.randomUUID().slice(0, 8)}`;

/** The control API of a flow that needs it (its `unfit` made sure it is there). */
const controlOf = (context: FlowContext) => context.control!;

/** Whether a control call was refused (any SandboxControlError), rather than answered. */
async function refusedByControl(call: () => Promise<unknown>): Promise<boolean> {
  try {
    await call();
    return false;
  } catch (error) {
    if (error instanceof SandboxControlError) return true;
    throw error;
  }
}

/** Whether the sandbox has an account for `apiKey` (the control API's view, not the user's). */
const hasAccount = async (context: FlowContext, apiKey: string) =>
  !(await refusedByControl(() => controlOf(context).getAccount(apiKey)));

/** Deletes an account of the flow's own; one already gone is no failure. */
const removeAccount = (context: FlowContext, apiKey: string) =>
  controlOf(context)
    .deleteAccount(apiKey)
    .catch(() => undefined);

/** The request-line part of an exchange ("GET /wallets/me → 401"), for evidence without the body. */
const statusLine = (answer: FlowAnswer) => `${answer.exchange.split(" → ")[0]} → ${answer.status}`;

interface Wallet {
  id: string;
  availableBalance: number;
  pendingBalance: number;
  pendingSwapBalance: number;
  lockedBalance: number;
  p2pBalance: number;
  totalPendingBalance: number;
  totalSwappableBalance: number;
  currency: { code: string };
}

/** The wallets of `apiKey` (Get My Wallets), and the answer. */
async function walletList(context: FlowContext, apiKey?: string) {
  const answer = expectStatus(await context.call("GET", "/wallets/me", undefined, apiKey), 200, "(the wallets)");
  return { wallets: answer.body.data as Wallet[], answer };
}

/** The documented balance of each currency: the availableBalance of Get My Wallets' first example's wallets. */
function documentedBalances(context: FlowContext): Map<string, number> {
  const operation = listOperations(context.document).find((candidate) => candidate.operationId === "getMyWallets");
  const [example] = namedExamples(context.document, jsonMedia(operation?.responses["200"]));
  const data = isObject(example?.value) ? example.value.data : undefined;
  const balances = new Map<string, number>();
  for (const wallet of Array.isArray(data) ? (data as Wallet[]) : [])
    if (!balances.has(wallet.currency.code)) balances.set(wallet.currency.code, wallet.availableBalance);
  return balances;
}

/** What is wrong with a new account's wallets against the catalogue and the documented balances, or undefined. */
async function defaultBalancesProblem(context: FlowContext, wallets: Wallet[], given: Record<string, number> = {}) {
  const catalogueRead = expectStatus(await context.call("GET", "/currencies"), 200, "(the catalogue)");
  const currencies = catalogueRead.body.data as Array<{ code: string }>;
  const documented = documentedBalances(context);
  const codes = wallets.map((wallet) => wallet.currency.code);
  const catalogue = currencies.map((currency) => currency.code);
  if (codes.length !== catalogue.length || !catalogue.every((code) => codes.includes(code)))
    return `wallets of ${codes.join(", ")}; the catalogue's currencies: ${catalogue.join(", ")}`;
  const wrong = wallets.filter((wallet) => {
    const code = wallet.currency.code;
    return !same(wallet.availableBalance, given[code] ?? documented.get(code) ?? 0);
  });
  const expected = (code: string) => given[code] ?? documented.get(code) ?? 0;
  return wrong.length === 0
    ? undefined
    : wrong.map((w) => `${w.currency.code} ${w.availableBalance} (expected ${expected(w.currency.code)})`).join(", ");
}

const keylessFlow: Flow = {
  name: "keyless: account reads without a key or with an empty one, catalogue reads without one",
  choices: ["accounts.keyless"],
  operations: ["getMyWallets", "getUserTransactions", "getCurrencies", "getTradePairs", "getFiatRates"],
  spend: { requests: 6, quotes: 0, trades: 0, addresses: 0 },
  unfit: unfitToRead,
  async run(context) {
    const accountReads = [
      await context.call("GET", "/wallets/me", undefined, null),
      await context.call("GET", "/wallets/me", undefined, ""),
      await context.call("GET", "/transactions/me", undefined, null),
    ];
    const catalogueReads: FlowAnswer[] = [];
    for (const path of ["/currencies", "/trades/pairs", "/currencies/fiat-rates"])
      catalogueReads.push(await context.call("GET", path, undefined, null));
    const refused = accountReads.every((answer) => answer.status === REFUSAL_STATUS.keylessAccountRead);
    const answered = catalogueReads.every((answer) => answer.status === 200);
    const evidence = [...accountReads, ...catalogueReads].map(statusLine).join("; ");
    context.check("accounts.keyless", refused && answered, `without a key (the second: empty): ${evidence}`);
  },
};

/** Why the wallets flow does not run: a deployment's account may hold pending, locked or peer-to-peer funds. */
function unfitForZeroBalances(context: FlowFitness): string | undefined {
  if (context.target === "deployment")
    return "a deployment's account may hold pending, locked or peer-to-peer funds, which the sandbox has none of";
  return unfitToRead(context);
}

/** A code the catalogue does not have. */
const strayCode = (codes: string[]) => `ZZ${codes.join("").length}X`;

const walletsFlow: Flow = {
  name: "wallets: the balances beside the available one, and a currency the catalogue lacks",
  choices: ["wallets.balances"],
  operations: ["getMyWallets", "getWalletBalanceByCode"],
  spend: { requests: 3, quotes: 0, trades: 0, addresses: 0 },
  unfit: unfitForZeroBalances,
  async run(context) {
    const { wallets, answer } = await walletList(context);
    const [first] = wallets;
    if (!first) throw new FlowFailure(`${answer.exchange}: no wallet to read`);
    const path = `/wallets/${encodeURIComponent(first.currency.code)}`;
    const one = expectStatus(await context.call("GET", path), 200, "(one wallet by its code)").body.data as Wallet;
    const zero = (w: Wallet) =>
      [w.pendingBalance, w.pendingSwapBalance, w.lockedBalance, w.p2pBalance, w.totalPendingBalance].every(
        (balance) => balance === 0,
      ) && same(w.totalSwappableBalance, w.availableBalance);
    const wrong = [...wallets, one].filter((wallet) => !zero(wallet));
    const codes = wallets.map((wallet) => wallet.currency.code);
    const stray = await context.call("GET", `/wallets/${strayCode(codes)}`);
    const problems = wrong.map((w) => `${w.currency.code}: ${JSON.stringify(w).slice(0, 300)}`);
    if (stray.status !== REFUSAL_STATUS.notFound) problems.push(stray.exchange);
    context.check("wallets.balances", problems.length === 0, problems.join("; "));
  },
};

/** First use of a new key: whether the sandbox made it an account, and what the key was answered. */
async function firstUse(context: FlowContext, key: string) {
  if (await hasAccount(context, key)) throw new FlowFailure(`the key ${key} has an account already`);
  const answer = await context.call("GET", "/wallets/me", undefined, key);
  return { answer, made: await hasAccount(context, key) };
}

/** One new key's first use, checked against the form of accounts.first-use the sandbox has now. */
async function checkFirstUse(context: FlowContext) {
  const key = ownKey("new");
  try {
    const { answer, made } = await firstUse(context, key);
    let read = answer;
    if (!made) {
      // No account made: the sandbox requires known keys (its override of accounts.first-use), or breaks it.
      if (answer.status === 200) return context.contradict("accounts.first-use", `${answer.exchange}; no account`);
      context.check("accounts.unknown-key", answer.status === REFUSAL_STATUS.unknownKey, answer.exchange);
      context.untested("accounts.first-use", "the sandbox requires known keys: a new key gets no account");
      // A new account there is one put without settings.
      await controlOf(context).putAccount(key, {});
      read = (await walletList(context, key)).answer;
    } else {
      context.untested("accounts.unknown-key", "the sandbox takes any key, and has no settings to require known keys");
      const own = [...(await walletsOf(context)).values()].map((wallet) => wallet.id);
      const theirs = answer.status === 200 ? (answer.body.data as Wallet[]) : [];
      const apart = theirs.length > 0 && theirs.every((wallet) => !own.includes(wallet.id));
      const evidence = `${answer.exchange}; own wallets: ${apart}`;
      context.check("accounts.first-use", answer.status === 200 && apart, evidence);
      if (answer.status !== 200) return;
    }
    const problem = await defaultBalancesProblem(context, read.body.data as Wallet[]);
    context.check("accounts.default-balances", problem === undefined, `${read.exchange}: ${problem}`);
  } finally {
    await removeAccount(context, key);
  }
}

/** The sandbox's settings, or undefined from one without them (a version before PUT /_sandbox/settings). */
async function settingsOf(context: FlowContext) {
  try {
    return await controlOf(context).settings();
  } catch (error) {
    // Only a 404 says the route is not there; any other refusal (a wrong token) is the flow's failure.
    if (error instanceof SandboxControlError && error.status === 404) return undefined;
    throw error;
  }
}

const firstUseFlow: Flow = {
  name: "first use: a new key's wallets, with the sandbox taking any key and requiring known keys",
  choices: ["accounts.first-use", "accounts.unknown-key", "accounts.default-balances"],
  operations: ["getMyWallets", "getCurrencies"],
  spend: { requests: 6, quotes: 0, trades: 0, addresses: 0 },
  unfit: (context) => unfitWithoutControl(context, "to see whether a new key got an account"),
  async run(context) {
    const settings = await settingsOf(context);
    await checkFirstUse(context);
    if (settings === undefined) return;
    // The other form too: the setting turned over for one more new key, then put back whatever happens.
    try {
      await controlOf(context).putSettings({ requireKnownKeys: !settings.requireKnownKeys });
      await checkFirstUse(context);
    } finally {
      await controlOf(context).putSettings(settings);
    }
  },
};

/**
 * What a user sees of one account: its wallets (id, balance; `wallets`, when read already), its history, trades and
 * deposit addresses, and what its first read left of its limit.
 */
async function accountView(context: FlowContext, apiKey?: string, wallets?: FlowAnswer) {
  const read = async (path: string) =>
    expectStatus(await context.call("GET", path, undefined, apiKey), 200, "(an account's list)");
  wallets ??= await read("/wallets/me");
  const ids = async (path: string) => ((await read(path)).body.data as Array<{ id: string }>).map((item) => item.id);
  return {
    wallets: (wallets.body.data as Wallet[]).map((w) => ({ id: w.id, code: w.currency.code, at: w.availableBalance })),
    remaining: Number(wallets.headers.get(RATE_LIMIT_HEADERS.remaining)),
    limit: Number(wallets.headers.get(RATE_LIMIT_HEADERS.limit)),
    transactions: await ids("/transactions/me"),
    trades: await ids("/trades/me"),
    addresses: await ids("/addresses/me/broker"),
  };
}

type AccountView = Awaited<ReturnType<typeof accountView>>;

/** Gives `key` (balance `given` of `code`) a trade, a quote left open and a deposit; the open quote's id. */
async function fillAccount(context: FlowContext, key: string, pair: { source: string; target: string }) {
  const body = { sourceId: pair.source, targetId: pair.target, amount: 1, side: "SELL" };
  const quote = async () =>
    expectStatus(await context.call("POST", "/trades/quote", body, key), 200, "(a quote of its own)").body.data.id;
  const traded = await context.call("POST", `/trades/quote/${encodeURIComponent(await quote())}`, {}, key);
  expectStatus(traded, 200, "(a trade of its own)");
  await controlOf(context).deposit({ apiKey: key, ...(await receivable(context)), amount: 1 });
  return quote();
}

/** What is wrong with an account just put (or made anew) against `before` and the balances it was given. */
async function replacedProblems(context: FlowContext, before: AccountView, after: AccountView, given = {}) {
  const problems: string[] = [];
  const reused = after.wallets.filter((wallet) => before.wallets.some((old) => old.id === wallet.id));
  if (reused.length) problems.push(`wallet ids kept: ${reused.map((w) => w.id).join(", ")}`);
  for (const list of ["transactions", "trades", "addresses"] as const)
    if (after[list].length) problems.push(`${list} left: ${after[list].join(", ")}`);
  if (after.remaining !== after.limit - 1)
    problems.push(`its first request left ${after.remaining} of ${after.limit}: not a fresh window`);
  const wallets = after.wallets.map((w) => ({ id: w.id, availableBalance: w.at, currency: { code: w.code } }));
  const balances = await defaultBalancesProblem(context, wallets as Wallet[], given);
  if (balances) problems.push(`balances: ${balances}`);
  return problems;
}

/**
 * What is wrong with `key` used again after its delete: it is new (none of the put account's wallets, default
 * balances), or, where the sandbox requires known keys, refused as a key without an account.
 */
async function deletedProblems(context: FlowContext, key: string, put: AccountView): Promise<string[]> {
  const again = await context.call("GET", "/wallets/me", undefined, key);
  if (again.status === 200) return replacedProblems(context, put, await accountView(context, key, again));
  const refused = again.status === REFUSAL_STATUS.unknownKey && !(await hasAccount(context, key));
  return refused ? [] : [`after DELETE: ${again.exchange}`];
}

const replaceFlow: Flow = {
  name: "replace: an account of its own put again over its trades, then deleted",
  choices: ["accounts.replace"],
  operations: [...TRADE_OPERATIONS, "getMyWallets", "getUserTransactions", "getTradeHistory", "getDepositAddresses"],
  // Its trade, and the accept of a quote put away, which a target that keeps quotes over a put executes.
  spend: { requests: 29, quotes: 2, trades: 2, addresses: 0 },
  unfit: (context) => unfitWithoutControl(context, "to put and delete an account of its own"),
  async run(context) {
    const key = ownKey("replace");
    const runBefore = await accountView(context);
    try {
      const pair = await sellablePair(context);
      await controlOf(context).putAccount(key, { balances: { [pair.source]: 5 } });
      const openQuote = await fillAccount(context, key, pair);
      const filled = await accountView(context, key);
      const given = { [pair.source]: 2 };
      await controlOf(context).putAccount(key, { balances: given });
      const put = await accountView(context, key);
      const problems = await replacedProblems(context, filled, put, given);
      // A quote of the store replaced is gone: accepting it is refused as an unknown one (a trade if not).
      const accepted = await context.call("POST", `/trades/quote/${encodeURIComponent(openQuote)}`, {}, key);
      if (accepted.status !== REFUSAL_STATUS.notFound) problems.push(accepted.exchange);
      await controlOf(context).deleteAccount(key);
      if (await hasAccount(context, key)) problems.push("after DELETE the control API still has the account");
      problems.push(...(await deletedProblems(context, key, put)));
      const runAfter = await accountView(context);
      const untouched = (view: AccountView) => JSON.stringify([view.wallets, view.transactions, view.trades]);
      if (untouched(runAfter) !== untouched(runBefore)) problems.push("the run's own account changed");
      context.check("accounts.replace", problems.length === 0, problems.join("; "));
    } finally {
      await removeAccount(context, key);
    }
  },
};

/** The collection customers of `key` (its list), or the refused answer. */
async function customers(context: FlowContext, key?: string) {
  return context.call("GET", "/collections/customers/me", undefined, key);
}

/** The list's ids, each read by id as well (status and id), in one line. */
async function customersSeen(context: FlowContext, key: string, ids: string[]) {
  const list = await customers(context, key);
  const listed = list.status === 200 ? (list.body.data as Array<{ id: string }>).map((c) => c.id) : [];
  const byId: string[] = [];
  for (const id of ids) {
    const one = await context.call("GET", `/collections/customers/${encodeURIComponent(id)}`, undefined, key);
    byId.push(`${one.status} ${one.status === 200 ? one.body.data.id : ""}`.trim());
  }
  return { list, listed, byId };
}

const businessFlow: Flow = {
  name: "business: collection customers of an account of its own, not Business, Business without, with two",
  choices: ["accounts.business"],
  operations: ["getCollectionCustomers", "getCollectionCustomer"],
  spend: { requests: 8, quotes: 0, trades: 0, addresses: 0 },
  unfit: (context) => unfitWithoutControl(context, "accounts of its own, Business and not"),
  async run(context) {
    // A customer the contract takes: the run's own account's (a Business one, prepared with the documented one).
    const template = expectStatus(await customers(context), 200, "(the run's collection customers)").body.data[0];
    if (!template) throw new FlowFailure("the run's account has no collection customer to copy");
    const [first, second] = [crypto.randomUUID(), crypto.randomUUID()];
    const key = ownKey("business");
    const { notBusiness, notFound } = REFUSAL_STATUS;
    try {
      await controlOf(context).putAccount(key, {});
      const plain = await customersSeen(context, key, [first]);
      await controlOf(context).putAccount(key, { business: true });
      const none = await customersSeen(context, key, [first]);
      const given = [first, second].map((id) => ({ ...template, id }));
      await controlOf(context).putAccount(key, { business: true, collectionCustomers: given });
      const two = await customersSeen(context, key, [first, second]);
      const order = RULE_FORMS.listOrder === "newest-first" ? [second, first] : [first, second];
      const holds =
        plain.list.status === notBusiness &&
        plain.byId.join() === String(notBusiness) &&
        none.list.status === 200 &&
        none.listed.length === 0 &&
        none.byId.join() === String(notFound) &&
        two.listed.join() === order.join() &&
        two.byId.join() === `200 ${first},200 ${second}`;
      const seen = (what: string, s: typeof plain) => `${what}: list ${s.list.status} [${s.listed}], by id ${s.byId}`;
      const evidence = [seen("not Business", plain), seen("Business, none", none), seen("two given", two)];
      context.check("accounts.business", holds, `${evidence.join("; ")} (given ${first}, ${second})`);
    } finally {
      await removeAccount(context, key);
    }
  },
};

/** The sandbox clock's moment and this machine's, read together. */
async function clocks(context: FlowContext) {
  const wall = Date.now();
  const { now } = await controlOf(context).clock();
  return { wall, now };
}

const clockFlow: Flow = {
  name: "clock: the sandbox clock against real time, an answer's Date, an advance past the last moment",
  choices: ["clock"],
  operations: ["getCurrencies"],
  spend: { requests: 1, quotes: 0, trades: 0, addresses: 0 },
  unfit: (context) => unfitWithoutControl(context, "to read the sandbox clock"),
  async run(context) {
    const { clock: kept } = await controlOf(context).state();
    const waited = context.limitWaitMs();
    const before = await clocks(context);
    const answer = await context.call("GET", "/currencies");
    const after = await clocks(context);
    // verify's own pacing moves the sandbox clock to a spent limit's reset before a request: by that much, no more.
    const paced = context.limitWaitMs() - waited;
    const problems: string[] = [];
    // Real time plus the advances (the sandbox's machine may differ from this one's by a little), or standing still.
    const follows =
      kept.kind === "fixed"
        ? before.now === kept.nowMs && after.now === before.now + paced
        : before.now - (kept.offsetMs ?? 0) >= before.wall - CLOCK_TOLERANCE_MS &&
          before.now - (kept.offsetMs ?? 0) <= after.wall + CLOCK_TOLERANCE_MS;
    if (!follows) {
      const then = `, then ${after.now} (verify's pacing moved it ${paced} ms)`;
      problems.push(`a ${kept.kind} clock (${JSON.stringify(kept)}) read ${before.now} at ${before.wall}${then}`);
    }
    if (after.now < before.now) problems.push(`it moved back from ${before.now} to ${after.now}`);
    const date = Date.parse(answer.headers.get("date") ?? "");
    if (!(date >= Math.floor(before.now / 1000) * 1000 && date <= after.now))
      problems.push(`${statusLine(answer)} dated ${answer.headers.get("date")}; the clock read ${before.now}`);
    const past = await refusedByControl(() => controlOf(context).advanceClock(CLOCK_RANGE.latest - after.now + 1));
    const back = await refusedByControl(() => controlOf(context).advanceClock(-1));
    const last = await clocks(context);
    if (!past || !back || last.now >= CLOCK_RANGE.latest)
      problems.push(`an advance past the last moment refused: ${past}; back: ${back}; the clock now ${last.now}`);
    context.check("clock", problems.length === 0, problems.join("; "));
  },
};

/** How far apart the sandbox's machine's time and this machine's may be. */
const CLOCK_TOLERANCE_MS = 2_000;

/** The signing headers of `path` (under the sandbox's base path, as it signs) for `secret` at `timestamp`. */
async function signed(secret: string, method: string, path: string, timestamp: number) {
  const { timestamp: at, signature } = await createSigner(secret, () => timestamp)(method, `http://sandbox${path}`);
  return { [SIGNING_HEADERS.timestamp]: at, [SIGNING_HEADERS.signature]: signature };
}

/** A signed read with `key` (the run's: undefined), its signature over `signedPath` (the path sent, by default). */
async function signedRead(
  context: FlowContext,
  key: string | undefined,
  path: string,
  how: { secret: string; at: number; signedPath?: string },
) {
  // The package's sandbox answers its API under the base path, which the signed path includes.
  const headers = await signed(how.secret, "GET", `${BASE_PATH}${how.signedPath ?? path}`, how.at);
  return context.call("GET", path, undefined, key, { headers });
}

/** The sandbox clock at least twice the signature window from this machine's time (an advance if it is not). */
async function clockApart(context: FlowContext) {
  const { wall, now } = await clocks(context);
  const apart = now - wall;
  if (Math.abs(apart) >= 2 * SIGNATURE_WINDOW_MS) return { wall, now };
  await controlOf(context).advanceClock(2 * SIGNATURE_WINDOW_MS - apart);
  return clocks(context);
}

const signingFlow: Flow = {
  name: "signing: an account of its own with an API secret, signed and not; the run's own without one",
  choices: ["signing"],
  operations: ["getMyWallets", "listDeposits"],
  spend: { requests: 8, quotes: 0, trades: 0, addresses: 0 },
  unfit: (context) => unfitWithoutControl(context, "an account of its own with an API secret"),
  async run(context) {
    const key = ownKey("signing");
    const secret = crypto.randomUUID();
    try {
      await controlOf(context).putAccount(key, { apiSecret: secret });
      // The sandbox clock far from this machine's time, so either may be the one a timestamp is near.
      const { wall, now } = await clockApart(context);
      const stale = Math.min(wall, now) - SIGNATURE_WINDOW_MS - 60_000;
      const wallets = "/wallets/me";
      const query = "/transactions/deposits/me?startDate=2024-01-01T00:00:00Z";
      const encoded = "/transactions/deposits/me?startDate=2024-01-01T00%3A00%3A00Z";
      const { badSignature } = REFUSAL_STATUS;
      const answers: Array<[FlowAnswer, number]> = [
        [await context.call("GET", wallets, undefined, key), badSignature],
        [await signedRead(context, key, wallets, { secret, at: Date.now() }), 200],
        [await signedRead(context, key, wallets, { secret, at: now }), 200],
        [await signedRead(context, key, wallets, { secret: `${secret}x`, at: Date.now() }), badSignature],
        [await signedRead(context, key, wallets, { secret, at: stale }), badSignature],
        [await signedRead(context, key, query, { secret, at: Date.now() }), 200],
        [await signedRead(context, key, query, { secret, at: Date.now(), signedPath: encoded }), 200],
        // Without a secret (the run's account), a signature of the right form is not checked.
        [await signedRead(context, undefined, wallets, { secret, at: stale }), 200],
      ];
      const wrong = answers.filter(([answer, expected]) => answer.status !== expected);
      const evidence = wrong.map(([answer, expected]) => `${statusLine(answer)} (expected ${expected})`);
      context.check("signing", wrong.length === 0, `${evidence.join("; ")} (unsigned, now, sandbox clock, …)`);
    } finally {
      await removeAccount(context, key);
    }
  },
};

/** A limit of the contract's x-rate-limits: its number of requests and its period. */
function contractLimit(holder: unknown, appliesTo?: string): { requests: number; windowMs: number } {
  const entries = isObject(holder) && Array.isArray(holder["x-rate-limits"]) ? holder["x-rate-limits"] : [];
  const entry = entries.filter(isObject).find((candidate) => !appliesTo || candidate.appliesTo === appliesTo);
  const windowMs = durationMs(entry?.window);
  if (typeof entry?.requests !== "number" || windowMs === undefined)
    throw new FlowFailure(`the contract gives no x-rate-limits entry${appliesTo ? ` for ${appliesTo}` : ""}`);
  return { requests: entry.requests, windowMs };
}

/** The rate-limit headers of an answer, as numbers. */
function limitOf(answer: FlowAnswer) {
  const header = (name: string) => Number(answer.headers.get(name));
  const [limit, remaining, reset] = [RATE_LIMIT_HEADERS.limit, RATE_LIMIT_HEADERS.remaining, RATE_LIMIT_HEADERS.reset];
  return { limit: header(limit), remaining: header(remaining), reset: header(reset) };
}

/** The reset (Unix seconds, rounded up) of a window opened between `from` and `to` lasting `windowMs`. */
const resetBetween = (reset: number, from: number, to: number, windowMs: number) =>
  reset >= Math.ceil((from + windowMs) / 1000) && reset <= Math.ceil((to + windowMs) / 1000);

/** How long before a window's end the flow reads inside it, on the sandbox clock (real time passes meanwhile). */
const INSIDE_MARGIN_MS = 10_000;

/** Moves the sandbox clock forward to `moment` (not back: an earlier moment leaves it). */
async function advanceTo(context: FlowContext, moment: number) {
  const { now } = await controlOf(context).clock();
  if (moment > now) await controlOf(context).advanceClock(moment - now);
}

/**
 * The minute's window: opened at the first request, the same inside its period, a new one after it. Its number of
 * requests is the one the target states: a sandbox started with limits.requestsPerMinute states its own.
 */
async function minuteWindow(context: FlowContext, key: string, periodMs: number) {
  const read = async () => context.call("GET", "/currencies/fiat-rates", undefined, key);
  const from = (await controlOf(context).clock()).now;
  const first = limitOf(expectStatus(await read(), 200, "(a counted read)"));
  const to = (await controlOf(context).clock()).now;
  await advanceTo(context, from + periodMs - INSIDE_MARGIN_MS);
  const inside = limitOf(expectStatus(await read(), 200, "(a read inside the window)"));
  await advanceTo(context, to + periodMs);
  const after = limitOf(expectStatus(await read(), 200, "(a read after the window)"));
  const holds =
    first.remaining === first.limit - 1 &&
    resetBetween(first.reset, from, to, periodMs) &&
    inside.reset === first.reset &&
    inside.remaining === first.limit - 2 &&
    after.limit === first.limit &&
    after.remaining === first.limit - 1 &&
    after.reset > first.reset;
  const seen = [first, inside, after].map((l) => `limit ${l.limit}, remaining ${l.remaining}, reset ${l.reset}`);
  return { holds, stated: first.limit, evidence: `minute: ${seen.join("; ")} (the clock from ${from})` };
}

/**
 * Create Quote's own window (its period the contract's; described while it has the fewest left), then quotes until
 * the headers say none is left, and one more, which a spent limit refuses.
 */
async function quoteWindow(context: FlowContext, key: string, quota: { windowMs: number }, minuteStated: number) {
  const pair = await sellablePair(context);
  const body = { sourceId: pair.source, targetId: pair.target, amount: 1, side: "SELL" };
  const quote = () => context.call("POST", "/trades/quote", body, key, { unpaced: true });
  const from = (await controlOf(context).clock()).now;
  const first = limitOf(expectStatus(await quote(), 200, "(a quote of its own)"));
  const to = (await controlOf(context).clock()).now;
  const hourly = first.limit !== minuteStated;
  let [last, falling] = [first, true];
  for (let sent = 1; last.remaining > 0 && sent <= first.limit; sent++) {
    const next = limitOf(expectStatus(await quote(), 200, "(a quote within the limit)"));
    falling &&= next.remaining === last.remaining - 1;
    last = next;
  }
  const spent = await quote();
  const holds =
    (!hourly || resetBetween(first.reset, from, to, quota.windowMs)) &&
    falling &&
    last.remaining === 0 &&
    spent.status === RATE_LIMITED_STATUS;
  const seen = `limit ${first.limit}, remaining ${first.remaining}, reset ${first.reset} (the clock from ${from})`;
  return {
    holds,
    evidence: `Create Quote: ${seen}; falling by one to ${last.remaining}: ${falling}; ${spent.exchange}`,
  };
}

const limitsFlow: Flow = {
  name: "limit windows: an account of its own across the minute's window, then its quotes spent",
  choices: ["limits.windows"],
  operations: ["getFiatRates", ...TRADE_OPERATIONS],
  // Three reads, the pair, and Create Quote's hourly figure (the contract's: 100) and one more. The periods are the
  // contract's; the numbers of requests those the target states (limits.* override the contract's on a sandbox).
  spend: { requests: 106, quotes: 101, trades: 0, addresses: 0 },
  unfit: (context) => unfitWithoutControl(context, "an account of its own and to move the sandbox clock"),
  async run(context) {
    const minute = contractLimit(context.document.info);
    const createQuote = listOperations(context.document).find((operation) => operation.operationId === "createQuote");
    const quota = contractLimit(createQuote?.operation, createQuote?.key);
    const key = ownKey("limits");
    try {
      await controlOf(context).putAccount(key, {});
      const windows = await minuteWindow(context, key, minute.windowMs);
      const quotes = await quoteWindow(context, key, quota, windows.stated);
      context.check("limits.windows", windows.holds && quotes.holds, `${windows.evidence}; ${quotes.evidence}`);
    } finally {
      await removeAccount(context, key);
    }
  },
};

/** How far the per-key flow moves one key's clock: past a minute's window of its limits. */
const KEY_ADVANCE_MS = 61_000;

/** The clock offsets of `keys`, from the state (exact: no real time passes between the two reads). */
async function offsetsOf(context: FlowContext, keys: string[]) {
  const { accounts } = await controlOf(context).state();
  return keys.map((key) => accounts[key]?.clockOffsetMs);
}

const clockPerKeyFlow: Flow = {
  name: "a clock per key: one key's advance moves its windows, not another key's",
  choices: ["clock.per-key"],
  operations: ["getCurrencies"],
  spend: { requests: 4, quotes: 0, trades: 0, addresses: 0 },
  unfit: (context) => unfitWithoutControl(context, "accounts of their own and to move one key's clock"),
  async run(context) {
    const [moved, still] = [ownKey("clock-a"), ownKey("clock-b")];
    const read = async (key: string) =>
      limitOf(expectStatus(await context.call("GET", "/currencies", undefined, key), 200, "(a read of its own)"));
    try {
      for (const key of [moved, still]) await controlOf(context).putAccount(key, {});
      const [movedFirst, stillFirst] = [await read(moved), await read(still)];
      const before = (await controlOf(context).accountClock(moved)).now;
      const answered = (await controlOf(context).advanceAccountClock(moved, KEY_ADVANCE_MS)).now;
      const offsets = await offsetsOf(context, [moved, still]);
      const [movedAfter, stillAfter] = [await read(moved), await read(still)];
      const past = await refusedByControl(() => controlOf(context).advanceAccountClock(moved, CLOCK_RANGE.latest));
      const holds =
        answered >= before + KEY_ADVANCE_MS &&
        offsets.join() === `${KEY_ADVANCE_MS},0` &&
        movedAfter.remaining === movedFirst.limit - 1 &&
        movedAfter.reset >= movedFirst.reset + KEY_ADVANCE_MS / 1000 &&
        stillAfter.reset === stillFirst.reset &&
        stillAfter.remaining === stillFirst.remaining - 1 &&
        past;
      const seen = (l: ReturnType<typeof limitOf>) => `remaining ${l.remaining}, reset ${l.reset}`;
      const evidence =
        `advanced ${KEY_ADVANCE_MS} ms: ${before} → ${answered}, offsets ${offsets.join(", ")}; ` +
        `moved key ${seen(movedFirst)} → ${seen(movedAfter)}; other key ${seen(stillFirst)} → ${seen(stillAfter)}; ` +
        `an advance past the last moment refused: ${past}`;
      context.check("clock.per-key", holds, evidence);
    } finally {
      for (const key of [moved, still]) await removeAccount(context, key);
    }
  },
};

/** The flows of the register's account, wallet, signing, limit and clock rules, in the order verify runs them. */
export const ACCOUNT_RULE_FLOWS: readonly Flow[] = [
  keylessFlow,
  walletsFlow,
  firstUseFlow,
  replaceFlow,
  businessFlow,
  clockFlow,
  clockPerKeyFlow,
  signingFlow,
  limitsFlow,
];
