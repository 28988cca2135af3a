// verify's money flows (src/verify/flows/money-rules.ts): on a fresh sandbox each passes and confirms its register
// entries; against the sandbox behind a proxy that breaks one rule, the run fails with that entry contradicted;
// on the mock they are untested, and on a deployment those that need the control API are, saying why.
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import type { VerifyOptions } from "../../src/verify/index.js";
import { closeServers, closers, type Report, run } from "./support/flow-runs.js";
import { type Deviation, deviantSandbox } from "./support/deviant-sandbox.js";

afterEach(closeServers);

const MONEY_FLOWS = [
  "address values: each receivable network's address against its addressRegex",
  "address refused: a pair not receivable, and one not active",
  "deposits: two simulated, read back, and those refused",
  "withdrawal checks: each refused request, and the state as it was",
  "withdrawal settlement: before its moment, at it, and settled again",
  "payouts: a bank and a crypto withdrawal, listed and recorded, the crypto one refunded",
  "list filters: deposits and payouts by currency, status and dates",
  "history by category: each category of the history, and TRANSFER",
];

const MONEY_ENTRIES = [
  "addresses.values",
  "addresses.not-receivable",
  "deposits",
  "withdrawals.checks",
  "withdrawals.settlement",
  "withdrawals.payouts",
  "withdrawals.records",
  "lists.filters",
  "lists.category",
];

/** The money flows' results, by name. */
const moneyFlows = (report: Report) =>
  Object.fromEntries(
    (report.flows ?? []).filter((f) => MONEY_FLOWS.includes(f.flow)).map((f) => [f.flow, [f.outcome, f.reason]]),
  );
/** The verdicts on the money entries, by id. */
const moneyVerdicts = (report: Report) =>
  Object.fromEntries((report.choices ?? []).filter((c) => MONEY_ENTRIES.includes(c.id)).map((c) => [c.id, c.verdict]));
const choice = (report: Report, id: string) => report.choices!.find((c) => c.id === id)!;

async function againstDeviant(deviate: Deviation, options: Partial<VerifyOptions> = {}) {
  const deviant = await deviantSandbox(deviate);
  closers.push(() => deviant.close());
  return run(deviant.baseUrl, options);
}

describe("verify's money flows on a fresh sandbox", () => {
  it("pass, and confirm each money entry", async () => {
    const sandbox = await startSandbox({ port: 0, quiet: true });
    closers.push(() => sandbox.stop());
    const report = await run(sandbox.baseUrl);
    expect(moneyFlows(report)).toEqual(Object.fromEntries(MONEY_FLOWS.map((f) => [f, ["passed", undefined]])));
    expect(moneyVerdicts(report)).toEqual({
      "addresses.values": "confirmed",
      "addresses.not-receivable": "confirmed",
      deposits: "confirmed",
      "withdrawals.checks": "confirmed",
      "withdrawals.settlement": "confirmed",
      "withdrawals.payouts": "confirmed",
      "withdrawals.records": "confirmed",
      "lists.filters": "confirmed",
      "lists.category": "confirmed",
    });
    // Any flow of the run that failed (another module's too), with why, before the verdict that sums them up.
    expect(report.flows!.filter((flow) => flow.outcome === "failed")).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

/** The answer as the sandbox gave it. */
const asIs: Deviation = ({ status, body }) => ({ status, body });
/** A deviation that rewrites only the answers `when` picks. */
const only =
  (when: (method: string, path: string, status: number, body: any) => boolean, change: Deviation): Deviation =>
  (exchange, seen) =>
    when(exchange.method, exchange.path, exchange.status, exchange.body)
      ? change(exchange, seen)
      : asIs(exchange, seen);
/** The latest earlier answer to exactly `path`. */
const latest = (seen: Parameters<Deviation>[1], path: string) => [...seen].reverse().find((e) => e.path === path);

/** Expects the run to fail with `id` contradicted (and no flow to have stopped short), and answers its evidence. */
function contradicted(report: Report, id: string): string {
  const verdict = choice(report, id);
  expect(verdict.verdict).toBe("contradicted");
  expect(report.ok).toBe(false);
  const flow = report.flows!.find((f) => MONEY_FLOWS.includes(f.flow) && f.reason?.includes(id));
  expect(flow?.outcome).toBe("failed");
  return verdict.evidence!;
}

describe("verify's money flows against a sandbox that breaks one rule", () => {
  it("an ETH address that is not 0x and 40 hex digits: addresses.values contradicted", async () => {
    const report = await againstDeviant(
      only(
        (method, path, status, body) =>
          method === "POST" && path === "/v1/addresses/broker" && status === 200 && body.data.network === "ETH",
        ({ status, body }) => ({ status, body: { ...body, data: { ...body.data, value: "eth-address-1" } } }),
      ),
      { rules: ["addresses.values"] },
    );
    expect(contradicted(report, "addresses.values")).toMatch(
      /^POST \/addresses\/broker → 200 .*: eth-address-1 is not 0x and hex \(regex undefined\)$/,
    );
  });

  it("a pair refused with 422, not 400: addresses.not-receivable contradicted", async () => {
    const report = await againstDeviant(
      only(
        (method, path, status) => method === "POST" && path === "/v1/addresses/broker" && status === 400,
        ({ body }) => ({ status: 422, body }),
      ),
      { rules: ["addresses.not-receivable"] },
    );
    const refusedPairs = contradicted(report, "addresses.not-receivable");
    expect(refusedPairs).toMatch(/^POST \/addresses\/broker → 422 .*API-CONTRACT-VERIFY-NONE/);
    expect(refusedPairs).toMatch(/; POST \/addresses\/broker → 422 .*BSC.*; addresses unchanged: true$/);
  });

  it("a deposit shown PENDING: deposits contradicted", async () => {
    const report = await againstDeviant(
      only(
        (method, path, status, body) =>
          method === "GET" &&
          /^\/v1\/transactions\/[0-9a-f-]{36}$/.test(path) &&
          status === 200 &&
          body.data.category === "DEPOSIT",
        ({ status, body }) => ({
          status,
          body: { ...body, data: { ...body.data, deposit: { ...body.data.deposit, status: "PENDING" } } },
        }),
      ),
      { rules: ["deposits"] },
    );
    const deposits = contradicted(report, "deposits").split(/; (?=GET )/);
    // Both deposits, each as Get Transaction showed it: PENDING where the register says CONFIRMED.
    expect(deposits).toHaveLength(2);
    for (const deposit of deposits)
      expect(deposit).toMatch(
        /^GET \/transactions\/\S+ → 200 .*: CREDIT DEPOSIT "USDT deposit on TRX", PENDING, fee 0, /,
      );
    expect(deposits[0]).toMatch(/, rate 1, hash [0-9a-f]{64}, to /);
    expect(deposits[1]).toContain(`, rate 1, hash ${"ab".repeat(32)}, to `);
    expect(deposits[0]).toMatch(/, to (T\w{33}) \(expected CONFIRMED, fee 0, rate 1, to \1\)$/);
  });

  it("a withdrawal refused with 400 where the register says 422: withdrawals.checks contradicted", async () => {
    const report = await againstDeviant(
      only(
        (method, path, status) => method === "POST" && path === "/v1/wallets/ext/debit/crypto" && status === 422,
        ({ body }) => ({ status: 400, body }),
      ),
      { rules: ["withdrawals.checks"] },
    );
    const evidence = contradicted(report, "withdrawals.checks");
    expect(evidence).toMatch(/^an address not matching addressRegex: POST \/wallets\/ext\/debit\/crypto → 400 /);
    expect(evidence).toMatch(/; an amount of 0: POST \/wallets\/ext\/debit\/crypto → 400 .* \(expected 422\); /);
    expect(evidence).not.toContain("the wallets or the history changed");
  });

  it("a payout that never settles: withdrawals.settlement contradicted", async () => {
    const report = await againstDeviant(
      only(
        (method, path, status, body) =>
          method === "GET" &&
          /^\/v1\/transactions\/[0-9a-f-]{36}$/.test(path) &&
          status === 200 &&
          body.data.payout?.status === "SUCCESSFUL",
        ({ status, body }) => ({
          status,
          body: { ...body, data: { ...body.data, payout: { ...body.data.payout, status: "APPROVED" } } },
        }),
      ),
      { rules: ["withdrawals.settlement"] },
    );
    const settlement = contradicted(report, "withdrawals.settlement");
    expect(settlement).toMatch(
      /: APPROVED 5000 ms before (\S+Z), APPROVED updated \1 at it \(expected SUCCESSFUL updated \1\)/,
    );
    expect(settlement).toMatch(/; settled again: 409 \(expected 409\)$/);
  });

  it("a payouts list showing the whole account number: withdrawals.payouts contradicted", async () => {
    const unmask = (item: any) => ({
      ...item,
      payout: { ...item.payout, bankAccount: { ...item.payout.bankAccount, accountNumber: "0123456789" } },
    });
    const report = await againstDeviant(
      only(
        (method, path, status) =>
          method === "GET" && path.startsWith("/v1/transactions/withdrawals/me") && status === 200,
        ({ status, body }) => ({ status, body: { ...body, data: body.data.map(unmask) } }),
      ),
      { rules: ["withdrawals.payouts"] },
    );
    const payouts = contradicted(report, "withdrawals.payouts");
    expect(payouts).toMatch(
      /^POST \/wallets\/ext\/debit\/fiat → 200 .*; GET \/transactions\/withdrawals\/me\?page=1&pageSize=1000 → /,
    );
    expect(payouts).toMatch(
      /: listed 1: account number 0123456789, TRF-\d{8}-\w{6}, EXT-\d{10}; answered 0123456789, dollarValue 0\.62, /,
    );
    expect(payouts).toMatch(
      /, dollarValue 0\.62, bitcoinValue 0 \(expected 0\.62042 dollars to cents, BTC rate none\)$/,
    );
  });

  it("a refund described as the withdrawal is: withdrawals.records contradicted", async () => {
    const described = (item: any) =>
      item.description === "Refund of external payout" ? { ...item, description: "External payout" } : item;
    const report = await againstDeviant(
      only(
        (method, path, status) => method === "GET" && path.startsWith("/v1/transactions/me") && status === 200,
        ({ status, body }) => ({ status, body: { ...body, data: body.data.map(described) } }),
      ),
      { rules: ["withdrawals.records"] },
    );
    const records = contradicted(report, "withdrawals.records");
    expect(records).toMatch(/^GET \/transactions\/me\?page=1&pageSize=1000 → 200 .*: withdrawals "External payout, /);
    expect(records).toMatch(
      /refund "External payout" \(expected "External payout", UUID references, refund "Refund of external payout"\)$/,
    );
  });

  it("a deposits list that ignores status: lists.filters contradicted", async () => {
    const whole = "/v1/transactions/deposits/me?page=1&pageSize=1000";
    const report = await againstDeviant(
      only(
        (method, path) => method === "GET" && path.startsWith(`${whole}&status=`),
        ({ status, body }, seen) => ({ status, body: latest(seen, whole)?.body ?? body }),
      ),
      { rules: ["lists.filters"] },
    );
    expect(contradicted(report, "lists.filters")).toMatch(
      /^GET \/transactions\/deposits\/me\?page=1&pageSize=1000&status=confirmed → 200 .* \(expected 0: \)$/,
    );
  });

  it("a history that ignores category: lists.category contradicted", async () => {
    const whole = "/v1/transactions/me?page=1&pageSize=1000";
    const report = await againstDeviant(
      only(
        (method, path) => method === "GET" && path.startsWith(`${whole}&category=`),
        ({ status, body }, seen) => ({ status, body: latest(seen, whole)?.body ?? body }),
      ),
      { rules: ["lists.category"] },
    );
    const categories = contradicted(report, "lists.category").split(/; (?=GET )/);
    // Every category gave the whole history (two items): one each was kept, none for TRANSFER.
    expect(categories.map((c) => c.replace(/ → 200 .* \(expected/, " → (expected"))).toEqual([
      expect.stringMatching(/^GET \/transactions\/me\?page=1&pageSize=1000&category=WITHDRAWAL → \(expected 1: \S+/),
      expect.stringMatching(/^GET \/transactions\/me\?page=1&pageSize=1000&category=DEPOSIT → \(expected 1: \S+\)$/),
      "GET /transactions/me?page=1&pageSize=1000&category=TRANSFER → (expected 0: )",
    ]);
  });
});

describe("verify's money flows where they cannot run", () => {
  it("are untested on the mock", async () => {
    const report = await againstDeviant(asIs, { target: "mock" });
    expect(moneyFlows(report)).toEqual(
      Object.fromEntries(MONEY_FLOWS.map((f) => [f, ["untested", "the mock keeps no state between requests"]])),
    );
    expect(new Set(Object.values(moneyVerdicts(report)))).toEqual(new Set(["untested"]));
  });

  it("on a deployment, those that need the control API are untested; the readers run", async () => {
    const report = await againstDeviant(asIs, { target: "deployment", minIntervalMs: 0 });
    const control = (what: string) => `it needs ${what}, which only the package's sandbox gives it (control API)`;
    expect(moneyFlows(report)).toEqual({
      [MONEY_FLOWS[0]!]: ["untested", "it makes deposit addresses (allow side effects to run it)"],
      [MONEY_FLOWS[1]!]: ["untested", "it makes deposit addresses (allow side effects to run it)"],
      [MONEY_FLOWS[2]!]: ["untested", control("to simulate deposits")],
      [MONEY_FLOWS[3]!]: ["untested", control("an account with chosen balances")],
      [MONEY_FLOWS[4]!]: ["untested", control("to move the sandbox's clock")],
      [MONEY_FLOWS[5]!]: ["untested", control("an account with chosen balances, and to settle a withdrawal")],
      [MONEY_FLOWS[6]!]: ["passed", undefined],
      [MONEY_FLOWS[7]!]: ["passed", undefined],
    });
    // The run's account holds no deposit, payout or transaction there: the readers find nothing to judge.
    expect(moneyVerdicts(report)).toEqual(Object.fromEntries(MONEY_ENTRIES.map((id) => [id, "untested"])));
    expect(choice(report, "deposits").reason).toBe(`${MONEY_FLOWS[2]}: ${control("to simulate deposits")}`);
  });

  it("on a deployment with side effects allowed, the address flows run over the run's account", async () => {
    // The expiry flow waits a quote's life on verify's clock: here that moves the sandbox's clock, no real wait.
    const deviant = await deviantSandbox(asIs, { clockStart: Date.UTC(2026, 10, 26, 10, 0, 0) });
    closers.push(() => deviant.close());
    const { clock } = deviant.sandbox.sandbox;
    const report = await run(deviant.baseUrl, {
      target: "deployment",
      minIntervalMs: 0,
      allowSideEffects: true,
      clock: { now: () => clock.now(), sleep: async (ms: number) => void clock.advance(ms) },
    });
    expect(moneyFlows(report)[MONEY_FLOWS[0]!]).toEqual(["passed", undefined]);
    expect(moneyFlows(report)[MONEY_FLOWS[1]!]).toEqual(["passed", undefined]);
    expect(moneyVerdicts(report)).toMatchObject({
      "addresses.values": "confirmed",
      "addresses.not-receivable": "confirmed",
      "lists.category": "confirmed",
      "withdrawals.checks": "untested",
    });
  });
});
