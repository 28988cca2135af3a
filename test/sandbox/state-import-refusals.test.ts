// PUT /_sandbox/state refused when its last store is wrong: the state, read a store at a time (state-import.ts), is
// checked whole before any of it is applied (state-check.ts), so the refusal is the one a restore of the whole state
// gives (its status, its message naming the first problem by its pointer into the state, sandbox.restore's too), and
// the sandbox is left as it was. The first problem is the one the check of the whole state at once names: a problem
// of the parts beside the stores may come before a store's, or after it.
import { beforeAll, describe, expect, it } from "vitest";
import type { SandboxState } from "../../src/sandbox/index.js";
import { LARGE_STATE_START, largeState, largeStateKey } from "./support/large-state.js";
import { control, newSandbox } from "./support/sandbox.js";

const ACCOUNTS = 300;
const LAST = largeStateKey(ACCOUNTS - 1); // key-0299
const FIRST = largeStateKey(0);

let large: SandboxState;
beforeAll(async () => {
  large = await largeState(ACCOUNTS, 2);
});

/** The answer to PUT /_sandbox/state of `body` (text); the sandbox's state before and after it. */
async function put(body: string) {
  const sandbox = newSandbox({ clock: { start: LARGE_STATE_START }, accounts: { mine: { balances: { USDT: 5 } } } });
  const before = sandbox.snapshot();
  const answer = await control(sandbox, "PUT", "/_sandbox/state", body);
  return { sandbox, answer: [answer.status, answer.body?.message], before, after: sandbox.snapshot() };
}

/** The large state with `change` made to a copy of it. */
function changed(change: (state: SandboxState) => void): SandboxState {
  const state = structuredClone(large);
  change(state);
  return state;
}

describe("a state whose last store is wrong", () => {
  const refusals: Array<[string, (state: SandboxState) => void, string]> = [
    [
      "a balance that is not its history",
      (state) => {
        state.accounts[LAST]!.wallets[0]!.balanceMinor += 1;
      },
      "sandbox state: /accounts/key-0299/wallets/0/balanceMinor: the USDT balance is not its starting balance plus " +
        "its transactions",
    ],
    [
      "a field of the wrong type",
      (state) => {
        (state.accounts[LAST] as { business: unknown }).business = "yes";
      },
      "sandbox state: /accounts/key-0299/business must be boolean",
    ],
    [
      "an id the first store has too",
      (state) => {
        state.accounts[LAST]!.trades[0]!.id = state.accounts[FIRST]!.trades[0]!.id;
      },
      "sandbox state: /accounts/key-0299/trades/0/id is also /accounts/key-0000/trades/0/id: each record has an id " +
        "of its own",
    ],
    [
      "a field of the wrong type, after a wrong part the whole state's check names first",
      (state) => {
        (state.accounts[LAST] as { business: unknown }).business = "yes";
        (state.ids as { seed: unknown }).seed = "x";
      },
      "sandbox state: /ids/seed must be integer",
    ],
    [
      "a field of the wrong type, before a wrong part the whole state's check names after it",
      (state) => {
        (state.accounts[LAST] as { business: unknown }).business = "yes";
        (state as { keylessWindows: unknown }).keylessWindows = 5;
      },
      "sandbox state: /accounts/key-0299/business must be boolean",
    ],
  ];

  it.each(refusals)("is refused for %s, with the restore's message, and changes nothing", async (_, change, why) => {
    const state = changed(change);
    const { sandbox, answer, before, after } = await put(JSON.stringify(state));
    expect(answer).toEqual([400, why]);
    expect(after).toEqual(before);
    expect(() => sandbox.restore(state)).toThrow(why);
  });

  it("is refused, with JSON.parse's own message, when its text is not JSON there", async () => {
    const text = JSON.stringify(large);
    const end = text.indexOf(',"keylessWindows"') - 1; // the brace that closes the stores
    const { answer, before, after } = await put(`${text.slice(0, end)},${text.slice(end)}`);
    expect(answer).toEqual([
      400,
      `the body is not valid JSON (Expected double-quoted property name in JSON at position ${end + 1} ` +
        `(line 1 column ${end + 2}))`,
    ]);
    expect(after).toEqual(before);
  });
});

it("takes the same state when it is right", async () => {
  const { answer, after } = await put(JSON.stringify(large));
  expect(answer).toEqual([204, undefined]);
  expect(after).toEqual(large);
});
