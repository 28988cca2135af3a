// verify's flows of the register's account, wallet, signing, limit-window and clock rules (account-rules.ts): on a
// fresh sandbox they pass and confirm each rule; against the sandbox behind a proxy that breaks one rule, the run
// fails with that rule contradicted; on the mock, and (those that need the control API) on a deployment, they are
// untested, saying why. The first-use flow checks both forms of accounts.first-use on any sandbox: it turns its
// requireKnownKeys over (PUT /_sandbox/settings) for a second new key, then puts it back.
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import type { VerifyOptions } from "../../src/verify/index.js";
import { closeServers, closers, type Report, run } from "./support/flow-runs.js";
import { type Deviation, deviantSandbox, type Exchange } from "./support/deviant-sandbox.js";

afterEach(closeServers);

const FLOWS = [
  "keyless: account reads without a key or with an empty one, catalogue reads without one",
  "wallets: the balances beside the available one, and a currency the catalogue lacks",
  "first use: a new key's wallets, with the sandbox taking any key and requiring known keys",
  "replace: an account of its own put again over its trades, then deleted",
  "business: collection customers of an account of its own, not Business, Business without, with two",
  "clock: the sandbox clock against real time, an answer's Date, an advance past the last moment",
  "a clock per key: one key's advance moves its windows, not another key's",
  "signing: an account of its own with an API secret, signed and not; the run's own without one",
  "limit windows: an account of its own across the minute's window, then its quotes spent",
];

const ENTRIES = [
  "clock",
  "clock.per-key",
  "accounts.first-use",
  "accounts.unknown-key",
  "accounts.default-balances",
  "accounts.replace",
  "accounts.keyless",
  "accounts.business",
  "wallets.balances",
  "limits.windows",
  "signing",
];

/** The outcome (and reason) of each of these flows, by name. */
const flowsOf = (report: Report) =>
  Object.fromEntries(
    (report.flows ?? [])
      .filter((flow) => FLOWS.includes(flow.flow))
      .map((flow) => [flow.flow, flow.reason === undefined ? flow.outcome : `${flow.outcome}: ${flow.reason}`]),
  );

/** The verdict of each of these entries, by id. */
const verdictsOf = (report: Report) =>
  Object.fromEntries((report.choices ?? []).filter((c) => ENTRIES.includes(c.id)).map((c) => [c.id, c.verdict]));

const evidenceOf = (report: Report, id: string) => report.choices!.find((choice) => choice.id === id)?.evidence;

/** The report of a run against the sandbox (requiring known keys when asked) with `deviate` rewriting its answers. */
async function againstDeviant(deviate: Deviation, options: Partial<VerifyOptions> = {}, requireKnownKeys = false) {
  const deviant = await deviantSandbox(deviate, { requireKnownKeys });
  closers.push(() => deviant.close());
  return run(deviant.baseUrl, options);
}

const asIs: Deviation = ({ status, body }) => ({ status, body });

/** A request of a key of one of the flows' own (`api-contract-verify-<what>-…`). */
const ofOwnKey = (exchange: Exchange, what: string) => exchange.apiKey?.startsWith(`api-contract-verify-${what}-`);

/** The body of the first answer seen of `path` with status 200. */
const firstOk = (seen: Exchange[], path: string) =>
  seen.find((earlier) => earlier.path === path && earlier.status === 200)?.body;

describe("the account-rule flows on a fresh sandbox", () => {
  it("pass, confirming every entry they check, and put the sandbox's requireKnownKeys back", async () => {
    const sandbox = await startSandbox({ port: 0, quiet: true });
    closers.push(() => sandbox.stop());
    const report = await run(sandbox.baseUrl);
    expect(flowsOf(report)).toEqual(Object.fromEntries(FLOWS.map((flow) => [flow, "passed"])));
    expect(verdictsOf(report)).toEqual({
      clock: "confirmed",
      "clock.per-key": "confirmed",
      "accounts.first-use": "confirmed",
      "accounts.unknown-key": "confirmed",
      "accounts.default-balances": "confirmed",
      "accounts.replace": "confirmed",
      "accounts.keyless": "confirmed",
      "accounts.business": "confirmed",
      "wallets.balances": "confirmed",
      "limits.windows": "confirmed",
      signing: "confirmed",
    });
    expect(sandbox.sandbox.settings()).toEqual({ requireKnownKeys: false });
    // Any flow of the run that failed (another module's too), with why, before the verdict that sums them up.
    expect(report.flows!.filter((flow) => flow.outcome === "failed")).toEqual([]);
    expect(report.ok).toBe(true);
  }, 60_000);

  it("where the sandbox requires known keys, confirm both forms of first use, and leave it so", async () => {
    const deviant = await deviantSandbox(asIs, { requireKnownKeys: true });
    closers.push(() => deviant.close());
    const report = await run(deviant.baseUrl, { target: "sandbox" });
    expect(flowsOf(report)).toEqual(Object.fromEntries(FLOWS.map((flow) => [flow, "passed"])));
    expect(verdictsOf(report)).toEqual({
      clock: "confirmed",
      "clock.per-key": "confirmed",
      "accounts.first-use": "confirmed",
      "accounts.unknown-key": "confirmed",
      "accounts.default-balances": "confirmed",
      "accounts.replace": "confirmed",
      "accounts.keyless": "confirmed",
      "accounts.business": "confirmed",
      "wallets.balances": "confirmed",
      "limits.windows": "confirmed",
      signing: "confirmed",
    });
    expect(deviant.sandbox.sandbox.settings()).toEqual({ requireKnownKeys: true });
    // Any flow of the run that failed (another module's too), with why, before the verdict that sums them up.
    expect(report.flows!.filter((flow) => flow.outcome === "failed")).toEqual([]);
    expect(report.ok).toBe(true);
  }, 60_000);
});

describe("the first-use flow on a sandbox without settings (a version before PUT /_sandbox/settings)", () => {
  it("checks the form the sandbox has and leaves the other untested, saying why", async () => {
    const taking = await deviantSandbox(asIs, { missingControlPath: "/_sandbox/settings" });
    closers.push(() => taking.close());
    const anyKey = await run(taking.baseUrl, { rules: ["accounts.unknown-key"] });
    const firstUseIds = ["accounts.first-use", "accounts.unknown-key", "accounts.default-balances"];
    expect(anyKey.choices!.filter((choice) => firstUseIds.includes(choice.id))).toEqual([
      expect.objectContaining({ id: "accounts.first-use", verdict: "confirmed" }),
      {
        id: "accounts.unknown-key",
        verdict: "untested",
        reason: "the sandbox takes any key, and has no settings to require known keys",
      },
      expect.objectContaining({ id: "accounts.default-balances", verdict: "confirmed" }),
    ]);
    const requiring = await deviantSandbox(asIs, { missingControlPath: "/_sandbox/settings", requireKnownKeys: true });
    closers.push(() => requiring.close());
    const knownOnly = await run(requiring.baseUrl, { target: "sandbox", rules: ["accounts.first-use"] });
    expect(knownOnly.choices!.find((choice) => choice.id === "accounts.first-use")).toEqual({
      id: "accounts.first-use",
      verdict: "untested",
      reason: "the sandbox requires known keys: a new key gets no account",
    });
    expect(knownOnly.choices!.find((choice) => choice.id === "accounts.unknown-key")?.verdict).toBe("confirmed");
  }, 60_000);
});

describe("the first-use flow that fails half-way", () => {
  it("puts the sandbox's requireKnownKeys back all the same", async () => {
    // The second new key's refusal (known keys required) answered with a body the contract does not allow.
    const broken: Deviation = (exchange) =>
      ofOwnKey(exchange, "new") && exchange.status === 401 ? { status: 200, body: { data: "none" } } : exchange;
    const deviant = await deviantSandbox(broken);
    closers.push(() => deviant.close());
    const report = await run(deviant.baseUrl, { rules: ["accounts.unknown-key"] });
    expect(report.flows!.find((flow) => flow.flow === FLOWS[2])).toMatchObject({
      outcome: "failed",
      reason: expect.stringMatching(/^GET \/wallets\/me → 200 .*: breaks the contract/),
    });
    expect(deviant.sandbox.sandbox.settings()).toEqual({ requireKnownKeys: false });
  }, 60_000);
});

describe("the account-rule flows where they cannot run", () => {
  it("are untested on the mock, and on a deployment only the keyless reads run", async () => {
    const control = "which only the package's sandbox gives it (control API)";
    const noneHere = "which the sandbox has none of";
    const deployment = await againstDeviant(asIs, { target: "deployment", minIntervalMs: 0 });
    expect(flowsOf(deployment)).toEqual({
      [FLOWS[0]!]: "passed",
      [FLOWS[1]!]: `untested: a deployment's account may hold pending, locked or peer-to-peer funds, ${noneHere}`,
      [FLOWS[2]!]: `untested: it needs to see whether a new key got an account, ${control}`,
      [FLOWS[3]!]: `untested: it needs to put and delete an account of its own, ${control}`,
      [FLOWS[4]!]: `untested: it needs accounts of its own, Business and not, ${control}`,
      [FLOWS[5]!]: `untested: it needs to read the sandbox clock, ${control}`,
      [FLOWS[6]!]: `untested: it needs accounts of their own and to move one key's clock, ${control}`,
      [FLOWS[7]!]: `untested: it needs an account of its own with an API secret, ${control}`,
      [FLOWS[8]!]: `untested: it needs an account of its own and to move the sandbox clock, ${control}`,
    });
    expect(Object.entries(verdictsOf(deployment)).filter(([, verdict]) => verdict !== "untested")).toEqual([
      ["accounts.keyless", "confirmed"],
    ]);
    const onMock = await againstDeviant(asIs, { target: "mock" });
    expect(flowsOf(onMock)).toEqual(
      Object.fromEntries(FLOWS.map((flow) => [flow, "untested: the mock keeps no state between requests"])),
    );
  }, 60_000);
});

/** Runs against `deviate` and expects `id` contradicted (and only it among these entries), the run failed. */
async function contradicts(id: string, deviate: Deviation, requireKnownKeys = false) {
  // Only the flows that check `id` run (VerifyOptions.rules): the others would pass by, as on the full run above.
  const options = requireKnownKeys ? { target: "sandbox" as const, rules: [id] } : { rules: [id] };
  const report = await againstDeviant(deviate, options, requireKnownKeys);
  const contradicted = Object.entries(verdictsOf(report)).filter(([, verdict]) => verdict === "contradicted");
  expect(contradicted).toEqual([[id, "contradicted"]]);
  expect(report.ok).toBe(false);
  return evidenceOf(report, id);
}

describe("the account-rule flows against a sandbox that breaks one rule", () => {
  it("an account read without a key answered: accounts.keyless contradicted", async () => {
    const open: Deviation = ({ method, path, status, body, apiKey }, seen) => {
      const wallets = firstOk(seen, "/v1/wallets/me");
      const keyless = method === "GET" && path === "/v1/wallets/me" && !apiKey && status === 401 && wallets;
      return keyless ? { status: 200, body: wallets } : { status, body };
    };
    expect(await contradicts("accounts.keyless", open)).toMatch(
      new RegExp(
        "^without a key \\(the second: empty\\): GET /wallets/me → 200; GET /wallets/me → 200; " +
          "GET /transactions/me → 401; GET /currencies → 200; GET /trades/pairs → 200; " +
          "GET /currencies/fiat-rates → 200$",
      ),
    );
  }, 60_000);

  it("a locked balance: wallets.balances contradicted", async () => {
    const locked: Deviation = ({ method, path, status, body }) => {
      if (method !== "GET" || path !== "/v1/wallets/me" || status !== 200) return { status, body };
      const [first, ...rest] = body.data;
      return { status, body: { ...body, data: [{ ...first, lockedBalance: 50 }, ...rest] } };
    };
    expect(await contradicts("wallets.balances", locked)).toMatch(/^USDT: \{.*"lockedBalance":50,/);
  }, 60_000);

  it("a new key refused: accounts.first-use contradicted", async () => {
    const refused: Deviation = (exchange) =>
      ofOwnKey(exchange, "new") ? { status: 401, body: { message: "Unauthorized" } } : exchange;
    expect(await contradicts("accounts.first-use", refused)).toBe(
      'GET /wallets/me → 401 {"message":"Unauthorized"}; own wallets: false',
    );
  }, 60_000);

  it("a key without an account refused with 403: accounts.unknown-key contradicted", async () => {
    const forbidden: Deviation = (exchange) =>
      ofOwnKey(exchange, "new") && exchange.status === 401 ? { status: 403, body: exchange.body } : exchange;
    const evidence = await contradicts("accounts.unknown-key", forbidden, true);
    expect(evidence).toMatch(/^GET \/wallets\/me → 403 \{"message":"this API key has no account in the sandbox/);
  }, 60_000);

  it("a new account with one more USDT: accounts.default-balances contradicted", async () => {
    const richer: Deviation = (exchange) => {
      if (!ofOwnKey(exchange, "new") || exchange.status !== 200) return exchange;
      const [first, ...rest] = exchange.body.data;
      const data = [{ ...first, availableBalance: first.availableBalance + 1 }, ...rest];
      return { status: 200, body: { ...exchange.body, data } };
    };
    expect(await contradicts("accounts.default-balances", richer)).toMatch(
      /^GET \/wallets\/me → 200 .*: USDT 1151\.75 \(expected 1150\.75\)$/,
    );
  }, 60_000);

  it("a history kept over a put: accounts.replace contradicted", async () => {
    const kept: Deviation = (exchange, seen) => {
      const { method, path, status, body } = exchange;
      const old = seen.find((e) => e.path === "/v1/transactions/me" && e.status === 200 && e.body.data.length);
      const empty = method === "GET" && path === "/v1/transactions/me" && status === 200 && !body.data.length;
      if (!ofOwnKey(exchange, "replace") || !empty || !old) return exchange;
      return { status, body: { ...body, data: old.body.data.slice(0, 1) } };
    };
    expect(await contradicts("accounts.replace", kept)).toMatch(/^transactions left: \S+; transactions left: \S+$/);
  }, 60_000);

  it("collection customers listed to an account that is not Business: accounts.business contradicted", async () => {
    // The 403 of the list answered as the run's own list, emptied.
    const open: Deviation = (exchange, seen) => {
      const own = firstOk(seen, "/v1/collections/customers/me");
      const list = exchange.path === "/v1/collections/customers/me" && exchange.status === 403;
      return ofOwnKey(exchange, "business") && list && own ? { status: 200, body: { ...own, data: [] } } : exchange;
    };
    expect(await contradicts("accounts.business", open)).toMatch(
      /^not Business: list 200 \[\], by id 403; Business, none: list 200 \[\], by id 404; two given: list 200 \[/,
    );
  }, 60_000);

  it("an unsigned request of an account with a secret answered: signing contradicted", async () => {
    const unchecked: Deviation = (exchange, seen) => {
      const wallets = firstOk(seen, "/v1/wallets/me");
      const refused = ofOwnKey(exchange, "signing") && exchange.status === 401 && exchange.path === "/v1/wallets/me";
      return refused && wallets ? { status: 200, body: wallets } : exchange;
    };
    expect(await contradicts("signing", unchecked)).toBe(
      "GET /wallets/me → 200 (expected 401); GET /wallets/me → 200 (expected 401); GET /wallets/me → 200 " +
        "(expected 401) (unsigned, now, sandbox clock, …)",
    );
  }, 60_000);

  it("a spent Create Quote limit answered: limits.windows contradicted", async () => {
    const unlimited: Deviation = (exchange, seen) => {
      const quote = [...seen].reverse().find((e) => e.path === "/v1/trades/quote" && e.status === 200);
      const spent = exchange.path === "/v1/trades/quote" && exchange.status === 429;
      return spent && quote ? { status: 200, body: quote.body } : exchange;
    };
    expect(await contradicts("limits.windows", unlimited)).toMatch(
      new RegExp(
        "^minute: limit 200, remaining 199, reset (\\d+); limit 200, remaining 198, reset \\1; " +
          "limit 200, remaining 199, reset \\d+ \\(the clock from \\d+\\); " +
          "Create Quote: limit 100, remaining 99, reset \\d+ \\(the clock from \\d+\\); " +
          "falling by one to 0: true; POST /trades/quote → 200 ",
      ),
    );
  }, 60_000);

  it("another key's window moved by one key's advance: clock.per-key contradicted", async () => {
    const shared: Deviation = (exchange, seen) => {
      const again = ofOwnKey(exchange, "clock-b") && seen.some((earlier) => ofOwnKey(earlier, "clock-b"));
      return again ? { ...exchange, headers: { "x-ratelimit-reset": "2000000000" } } : exchange;
    };
    expect(await contradicts("clock.per-key", shared)).toMatch(
      new RegExp(
        "^advanced 61000 ms: (\\d+) → \\d+, offsets 61000, 0; " +
          "moved key remaining 199, reset (\\d+) → remaining 199, reset \\d+; " +
          "other key remaining 199, reset \\d+ → remaining 198, reset 2000000000; " +
          "an advance past the last moment refused: true$",
      ),
    );
  }, 60_000);

  it("an answer dated by another clock: clock contradicted", async () => {
    const dated: Deviation = ({ method, path, status, body }) => {
      const currencies = method === "GET" && path === "/v1/currencies";
      return currencies ? { status, body, headers: { date: "Mon, 01 Jan 2001 00:00:00 GMT" } } : { status, body };
    };
    expect(await contradicts("clock", dated)).toMatch(
      /^GET \/currencies → 200 dated Mon, 01 Jan 2001 00:00:00 GMT; the clock read \d+$/,
    );
  }, 60_000);
});
