// A state of format 1 kept the settlements of all keys in one list beside the accounts, each naming its key; the
// restore gives each key's store only its own, and a format-1 state without that list (saved before withdrawals
// settled later) restores with no settlements at all.
import { describe, expect, it } from "vitest";
import { api, newSandbox, stateOf } from "./support/sandbox.js";

const WITHDRAWAL = { amount: 10, currency: "USDT", destination: { address: `T${"A".repeat(33)}`, network: "TRX" } };

/** `saved` (format 2) as format 1 wrote it, the settlements as `settlements` gives them (absent when undefined). */
function asFormatOne(saved: any, settlements: unknown[] | undefined) {
  const accounts: Record<string, unknown> = {};
  const windows: Record<string, unknown> = { "\n": saved.keylessWindows };
  const outbox: Record<string, unknown> = {};
  for (const [key, store] of Object.entries<any>(saved.accounts)) {
    const { windows: own, outbox: sent, settlements: _due, ...account } = store;
    accounts[key] = account;
    windows[key] = own;
    outbox[key] = sent;
  }
  const { keylessWindows: _keyless, ...rest } = saved;
  return { ...rest, version: 1, accounts, windows, outbox, ...(settlements ? { settlements } : {}) };
}

describe("restoring a state of format 1", () => {
  it("gives each key only the settlements that name it", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 100 } }, "key-b": {} } });
    expect((await api(sandbox, "POST", "/wallets/ext/debit/crypto", WITHDRAWAL)).status).toBe(200);
    const saved = stateOf(sandbox) as any;
    const due = saved.accounts["key-a"].settlements;
    expect(due).toHaveLength(1);
    const restored = newSandbox();
    restored.restore(asFormatOne(saved, [{ ...due[0], apiKey: "key-a" }]));
    const state = stateOf(restored) as any;
    expect([state.accounts["key-a"].settlements, state.accounts["key-b"].settlements]).toEqual([due, []]);
  });

  it("restores one without a settlement list with no settlements", () => {
    const saved = stateOf(newSandbox({ accounts: { "key-a": {} } })) as any;
    const restored = newSandbox();
    restored.restore(asFormatOne(saved, undefined));
    expect((stateOf(restored) as any).accounts["key-a"].settlements).toEqual([]);
  });
});
