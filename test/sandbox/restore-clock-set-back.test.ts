// A restore refuses a state whose clock stands before a moment the state records as past, naming the clock's
// field and the moment's pointer: a wallet's last change, a record's making, a webhook attempt; the clock's field
// is nowMs for a fixed clock and lastMs (the moment it has reached) for real time.
import { describe, expect, it } from "vitest";
import { newSandbox, stateOf, START, thrownBy } from "./support/sandbox.js";

/** A sandbox whose key-a has had a deposit, its webhook tried once (answered 503), all at START. */
async function depositedAt() {
  const sandbox = newSandbox({
    accounts: { "key-a": { webhookUrl: "http://127.0.0.1:9/hooks", webhookSecret: "whsec-1" } },
    webhooks: { fetch: async () => new Response(null, { status: 503 }) },
  });
  sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 25 });
  await sandbox.webhooks.settled();
  return sandbox;
}

describe("a restored clock set back", () => {
  it("is refused naming the first later moment: a wallet's change, a transaction, a webhook attempt", async () => {
    const sandbox = await depositedAt();
    const edit = (change: (account: any) => void) => {
      const state = stateOf(sandbox) as any;
      state.clock = { kind: "fixed", nowMs: START + 60_000 };
      change(state.accounts["key-a"]);
      return thrownBy(() => sandbox.restore(state))?.message;
    };
    expect(edit(() => undefined)).toBeUndefined();
    const later = START + 60_001;
    const refusals = [
      edit((account) => (account.wallets[0].updatedAt = later)),
      edit((account) => (account.transactions[0].createdAt = later)),
      edit((account) => (account.outbox[0].attempts[0].at = later)),
    ];
    expect(refusals).toEqual([
      "sandbox state: /clock/nowMs is before /accounts/key-a/wallets/0/updatedAt: the clock is never set back",
      "sandbox state: /clock/nowMs is before /accounts/key-a/transactions/0/createdAt: the clock is never set back",
      "sandbox state: /clock/nowMs is before /accounts/key-a/outbox/0/attempts/0/at: the clock is never set back",
    ]);
  });

  it("of real time is refused naming lastMs, the moment it had reached", async () => {
    const sandbox = await depositedAt();
    const state = stateOf(sandbox) as any;
    // Refused by the check, before the clock is restored: no real time is read.
    state.clock = { kind: "real", offsetMs: 0, lastMs: START - 1 };
    expect(thrownBy(() => sandbox.restore(state))?.message).toBe(
      "sandbox state: /clock/lastMs is before /accounts/key-a/createdAt: the clock is never set back",
    );
  });
});
