// A restore fills in what an older state lacks from SandboxState's defaults: the keyless windows, and in every
// account's store its addresses, windows, outbox, collection customers and settlements. The first restore of this
// file is such a state, so the walk that finds which schemas hold defaults (state-schema.ts, memoized per schema while
// the module is loaded) runs inside these tests and what it decides is checked here, not only by later restores.
import { describe, expect, it } from "vitest";
import { newSandbox, stateOf } from "./support/sandbox.js";

const STORE_PARTS = ["addresses", "windows", "outbox", "collectionCustomers", "settlements"];

/** A snapshot of a sandbox with accounts key-a and key-b, the parts with defaults taken out as an older state. */
function olderState() {
  const saved = stateOf(newSandbox({ accounts: { "key-a": {}, "key-b": {} } })) as any;
  delete saved.keylessWindows;
  for (const key of ["key-a", "key-b"]) for (const part of STORE_PARTS) delete saved.accounts[key][part];
  return saved;
}

describe("restoring a state saved before some parts existed", () => {
  it("fills in each part the state lacks with its default, in every account's store", () => {
    const restored = newSandbox();
    restored.restore(olderState());
    const state = stateOf(restored) as any;
    const empty = { addresses: [], windows: {}, outbox: [], collectionCustomers: [], settlements: [] };
    expect(state.keylessWindows).toEqual({});
    for (const key of ["key-a", "key-b"]) {
      const store = state.accounts[key];
      expect(Object.fromEntries(STORE_PARTS.map((part) => [part, store[part]])), key).toEqual(empty);
    }
  });
});
