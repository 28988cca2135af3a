// verify against the package's own sandbox: it prepares what its cases name through the control API (an account of
// its own, Business with the documented collection customer, balances to withdraw, a deposit whose transaction id
// the cases use, bodies of the sandbox's currencies and networks), runs every case, none failed or skipped, and
// deletes its account at the end; no other key's account changes. Without the control token a sandbox wants, it
// says why it prepared nothing.
import { afterEach, describe, expect, it } from "vitest";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";
import { reportJunit, reportMarkdown } from "../../src/verify/index.js";
import { run } from "./support/flow-runs.js";

const started: StartedSandbox[] = [];
afterEach(async () => {
  for (const sandbox of started.splice(0)) await sandbox.stop();
});

async function sandboxServer(controlToken?: string): Promise<StartedSandbox> {
  const sandbox = await startSandbox({ port: 0, quiet: true, ...(controlToken ? { controlToken } : {}) });
  started.push(sandbox);
  return sandbox;
}

describe("verify on the package's sandbox", () => {
  it("prepares what its cases name, runs every case with none failed or skipped, and leaves no account", async () => {
    const server = await sandboxServer();
    server.sandbox.putAccount("user-key", { balances: { USDT: 12, NGNX: 0 } });
    const before = server.sandbox.snapshot().accounts;
    const report = await run(server.baseUrl);
    const failed = report.results.filter((result) => result.outcome === "failed").map((result) => result.case);
    expect(failed).toEqual([]);
    expect(report).toMatchObject({ target: "sandbox", ok: true, counts: { failed: 0, skipped: 0 } });
    const setup = report.sandboxSetup?.replace(/verify-[0-9a-f]{8}/, "verify-<id>").replace(/[0-9a-f-]{36}/, "<id>");
    expect(setup).toBe(
      "prepared an account of its own (api-contract-verify-<id>: Business, one collection customer, USDT and NGNX " +
        "to withdraw) and a deposit of 1 USDT on TRX (transaction <id>)",
    );
    // The reports say it too.
    expect(reportMarkdown(report)).toContain(`\n\nOn the sandbox, verify ${report.sandboxSetup}.\n\n`);
    expect(reportJunit(report)).toContain(`<property name="sandboxSetup" value="${report.sandboxSetup}"/>`);
    // The cases that named what did not exist: each answered its success now.
    const passed = (operationId: string) =>
      report.results.some((r) => r.operationId === operationId && r.kind === "positive" && r.outcome === "passed");
    const named = ["getCollectionCustomer", "getTransaction", "resendWebhooks", "requestBankWithdrawal"];
    expect(named.filter((operationId) => !passed(operationId))).toEqual([]);
    // Its account is gone; the user's is as it was, but for the one read sent with its key (the first case).
    const after = server.sandbox.snapshot().accounts;
    expect(Object.keys(after)).toEqual(["user-key"]);
    const { windows, ...rest } = after["user-key"]!;
    const { windows: _before, ...restBefore } = before["user-key"]!;
    expect([rest, windows?.minute?.count]).toEqual([restBefore, 1]);
  });

  it("receives no 429 on a sandbox of 20 requests a minute and 3 quotes an hour: it waits for each reset", async () => {
    const lines: string[] = [];
    const limits = { requestsPerMinute: 20, quotesPerHour: 3 };
    const config = { clock: { start: Date.UTC(2026, 0, 1) }, limits };
    const server = await startSandbox({ port: 0, config, log: (line) => lines.push(line) });
    started.push(server);
    // The flows that spend only the run's own key and move no clock of their own, so the limits alone set the
    // time: the whole run, with the flows that ask for a 429, is test/cli/verify-rate-limits.test.ts's.
    const rules = ["quotes.accepted-twice", "quotes.balance-too-low", "addresses.identifiers", "lists.pagination"];
    rules.push("limits.counting", "quotes.invalid-request", "quotes.sides");
    const report = await run(server.baseUrl, { rules });
    const answered = lines.filter((line) => / → \d{3} /.test(line));
    // The requests the limits count: the API's (not the control API's), past the key check (limits.counting).
    const counted = answered.filter((line) => /^[A-Z]+ \/v1\/.* → (?!401)/.test(line));
    expect(answered.filter((line) => line.includes(" → 429 "))).toEqual([]);
    expect(report).toMatchObject({ target: "sandbox", ok: true, counts: { failed: 0, skipped: 0 } });
    // It waited on the sandbox clock, which it moved (the answers' Date is the sandbox's time), not on the wall:
    // at 3 quotes an hour its q counted Create Quote calls (all but a 401's: limits.counting) span at least
    // ceil(q / 3) - 1 hours, its n requests at 20 a minute at least ceil(n / 20) - 1 minutes; and no more than
    // those hours and one minute per 20 requests beside them.
    const quotes = answered.filter((line) => /^POST \/v1\/trades\/quote → (?!401)/.test(line)).length;
    const [hour, minute] = [3_600_000, 60_000];
    const least = Math.max((Math.ceil(quotes / 3) - 1) * hour, (Math.ceil(counted.length / 20) - 1) * minute);
    const elapsed = server.sandbox.clock.now() - Date.UTC(2026, 0, 1);
    expect([counted.length > 20, quotes > 3]).toEqual([true, true]); // both limits were spent, at least once
    expect(elapsed).toBeGreaterThanOrEqual(least);
    expect(elapsed).toBeLessThanOrEqual(least + Math.ceil(counted.length / 20) * minute);
    expect(report.limitWaitMs).toBeLessThanOrEqual(elapsed);
  });

  it("says why it prepared nothing on a sandbox whose control token it was not given, and passes with it", async () => {
    const server = await sandboxServer("t0ken");
    const without = await run(server.baseUrl);
    expect(without.sandboxSetup).toBe(
      "not prepared (putSandboxAccount: the sandbox answered 401: The control API requires Authorization: Bearer " +
        "<token>); the cases that need an id or a value of the sandbox's may fail",
    );
    expect(without.ok).toBe(false);
    // Without the control API, expiry does not wait on the wall clock for a sandbox clock that may stand still.
    expect(without.flows?.[1]).toEqual({
      flow: "expiry: a quote accepted at its expiryDate (after it, on a deployment)",
      outcome: "untested",
      reason: "it moves the sandbox's clock through the control API, which it could not use (give --sandbox-token)",
    });
    const withToken = await run(server.baseUrl, { sandboxToken: "t0ken" });
    expect([withToken.ok, withToken.counts.failed, withToken.counts.skipped]).toEqual([true, 0, 0]);
  });
});
