// A restore refuses a pending webhook whose last attempt has ended (answered with a status, or failed with an
// error) when it has no next attempt: nothing would ever send it again.
import { describe, expect, it } from "vitest";
import { newSandbox, stateOf, thrownBy } from "./support/sandbox.js";

describe("a restored pending webhook", () => {
  it("is refused with no nextAttemptAt after an attempt answered 503, or one that failed", async () => {
    const hooks = { webhookSecret: "whsec-1" };
    const sandbox = newSandbox({
      accounts: {
        answered: { ...hooks, webhookUrl: "http://127.0.0.1:9/answered" },
        failed: { ...hooks, webhookUrl: "http://127.0.0.1:9/failed" },
      },
      webhooks: {
        fetch: async (url) => {
          if (String(url).endsWith("/failed")) throw new Error("connection refused");
          return new Response(null, { status: 503 });
        },
      },
    });
    for (const apiKey of ["answered", "failed"])
      sandbox.deposit({ apiKey, currency: "USDT", network: "TRX", amount: 25 });
    await sandbox.webhooks.settled();
    const stalled = (apiKey: string) => {
      const state = stateOf(sandbox) as any;
      delete state.accounts[apiKey].outbox[0].nextAttemptAt;
      return thrownBy(() => sandbox.restore(state))?.message;
    };
    const attempts = (apiKey: string) =>
      stateOf(sandbox).accounts[apiKey]!.outbox[0]!.attempts.map(({ at: _tried, ...rest }) => rest);
    expect([attempts("answered"), attempts("failed")]).toEqual([[{ status: 503 }], [{ error: "connection refused" }]]);
    expect([stalled("answered"), stalled("failed")]).toEqual([
      "sandbox state: /accounts/answered/outbox/0 is pending with no nextAttemptAt and no attempt running: it would " +
        "never be sent",
      "sandbox state: /accounts/failed/outbox/0 is pending with no nextAttemptAt and no attempt running: it would " +
        "never be sent",
    ]);
  });
});
