// verify's flows: on the package's sandbox every flow passes and every entry of the register is confirmed but two
// no fresh sandbox can show, stamped untested with why; on the mock and on a deployment without side effects the
// flows that need state or side effects are untested, saying why. Against the sandbox with one rule broken at a
// time (a proxy rewrites its answers), the run fails naming that rule, with the exchange that shows it, unless the
// divergence is allowed.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";
import { reportJunit, reportMarkdown, type VerifyOptions } from "../../src/verify/index.js";
import { closeServers, closers, run } from "./support/flow-runs.js";
import { unmatchedLines } from "../support/abridged.js";
import { repoRoot } from "../support/spec.js";
import { type Deviation, deviantSandbox } from "./support/deviant-sandbox.js";

afterEach(closeServers);

async function sandboxServer(): Promise<StartedSandbox> {
  const sandbox = await startSandbox({ port: 0, quiet: true });
  closers.push(() => sandbox.stop());
  return sandbox;
}

/** The verdicts that are not "untested", by register id. */
const tested = (report: Awaited<ReturnType<typeof run>>) =>
  Object.fromEntries((report.choices ?? []).filter((c) => c.verdict !== "untested").map((c) => [c.id, c.verdict]));

/** The report of a run against the sandbox with `deviate` rewriting its API answers (and its webhooks' fetch). */
async function againstDeviant(deviate: Deviation, options: Partial<VerifyOptions> = {}, webhookFetch?: typeof fetch) {
  const deviant = await deviantSandbox(deviate, { webhookFetch });
  closers.push(() => deviant.close());
  return run(deviant.baseUrl, options);
}

/**
 * A run on a "deployment" (the sandbox behind the proxy, on a clock of its own) with side effects allowed, whose
 * verify clock's pauses move the sandbox's clock: the deployment's own time passes by exactly what verify waits.
 */
async function onDeploymentWithTime(deviate: Deviation) {
  const deviant = await deviantSandbox(deviate, { clockStart: Date.UTC(2026, 10, 26, 10, 0, 0) });
  closers.push(() => deviant.close());
  const pauses: number[] = [];
  const clock = {
    now: () => deviant.sandbox.sandbox.clock.now(),
    sleep: async (ms: number) => {
      pauses.push(ms);
      deviant.sandbox.sandbox.clock.advance(ms);
    },
  };
  const options = { target: "deployment" as const, allowSideEffects: true, minIntervalMs: 0, clock };
  return { report: await run(deviant.baseUrl, options), pauses };
}

/** The answer as the sandbox gave it. */
const asIs: Deviation = ({ status, body }) => ({ status, body });
const isAccept = (method: string, path: string) => method === "POST" && /^\/v1\/trades\/quote\/[^/?]+$/.test(path);

/** The ports and quote ids of one run, masked, so that another run's report reads the same. */
const masked = (line: string) => line.replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:<port>").replace(/qt_\w+/g, "qt_<id>");

/** The docs' worked example of a Markdown report (guide "Contract tests and verify"), abridged. */
const REPORT_SAMPLE = readFileSync(path.join(repoRoot, "docs", "samples", "verify-report.markdown"), "utf8");

/** The flows of trade-, account-, sandbox- and webhook-flow.ts, whose rules this file breaks one at a time. */
const THESE_FLOWS = [
  "swap: quote → accept → accept again → wallets and history",
  "expiry: a quote accepted at its expiryDate (after it, on a deployment)",
  "balance too low: a quote of more than the balance, accepted",
  "deposit addresses: one identifier twice, and none twice",
  "pagination: the account's paged lists walked whole",
  "rate limits: X-RateLimit-* across three counted requests",
  "isolation: another key's quote and transaction",
  "withdrawal: requested, its fee taken, settled FAILED and refunded",
  "webhooks: a deposit, a withdrawal settled, a resend, received",
];

describe("verify's flows on the package's sandbox", () => {
  it("pass, confirming every entry of the register, and leave the sandbox's settings as they were", async () => {
    const server = await sandboxServer();
    const report = await run(server.baseUrl);
    // The flows of this file's rules first; each module's own flows are in its test (flows-*-rules.test.ts).
    expect(report.flows!.filter((flow) => THESE_FLOWS.includes(flow.flow))).toEqual(
      THESE_FLOWS.map((flow) => ({ flow, outcome: "passed" })),
    );
    expect([report.flows!.length, report.flows!.filter((flow) => flow.outcome !== "passed")]).toEqual([41, []]);
    const confirmed = Object.entries(tested(report)).filter(([, verdict]) => verdict === "confirmed");
    expect(confirmed.length).toBe(53);
    expect(report.choices!.filter((choice) => choice.verdict !== "confirmed")).toEqual([]);
    expect(report.choices!.length).toBe(53);
    const settings = await fetch(`${new URL(server.baseUrl).origin}/_sandbox/settings`);
    expect(await settings.json()).toEqual({ requireKnownKeys: false });
    expect(report.ok).toBe(true);
  });

  it("are untested on the mock; on a deployment without side effects only the reading ones run", async () => {
    const deployment = await againstDeviant(asIs, { target: "deployment", minIntervalMs: 0 });
    const trade = "it executes a trade of 1 unit (allow side effects to run it)";
    const these = deployment.flows!.filter((flow) => THESE_FLOWS.includes(flow.flow));
    expect(these.map((flow) => [flow.outcome, flow.reason])).toEqual([
      ["untested", trade],
      ["untested", trade],
      ["untested", trade],
      ["untested", "it makes deposit addresses (allow side effects to run it)"],
      ["passed", undefined],
      ["passed", undefined],
      [
        "untested",
        "it needs a second account: a second key (--second-api-key), or the package's sandbox's control API",
      ],
      ["untested", "it needs to settle a withdrawal, which only the package's sandbox gives it (control API)"],
      [
        "untested",
        "it needs an account whose webhooks come to verify: the package's sandbox, or a deployment's routed to " +
          "--webhook-receiver with their secret (--webhook-secret)",
      ],
    ]);
    expect(tested(deployment)).toEqual({
      "accounts.keyless": "confirmed",
      "lists.pagination": "confirmed",
      "limits.counting": "confirmed",
      "limits.headers": "confirmed",
      // Every answer of the reading flows met the contract.
      "answers.checked": "confirmed",
    });
    expect(deployment.choices!.find((choice) => choice.id === "quotes.accepted-twice")?.reason).toBe(
      "swap: quote → accept → accept again → wallets and history: it executes a trade of 1 unit (allow side " +
        "effects to run it)",
    );
    const onMock = await againstDeviant(asIs, { target: "mock" });
    const theseOnMock = onMock.flows!.filter((flow) => THESE_FLOWS.includes(flow.flow));
    expect(new Set(theseOnMock.map((flow) => `${flow.outcome}: ${flow.reason}`))).toEqual(
      new Set(["untested: the mock keeps no state between requests"]),
    );
    expect(onMock.flows!.filter((flow) => flow.outcome !== "untested")).toEqual([]);
  });
});

// Each run asks for the rule it breaks (VerifyOptions.rules): only the flows that check it run (the pagination's
// with the swap's, which leaves it a history to walk).
describe("verify's flows against a sandbox that breaks one rule", () => {
  it("a quote accepted twice: quotes.accepted-twice contradicted, the run fails, unless allowed", async () => {
    // The second accept of a quote answers as the first did.
    const twice: Deviation = ({ method, path, status, body }, seen) => {
      const first = seen.find((earlier) => earlier.path === path && isAccept(method, path) && earlier.status === 200);
      return first ? { status: 200, body: first.body } : { status, body };
    };
    const report = await againstDeviant(twice, { rules: ["quotes.accepted-twice"] });
    const verdict = report.choices!.find((choice) => choice.id === "quotes.accepted-twice")!;
    expect(verdict.verdict).toBe("contradicted");
    expect(verdict.evidence).toMatch(/^POST \/trades\/quote\/\S+ → 200 \{"message"/);
    expect(report.flows![0]).toMatchObject({
      outcome: "failed",
      reason: "the target contradicts quotes.accepted-twice",
    });
    expect(report.ok).toBe(false);
    // The Markdown report, as a team pastes it into an issue: the flow and the rule with its evidence.
    const markdown = reportMarkdown(report);
    expect(markdown).toContain(
      "| swap: quote → accept → accept again → wallets and history | failed | the target contradicts " +
        "quotes.accepted-twice |",
    );
    expect(markdown).toMatch(/\n\| quotes\.accepted-twice \| contradicted \| POST \/trades\/quote\/\S+ → 200 /);
    // The docs' worked example is this report, abridged: each of its lines is one of the report's, in order.
    expect(unmatchedLines(REPORT_SAMPLE, markdown, masked)).toEqual([]);
    // JUnit, as CI shows it: a suite of flows beside the cases', the failed flow a <failure>, counted in the total.
    const junit = reportJunit(report);
    expect(junit).toContain(
      '    <testcase classname="flow" name="swap: quote → accept → accept again → wallets and history">\n' +
        '      <failure message="the target contradicts quotes.accepted-twice" type="flow"/>\n',
    );
    expect(junit).toMatch(
      new RegExp(`<testsuites name="api-contract verify" tests="${report.results.length + 41}" failures="1" `),
    );
    const allowed = await againstDeviant(twice, {
      rules: ["quotes.accepted-twice"],
      allowDivergence: ["quotes.accepted-twice"],
    });
    expect(allowed.choices!.find((choice) => choice.id === "quotes.accepted-twice")).toMatchObject({
      verdict: "contradicted",
      allowed: true,
    });
    expect([allowed.flows![0]!.outcome, allowed.ok]).toEqual(["passed", true]);
  });

  it("balances that do not move: trades.records contradicted", async () => {
    let firstWallets: unknown;
    const frozen: Deviation = ({ method, path, status, body }) => {
      if (method !== "GET" || path !== "/v1/wallets/me") return { status, body };
      firstWallets ??= body;
      return { status, body: firstWallets };
    };
    const report = await againstDeviant(frozen, { rules: ["trades.records"] });
    expect(tested(report)["trades.records"]).toBe("contradicted");
    expect(report.choices!.find((choice) => choice.id === "trades.records")?.evidence).toMatch(
      /^quote \S+: USDT moved 0 \(expected -1\), NGNX moved 0 \(expected 1611\.8\); two SWAP legs of TRD-\S+: true$/,
    );
  });

  it("a SWAP leg missing from the history: trades.records contradicted", async () => {
    const noCredit: Deviation = ({ method, path, status, body }) => {
      if (method !== "GET" || !path.startsWith("/v1/transactions/me") || status !== 200) return { status, body };
      return { status, body: { ...body, data: body.data.filter((item: { type: string }) => item.type !== "CREDIT") } };
    };
    const report = await againstDeviant(noCredit, { rules: ["trades.records"] });
    expect(report.choices!.find((choice) => choice.id === "trades.records")?.evidence).toMatch(
      /USDT moved -1 \(expected -1\), NGNX moved 1611\.8 \(expected 1611\.8\); two SWAP legs of TRD-\S+: false$/,
    );
  });

  it("amountReceived rounded up: quotes.rounding contradicted", async () => {
    const roundedUp: Deviation = ({ method, path, status, body }) => {
      if (method !== "POST" || path !== "/v1/trades/quote" || status !== 200) return { status, body };
      return { status, body: { ...body, data: { ...body.data, amountReceived: body.data.amountReceived + 0.01 } } };
    };
    const report = await againstDeviant(roundedUp, { rules: ["quotes.rounding"] });
    expect(report.choices!.find((choice) => choice.id === "quotes.rounding")?.evidence).toMatch(
      /^POST \/trades\/quote → 200 .*: amountReceived 1611\.81, down: 1611\.8$/,
    );
  });

  it("a quote beyond the balance accepted: quotes.balance-too-low contradicted", async () => {
    const noCheck: Deviation = ({ method, path, status, body }, seen) => {
      const trade = seen.find((earlier) => isAccept(earlier.method, earlier.path) && earlier.status === 200);
      const tooLow = isAccept(method, path) && status === 400 && /balance/i.test(body.message);
      return tooLow && trade ? { status: 200, body: trade.body } : { status, body };
    };
    const report = await againstDeviant(noCheck, { rules: ["quotes.balance-too-low"] });
    expect(report.choices!.find((choice) => choice.id === "quotes.balance-too-low")?.evidence).toMatch(
      /^POST \/trades\/quote\/\S+ → 200 .*; wallets unchanged: true$/,
    );
  });

  it("another address for the same identifier: addresses.identifiers contradicted", async () => {
    const fresh: Deviation = ({ method, path, status, body }, seen) => {
      const asked = seen.filter((earlier) => earlier.method === "POST" && earlier.path === "/v1/addresses/broker");
      if (method !== "POST" || path !== "/v1/addresses/broker" || status !== 200) return { status, body };
      return { status, body: { ...body, data: { ...body.data, value: `${body.data.value}${asked.length}` } } };
    };
    const report = await againstDeviant(fresh, { rules: ["addresses.identifiers"] });
    expect(tested(report)["addresses.identifiers"]).toBe("contradicted");
  });

  it("a page that repeats the one before: lists.pagination contradicted", async () => {
    const repeating: Deviation = ({ method, path, status, body }, seen) => {
      if (method !== "GET" || !/^\/v1\/transactions\/me\?page=2&pageSize=2$/.test(path)) return { status, body };
      const first = [...seen].reverse().find((earlier) => earlier.path === "/v1/transactions/me?page=1&pageSize=2");
      return { status, body: first?.body ?? body };
    };
    const report = await againstDeviant(repeating, { rules: ["trades.records", "lists.pagination"] });
    expect(report.choices!.find((choice) => choice.id === "lists.pagination")?.evidence).toMatch(
      /^\/transactions\/me by pages of 2: (\S+), (\S+), \1, \2, /,
    );
  });

  it("X-RateLimit-Remaining that does not fall: limits.counting contradicted", async () => {
    const stuck: Deviation = ({ status, body }) => ({ status, body, headers: { "x-ratelimit-remaining": "150" } });
    const report = await againstDeviant(stuck, { rules: ["limits.counting"] });
    expect(report.choices!.find((choice) => choice.id === "limits.counting")?.evidence).toMatch(
      /^GET \/currencies\/fiat-rates → remaining 150, reset \d+; GET \/currencies\/fiat-rates → remaining 150, /,
    );
    expect(tested(report)["limits.headers"]).toBe("confirmed");
  });

  it("X-RateLimit-Reset in the past: limits.headers contradicted", async () => {
    // 1000 s after the epoch: long before any answer's Date.
    const past: Deviation = ({ status, body }) => ({ status, body, headers: { "x-ratelimit-reset": "1000" } });
    const report = await againstDeviant(past, { rules: ["limits.headers"] });
    expect(report.choices!.find((choice) => choice.id === "limits.headers")?.evidence).toMatch(
      /^GET \/currencies\/fiat-rates → remaining \d+, reset 1000; /,
    );
    expect(tested(report)["limits.counting"]).toBe("confirmed");
  });

  it("another key's quote accepted: accounts.isolation contradicted", async () => {
    // The sandbox's 404 for another key's quote turned into the trade an earlier accept made.
    const leaky: Deviation = ({ method, path, status, body }, seen) => {
      const trade = seen.find((earlier) => isAccept(earlier.method, earlier.path) && earlier.status === 200);
      return isAccept(method, path) && status === 404 && trade ? { status: 200, body: trade.body } : { status, body };
    };
    const report = await againstDeviant(leaky, { rules: ["accounts.isolation"] });
    expect(report.choices!.find((choice) => choice.id === "accounts.isolation")?.evidence).toMatch(
      /^POST \/trades\/quote\/\S+ → 200 .*; GET \/transactions\/\S+ → 404 /,
    );
  });

  it("a FAILED withdrawal not refunded: withdrawals.states contradicted", async () => {
    const noRefund: Deviation = ({ method, path, status, body }) => {
      if (method !== "GET" || !path.startsWith("/v1/transactions/me") || status !== 200) return { status, body };
      const isRefund = (item: { type: string; category: string }) =>
        item.type === "CREDIT" && item.category === "WITHDRAWAL";
      return {
        status,
        body: { ...body, data: body.data.filter((item: { type: string; category: string }) => !isRefund(item)) },
      };
    };
    const report = await againstDeviant(noRefund, { rules: ["withdrawals.states"] });
    expect(report.choices!.find((choice) => choice.id === "withdrawals.states")?.evidence).toMatch(
      /^after FAILED, USDT back to [\d.]+ \(was [\d.]+\); a refund CREDIT: false$/,
    );
  });

  it("webhooks signed over re-serialised JSON: webhooks.request contradicted", async () => {
    // The body sent is the JSON written again with other spacing; the signature stays that of the original bytes.
    const reserialised: typeof fetch = (url, init) =>
      fetch(url, { ...init, body: JSON.stringify(JSON.parse(String(init?.body)), null, 1) });
    const report = await againstDeviant(asIs, { rules: ["webhooks.request"] }, reserialised);
    expect(report.choices!.find((choice) => choice.id === "webhooks.request")?.evidence).toMatch(
      /^webhook 1: signed false, lowercase hex true, JSON true; /,
    );
  });

  it("a resend that is not the same bytes: webhooks.resend contradicted", async () => {
    let sent = 0;
    const laterChanged: typeof fetch = (url, init) => {
      sent++;
      return fetch(url, sent < 4 ? init : { ...init, body: `${String(init?.body)} ` });
    };
    const report = await againstDeviant(asIs, { rules: ["webhooks.resend"] }, laterChanged);
    expect(report.choices!.find((choice) => choice.id === "webhooks.resend")?.evidence).toBe(
      "resent identical: false, same signature: true",
    );
  });

  it("on a deployment, expiry waits the quote's expiresIn on verify's clock, then finds it refused", async () => {
    const { report, pauses } = await onDeploymentWithTime(asIs);
    expect(report.flows![1]).toEqual({
      flow: "expiry: a quote accepted at its expiryDate (after it, on a deployment)",
      outcome: "passed",
    });
    // The documented quote lives 30 s: one pause of 30 s, no other.
    expect(pauses).toEqual([30_000]);
    expect(tested(report)["quotes.expired"]).toBe("confirmed");
  });

  it("a quote accepted at its expiry: quotes.expired contradicted", async () => {
    let aTrade: unknown;
    const noExpiry: Deviation = ({ method, path, status, body }) => {
      if (!isAccept(method, path)) return { status, body };
      if (status === 200) aTrade ??= body;
      return status === 400 && /expired/.test(body.message) ? { status: 200, body: aTrade } : { status, body };
    };
    const report = await againstDeviant(noExpiry, { rules: ["quotes.expired"] });
    expect(tested(report)["quotes.expired"]).toBe("contradicted");
    expect(report.flows![1]).toMatchObject({ outcome: "failed", reason: "the target contradicts quotes.expired" });
  });
});
