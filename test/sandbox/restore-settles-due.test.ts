// A restored state whose clock has reached a withdrawal's settlement moment (60 s after it was made) settles it at
// once, in the restore: a snapshot taken right after shows it settled, before any request or clock advance.
import { describe, expect, it } from "vitest";
import { api, newSandbox, stateOf } from "./support/sandbox.js";

const WITHDRAWAL = { amount: 10, currency: "USDT", destination: { address: `T${"A".repeat(33)}`, network: "TRX" } };

describe("restoring a state with a withdrawal due", () => {
  it("settles it in the restore", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 100 } } } });
    expect((await api(sandbox, "POST", "/wallets/ext/debit/crypto", WITHDRAWAL)).status).toBe(200);
    const saved = stateOf(sandbox) as any;
    expect(saved.accounts["key-a"].settlements).toHaveLength(1);
    saved.clock.nowMs += 60_000;
    const restored = newSandbox();
    restored.restore(saved);
    expect((stateOf(restored) as any).accounts["key-a"].settlements).toEqual([]);
  });
});
