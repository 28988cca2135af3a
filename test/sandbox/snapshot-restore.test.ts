// pins: ids, catalogue
// Snapshot and restore: the state is JSON (the clock, the id generator and the limit windows included), so a
// sandbox restored from another's snapshot, sent through JSON, answers the same requests with the same answers
// (statuses, headers, bodies, ids); a state of another version is refused.
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { successExample } from "../support/spec.js";
import { api, headersOf, newSandbox, quoteId, SELL_100, stateOf } from "./support/sandbox.js";

/** A scenario touching every part of the state: quotes, accepts, limits, clock, several keys. */
async function scenario(sandbox: Sandbox) {
  const answers: unknown[] = [];
  const record = async (answer: Awaited<ReturnType<typeof api>>) =>
    answers.push({ status: answer.status, headers: headersOf(answer), body: answer.body });
  const quote = await api(sandbox, "POST", "/trades/quote", SELL_100);
  await record(quote);
  sandbox.clock.advance(1000);
  await record(await api(sandbox, "POST", `/trades/quote/${quote.body.data.id}`, {}));
  await record(await api(sandbox, "POST", "/trades/quote", { ...SELL_100, amount: 5 }, { key: "key-b" }));
  for (const path of ["/wallets/me", "/transactions/me", "/trades/me", "/trades/summary/me", "/wallets/NGNX"])
    await record(await api(sandbox, "GET", path));
  return answers;
}

describe("snapshot and restore", () => {
  it("gives a restored sandbox the same answers as the one it was taken from", async () => {
    const original = newSandbox({ limits: { requestsPerMinute: 20 } });
    await api(original, "POST", `/trades/quote/${await quoteId(original)}`, {});
    await quoteId(original, SELL_100, "key-b");
    original.clock.advance(12_345);
    const restored = newSandbox({ limits: { requestsPerMinute: 20 } });
    restored.restore(JSON.parse(JSON.stringify(original.snapshot())));
    expect(restored.snapshot()).toEqual(original.snapshot());
    expect(await scenario(restored)).toEqual(await scenario(original));
    expect(restored.snapshot()).toEqual(original.snapshot());
  });

  it("takes the state back in time: answers after a restore are those after the snapshot", async () => {
    const sandbox = newSandbox();
    const saved = sandbox.snapshot();
    const first = await scenario(sandbox);
    sandbox.restore(saved);
    expect(await scenario(sandbox)).toEqual(first);
  });

  it("keeps the snapshot apart from the sandbox: changing one changes nothing of the other", async () => {
    const sandbox = newSandbox();
    await api(sandbox, "GET", "/wallets/me");
    const saved = stateOf(sandbox);
    saved.accounts["key-a"]!.business = true;
    expect(sandbox.getAccount("key-a")?.business).toBe(false);
    sandbox.restore(saved as never);
    saved.accounts["key-a"]!.business = false;
    expect(sandbox.getAccount("key-a")?.business).toBe(true);
  });

  it("refuses a state whose balance is not its starting balance plus its history (money made by editing)", async () => {
    const sandbox = newSandbox();
    await api(sandbox, "POST", `/trades/quote/${await quoteId(sandbox)}`, {});
    const edited = stateOf(sandbox);
    edited.accounts["key-a"]!.wallets[0]!.balanceMinor += 1;
    expect(() => sandbox.restore(edited as never)).toThrow(/starting balance plus its transactions/);
    const other = stateOf(sandbox);
    other.accounts["key-a"]!.wallets[0]!.code = "EUR";
    expect(() => sandbox.restore(other as never)).toThrow(
      /\/accounts\/key-a\/wallets\/0\/code is not a currency of the catalogue$/,
    );
    const badRates = stateOf(sandbox);
    badRates.rates.fiat = [{ currency: "NGNX", buyRate: -1, sellRate: 1 }];
    expect(() => sandbox.restore(badRates as never)).toThrow(/above 0/);
    expect(stateOf(sandbox)).toEqual(stateOf(sandbox));
  });

  it("refuses quotes not as the sandbox writes them: a list, quote ids none ahead of the id counter", async () => {
    const sandbox = newSandbox();
    const [first, second] = [await quoteId(sandbox), await quoteId(sandbox)];
    await api(sandbox, "POST", `/trades/quote/${first}`, {});
    const edit = (change: (state: any) => void) => {
      const state = stateOf(sandbox) as any;
      change(state);
      return () => sandbox.restore(state);
    };
    const quotes = (state: any) => state.accounts["key-a"].quotes;
    expect(quotes(stateOf(sandbox)).map((quote: any) => quote.id)).toEqual([first, second]);
    expect(edit(() => undefined)).not.toThrow();
    const asTable = edit((state) => {
      state.accounts["key-a"].quotes = Object.fromEntries(quotes(state).map((quote: any) => [quote.id, quote]));
    });
    expect(asTable).toThrow(/^sandbox state: \/accounts\/key-a\/quotes must be array$/);
    expect(edit((state) => (quotes(state)[1].id = "quote-2"))).toThrow(
      /\/accounts\/key-a\/quotes\/1\/id must match pattern /,
    );
    expect(edit((state) => (state.ids.counter = 0))).toThrow(
      /\/accounts\/key-a\/quotes\/0\/id is ahead of \/ids\/counter$/,
    );
    // The trade's quote is the first: without it, the trade names no quote of the account.
    expect(edit((state) => quotes(state).shift())).toThrow(/\/accounts\/key-a\/trades\/0\/quoteId names no quote/);
    expect(stateOf(sandbox).accounts["key-a"]!.quotes).toHaveLength(2);
    expect(edit((state) => quotes(state).reverse())).not.toThrow(); // the order is the sandbox's, not a rule
  });

  it("refuses hand edits no balance shows: an id twice, a negative amount, a file: URL, a clock set back", async () => {
    const sandbox = newSandbox({ clock: { start: Date.UTC(2026, 0, 1) } });
    sandbox.putAccount("key-a", {});
    sandbox.putAccount("key-b", {});
    const quote = await quoteId(sandbox);
    await api(sandbox, "POST", `/trades/quote/${quote}`, {});
    sandbox.clock.advance(60_000);
    const edit = (change: (state: any) => void) => {
      const state = stateOf(sandbox) as any;
      change(state);
      return () => sandbox.restore(state);
    };
    const [a, b] = [(state: any) => state.accounts["key-a"], (state: any) => state.accounts["key-b"]];
    expect(edit(() => undefined)).not.toThrow();
    // A swap leg copied into the other key's history, its wallet moved by as much: the balances add up.
    const copied = edit((state) => {
      const leg = a(state).transactions[0];
      b(state).transactions.push(structuredClone(leg));
      const wallet = b(state).wallets.find((w: any) => w.code === leg.walletCode);
      wallet.balanceMinor += leg.type === "CREDIT" ? leg.amountMinor : -leg.amountMinor;
    });
    expect(copied).toThrow(
      "sandbox state: /accounts/key-b/transactions/0/id is also /accounts/key-a/transactions/0/id: each record has " +
        "an id of its own",
    );
    expect(edit((state) => (a(state).quotes[0].id = a(state).quotes[0].id))).not.toThrow();
    expect(edit((state) => (b(state).wallets[1].id = a(state).wallets[0].id))).toThrow(
      "sandbox state: /accounts/key-b/wallets/1/id is also /accounts/key-a/wallets/0/id: each record has an id of " +
        "its own",
    );
    expect(edit((state) => (a(state).quotes[0].amount = -100))).toThrow(
      "sandbox state: /accounts/key-a/quotes/0/amount must be > 0",
    );
    const fileUrl = edit((state) => {
      a(state).webhookUrl = "file:///etc/passwd";
      a(state).webhookSecret = "whsec-1";
    });
    expect(fileUrl).toThrow("sandbox state: /accounts/key-a: webhookUrl must be an http or https URL");
    // The trade was made at 2026-01-01T00:00:00Z: a clock one millisecond before it is set back.
    expect(edit((state) => (state.clock.nowMs = Date.UTC(2026, 0, 1) - 1))).toThrow(
      "sandbox state: /clock/nowMs is before /accounts/key-a/createdAt: the clock is never set back",
    );
    expect(stateOf(sandbox).clock).toEqual({ kind: "fixed", nowMs: Date.UTC(2026, 0, 1) + 60_000 });
    expect(edit((state) => (state.clock.nowMs = Date.UTC(2026, 0, 1)))).not.toThrow();
  });

  it("refuses a pending webhook that could never go on: no secret to sign it, no next attempt", () => {
    const sandbox = newSandbox();
    // A secret but no URL: the deposit's webhook is kept, failed, never sent (webhooks.destination).
    sandbox.putAccount("key-a", { webhookSecret: "whsec-1" });
    sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 25 });
    const edit = (change: (webhook: any, account: any) => void) => {
      const state = stateOf(sandbox) as any;
      change(state.accounts["key-a"].outbox[0], state.accounts["key-a"]);
      return () => sandbox.restore(state);
    };
    expect(edit(() => undefined)).not.toThrow();
    expect(edit((webhook) => (webhook.status = "pending"))).toThrow(
      "sandbox state: /accounts/key-a/outbox/0 is pending with no nextAttemptAt and no attempt running: it would " +
        "never be sent",
    );
    const unsigned = edit((webhook, account) => {
      webhook.status = "pending";
      webhook.nextAttemptAt = webhook.createdAt;
      delete account.webhookSecret;
    });
    expect(unsigned).toThrow(
      "sandbox state: /accounts/key-a/outbox/0 is pending in an account without a webhookSecret: it could never " +
        "be signed",
    );
  });

  it("restores a state saved without networks with the default networks of its currencies", async () => {
    const older = stateOf(newSandbox()) as any;
    delete older.catalogue.networks;
    delete older.catalogue.withdrawalNetworks;
    const restored = newSandbox();
    restored.restore(older);
    const active = await api(restored, "GET", "/currencies/networks/active");
    expect(active.body.data).toEqual(successExample("getActiveNetworks").data);
    // The default networks are USDT's: a state without USDT gets none, not a refusal for a stray network.
    older.catalogue.currencies = older.catalogue.currencies.filter((currency: any) => currency.code !== "USDT");
    older.catalogue.pairs = [];
    for (const account of Object.values<any>(older.accounts))
      account.wallets = account.wallets.filter((wallet: any) => wallet.code !== "USDT");
    const withoutUsdt = newSandbox();
    withoutUsdt.restore(older);
    expect(stateOf(withoutUsdt).catalogue).toMatchObject({ networks: {}, withdrawalNetworks: {} });
  });

  it("restores a state of format 1 (windows, outbox, settlements beside the accounts) into the stores", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 100 }, webhookSecret: "whsec" } } });
    await api(sandbox, "POST", "/wallets/ext/debit/crypto", {
      amount: 10,
      currency: "USDT",
      destination: { address: `T${"A".repeat(33)}`, network: "TRX" },
    });
    await api(sandbox, "GET", "/currencies/fiat-rates", undefined, { key: null });
    const saved = stateOf(sandbox) as any;
    const store = saved.accounts["key-a"];
    expect([store.settlements.length, store.outbox.length, Object.keys(saved.keylessWindows).length]).toEqual([
      1, 1, 1,
    ]);
    // The same state as format 1 wrote it: the key's windows, outbox and settlements in maps beside the accounts.
    const { windows, outbox, settlements, ...account } = store;
    const formatOne = {
      ...saved,
      version: 1,
      accounts: { "key-a": account },
      windows: { "key-a": windows, "\n": saved.keylessWindows },
      outbox: { "key-a": outbox },
      settlements: settlements.map((entry: any) => ({ ...entry, apiKey: "key-a" })),
    };
    delete formatOne.keylessWindows;
    const restored = newSandbox();
    restored.restore(formatOne);
    expect(stateOf(restored)).toEqual(saved);
  });

  it("refuses a state of another version, or one that is not a state", () => {
    const sandbox = newSandbox();
    const saved = sandbox.snapshot();
    expect(() => sandbox.restore({ ...saved, version: 3 } as never)).toThrow(/version/);
    expect(() => sandbox.restore({ version: 1 } as never)).toThrow(RangeError);
    expect(() => sandbox.restore(null as never)).toThrow(RangeError);
  });
});
