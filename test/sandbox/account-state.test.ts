// One key's store exported and restored alone (GET and PUT /_sandbox/accounts/{apiKey}/state, accountState and
// restoreAccount): a test seeds one account of a shared sandbox without touching any other. The restored store
// answers as it did, its withdrawals and webhooks go on, its quote ids cannot collide with new ones, and a store
// that breaks a rule is refused naming the first problem by its pointer in the store, nothing changed.
import { describe, expect, it } from "vitest";
import type { SandboxAccountStore } from "../../src/sandbox/index.js";
import { api, control, newSandbox, quoteId, stateOf, thrownBy, TRX_DESTINATION } from "./support/sandbox.js";

/** A sandbox where key-a has traded, received a deposit and asked for a withdrawal still in progress. */
async function busyKeyA() {
  const sandbox = newSandbox({
    accounts: { "key-a": { balances: { USDT: 500 } }, "key-b": { balances: { USDT: 7 } } },
  });
  const id = await quoteId(sandbox);
  expect((await api(sandbox, "POST", `/trades/quote/${id}`, {})).status).toBe(200);
  sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 25 });
  const body = { amount: 10, currency: "USDT", destination: TRX_DESTINATION };
  expect((await api(sandbox, "POST", "/wallets/ext/debit/crypto", body)).status).toBe(200);
  return sandbox;
}

/** What key-a reads of its wallets and history, as text. */
const readsOf = async (sandbox: ReturnType<typeof newSandbox>) =>
  [(await api(sandbox, "GET", "/wallets/me")).text, (await api(sandbox, "GET", "/transactions/me")).text].join("\n");

const refusalOf = (run: () => unknown) => {
  const thrown = thrownBy(run) as (Error & { status?: number }) | undefined;
  return [thrown?.status, thrown?.message];
};

describe("one key's store, exported and restored", () => {
  it("answers in another sandbox as it did, the other keys there untouched", async () => {
    const source = await busyKeyA();
    const target = newSandbox({ accounts: { "key-b": { balances: { USDT: 3 } } } });
    const keyB = JSON.stringify(stateOf(target).accounts["key-b"]);
    target.restoreAccount("key-a", source.accountState("key-a")!);
    expect(await readsOf(target)).toBe(await readsOf(source));
    expect(JSON.stringify(stateOf(target).accounts["key-b"])).toBe(keyB);
    expect(target.getAccount("key-a")?.balances.USDT).toBe(414); // 500 − 100 traded + 25 − 10 − TRX fee of 1
  });

  it("takes a key back to what it was: a quote made since is gone, its withdrawal settles on its clock", async () => {
    const sandbox = await busyKeyA();
    const saved = sandbox.accountState("key-a")!;
    await quoteId(sandbox);
    sandbox.restoreAccount("key-a", saved);
    expect(stateOf(sandbox).accounts["key-a"]!.quotes).toHaveLength(1);
    sandbox.accountClock("key-a").advance(60_000);
    const withdrawal = stateOf(sandbox).accounts["key-a"]!.transactions.find((t) => t.withdrawal)!;
    expect(withdrawal.withdrawal!.status).toBe("SUCCESSFUL");
  });

  it("moves the id generator past the store's quote ids: a new quote never takes one of them", async () => {
    const source = newSandbox({ accounts: { "key-a": { balances: { USDT: 500 } } } });
    for (let n = 0; n < 5; n++) await quoteId(source);
    const target = newSandbox();
    target.restoreAccount("key-a", source.accountState("key-a")!);
    const restored = new Set(stateOf(target).accounts["key-a"]!.quotes.map(({ id }) => id));
    const fresh = await quoteId(target, undefined, "key-c");
    expect([restored.size, restored.has(fresh)]).toEqual([5, false]);
  });

  it("refuses a store that breaks a rule, naming where in the store, and changes nothing", async () => {
    const sandbox = await busyKeyA();
    const before = JSON.stringify(sandbox.snapshot());
    const broken = (change: (store: any) => void) => {
      const store = structuredClone(sandbox.accountState("key-a")!) as any;
      change(store);
      return refusalOf(() => sandbox.restoreAccount("key-a", store as SandboxAccountStore));
    };
    expect(broken((store) => (store.apiKey = "key-z"))).toEqual([
      400,
      "sandbox account state: /apiKey is not the key of its store",
    ]);
    expect(broken((store) => (store.wallets[0].balanceMinor += 1))).toEqual([
      400,
      "sandbox account state: /wallets/0/balanceMinor: the USDT balance is not its starting balance plus its " +
        "transactions",
    ]);
    expect(broken((store) => (store.wallets[0].id = stateOf(sandbox).accounts["key-b"]!.wallets[0]!.id))).toEqual([
      400,
      "sandbox account state: /accounts/key-b/wallets/0/id is also /wallets/0/id: each record has an id of its own",
    ]);
    expect(broken((store) => (store.createdAt = Date.UTC(2026, 10, 26, 10, 0, 1)))).toEqual([
      400,
      "sandbox account state: the key's clock (2026-11-26T10:00:00.000Z) is before /createdAt: the clock is never " +
        "set back",
    ]);
    expect(broken((store) => (store.wallets[0].balanceMinor = "many"))).toEqual([
      400,
      "sandbox account state: /wallets/0/balanceMinor must be integer",
    ]);
    expect(JSON.stringify(sandbox.snapshot())).toBe(before);
  });
});

describe("one key's store over the control API", () => {
  it("answers it without secrets unless asked, restores it with 204, 404 for a key without an account", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { apiSecret: "s3cret", webhookSecret: "whsec-a" } } });
    const plain = await control(sandbox, "GET", "/_sandbox/accounts/key-a/state");
    const full = await control(sandbox, "GET", "/_sandbox/accounts/key-a/state?secrets=true");
    expect([plain.status, "apiSecret" in plain.body, "webhookSecret" in plain.body]).toEqual([200, false, false]);
    expect([full.body.apiSecret, full.body.webhookSecret]).toEqual(["s3cret", "whsec-a"]);
    const restored = await control(sandbox, "PUT", "/_sandbox/accounts/key-z/state", { ...full.body, apiKey: "key-z" });
    expect(restored.status).toBe(400);
    expect((await control(sandbox, "PUT", "/_sandbox/accounts/key-a/state", full.body)).status).toBe(204);
    const nobody = await control(sandbox, "GET", "/_sandbox/accounts/nobody/state");
    expect([nobody.status, nobody.body]).toEqual([404, { message: "No sandbox account for the API key nobody" }]);
    const wrong = await control(sandbox, "GET", "/_sandbox/accounts/key-a/state?secrets=yes");
    expect([wrong.status, wrong.body]).toEqual([400, { message: "secrets must be true or false" }]);
  });
});
