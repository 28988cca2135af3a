// The withdrawals options of createSandbox: a settleAfterMs of 0 is a delay like any other (the withdrawal settles
// at the next request, at the moment it was made); a delay that is no whole number of ms, 0 or more, and an outcome
// other than SUCCESSFUL or FAILED are refused with a RangeError that says what is allowed.
import { describe, expect, it } from "vitest";
import { api, newSandbox, START, thrownBy, TRX_DESTINATION } from "./support/sandbox.js";

describe("withdrawal settings", () => {
  it("settleAfterMs 0: the withdrawal is PENDING in its answer and SUCCESSFUL at the next request", async () => {
    const sandbox = newSandbox({
      accounts: { "key-a": { balances: { USDT: 1000 } } },
      withdrawals: { settleAfterMs: 0 },
    });
    const body = { amount: 10, currency: "USDT", destination: TRX_DESTINATION };
    const made = await api(sandbox, "POST", "/wallets/ext/debit/crypto", body);
    expect(made.status).toBe(200);
    await api(sandbox, "GET", "/wallets/USDT");
    const bodies = (await sandbox.webhooks.list("key-a")).map((webhook) => JSON.parse(webhook.body));
    expect(bodies.map((webhook) => [webhook.status, webhook.lastUpdated])).toEqual([
      ["PENDING", "2026-11-26T10:00:00.000Z"],
      ["SUCCESSFUL", "2026-11-26T10:00:00.000Z"],
    ]);
    expect(new Date(START).toISOString()).toBe("2026-11-26T10:00:00.000Z");
  });

  it("refuses a delay below 0 or not whole, and an outcome of another status, saying what is allowed", () => {
    const delay = "sandbox withdrawals: settleAfterMs must be a whole number of ms, 0 or more, or null";
    const outcome = "sandbox withdrawals: outcome must be SUCCESSFUL or FAILED";
    const refused = [
      [{ settleAfterMs: -1 }, delay],
      [{ settleAfterMs: 0.5 }, delay],
      [{ outcome: "PENDING" as "FAILED" }, outcome],
    ] as const;
    for (const [withdrawals, message] of refused) {
      const error = thrownBy(() => newSandbox({ withdrawals }));
      expect([withdrawals, error?.name, error?.message]).toEqual([withdrawals, "RangeError", message]);
    }
  });
});
