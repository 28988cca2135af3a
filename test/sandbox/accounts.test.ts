// pins: accounts.first-use, accounts.unknown-key, accounts.default-balances, accounts.keyless, accounts.isolation
// pins: accounts.business
// Accounts per API key: made on first use with the default balances (the documented wallets'), configured by
// key, never seeing each other's data, reset one key at a time; keyless account reads, unknown keys when the
// sandbox requires known ones, and the collection operations of a non-Business account are refused.
import { describe, expect, it } from "vitest";
import { REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { successExample } from "../support/spec.js";
import { api, newSandbox, quoteId, stateOf, thrownBy } from "./support/sandbox.js";

const documentedWallets = successExample("getMyWallets").data as Array<{ availableBalance: number; currency: any }>;
const documentedBalances = Object.fromEntries(documentedWallets.map((w) => [w.currency.code, w.availableBalance]));

describe("accounts", () => {
  it("gives a new key an account with the documented wallets' balances", async () => {
    const sandbox = newSandbox();
    const wallets = await api(sandbox, "GET", "/wallets/me", undefined, { key: "fresh" });
    expect(wallets.status).toBe(200);
    expect(wallets.violations).toEqual([]);
    const balances = Object.fromEntries(wallets.body.data.map((w: any) => [w.currency.code, w.availableBalance]));
    expect(balances).toEqual(documentedBalances);
    expect(sandbox.getAccount("fresh")).toEqual({
      apiKey: "fresh",
      balances: documentedBalances,
      business: false,
      hasApiSecret: false,
      hasWebhookSecret: false,
      collectionCustomers: [],
    });
  });

  it("answers one wallet by code, and 404 for a code the catalogue does not have", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { NGNX: 42.5 } } } });
    expect((await api(sandbox, "GET", "/wallets/NGNX")).body.data.availableBalance).toBe(42.5);
    expect((await api(sandbox, "GET", "/wallets/USDT")).body.data.currency.code).toBe("USDT");
    expect((await api(sandbox, "GET", "/wallets/EUR")).status).toBe(REFUSAL_STATUS.notFound);
  });

  it("keeps each key's quotes, trades and transactions from every other key", async () => {
    const sandbox = newSandbox();
    await api(sandbox, "POST", `/trades/quote/${await quoteId(sandbox)}`, {});
    const mine = (await api(sandbox, "GET", "/transactions/me")).body.data;
    expect(mine).toHaveLength(2);
    const theirs = { key: "key-b" };
    expect((await api(sandbox, "GET", "/transactions/me", undefined, theirs)).body.data).toEqual([]);
    expect((await api(sandbox, "GET", "/trades/me", undefined, theirs)).body.data).toEqual([]);
    expect((await api(sandbox, "GET", "/trades/summary/me", undefined, theirs)).body.data.totalDollarVolume).toBe(0);
    const byId = await api(sandbox, "GET", `/transactions/${mine[0].id}`, undefined, theirs);
    expect(byId.status).toBe(REFUSAL_STATUS.notFound);
    expect((await api(sandbox, "GET", `/transactions/${mine[0].id}`)).body.data).toEqual(mine[0]);
  });

  it("resets one key: deleting its account changes nothing of another's", async () => {
    const sandbox = newSandbox();
    await api(sandbox, "POST", `/trades/quote/${await quoteId(sandbox, undefined, "key-b")}`, {}, { key: "key-b" });
    await api(sandbox, "POST", `/trades/quote/${await quoteId(sandbox)}`, {});
    const before = stateOf(sandbox).accounts["key-b"];
    expect(sandbox.deleteAccount("key-a")).toBe(true);
    expect(sandbox.deleteAccount("key-a")).toBe(false);
    expect(stateOf(sandbox).accounts["key-b"]).toEqual(before);
    expect((await api(sandbox, "GET", "/transactions/me")).body.data).toEqual([]);
  });

  it("replaces an account whole when it is put again", async () => {
    const sandbox = newSandbox();
    await api(sandbox, "POST", `/trades/quote/${await quoteId(sandbox)}`, {});
    expect(sandbox.putAccount("key-a", { balances: { USDT: 7 }, business: true })).toEqual({
      apiKey: "key-a",
      balances: {
        USDT: 7,
        ...Object.fromEntries(
          Object.keys(documentedBalances)
            .filter((c) => c !== "USDT")
            .map((c) => [c, documentedBalances[c]]),
        ),
      },
      business: true,
      hasApiSecret: false,
      hasWebhookSecret: false,
      collectionCustomers: [],
    });
    // No webhookUrl key at all when none is set (not one that is undefined).
    expect(Object.keys(sandbox.getAccount("key-a")!)).not.toContain("webhookUrl");
    expect((await api(sandbox, "GET", "/transactions/me")).body.data).toEqual([]);
  });

  it("refuses balances of a currency the catalogue does not have, below 0, not numbers, or too precise", () => {
    const sandbox = newSandbox();
    expect(() => sandbox.putAccount("key-a", { balances: { EUR: 1 } })).toThrow(/EUR/);
    for (const amount of [-1, Number.NaN, Number.POSITIVE_INFINITY, "5"])
      expect(() => sandbox.putAccount("key-a", { balances: { USDT: amount as number } }), String(amount)).toThrow(
        /the balance of USDT must be a number, 0 or more$/,
      );
    const { maximumDecimalPlaces: places } = (successExample("getCurrencies").data as any[]).find(
      (currency) => currency.code === "NGNX",
    );
    expect(() => sandbox.putAccount("key-a", { balances: { NGNX: 1 + 10 ** -(places + 1) } })).toThrow(
      new RegExp(`the balance of NGNX has more than ${places} decimals, the most NGNX takes$`),
    );
    const finest = 1 + 10 ** -places;
    expect(sandbox.putAccount("key-a", { balances: { USDT: 0, NGNX: finest } }).balances).toMatchObject({
      USDT: 0,
      NGNX: finest,
    });
  });

  it("refuses an empty API secret, put or restored: it would sign with an empty key", () => {
    const sandbox = newSandbox();
    expect(thrownBy(() => sandbox.putAccount("key-a", { apiSecret: "" }))?.message).toBe(
      "sandbox account key-a: apiSecret must be a non-empty string (leave it out for an account whose requests " +
        "are not signed)",
    );
    expect(sandbox.getAccount("key-a")).toBeUndefined();
    sandbox.putAccount("key-a", { apiSecret: "s" });
    const saved = structuredClone(sandbox.snapshot()) as any;
    saved.accounts["key-a"].apiSecret = "";
    expect(thrownBy(() => sandbox.restore(saved))?.message).toBe(
      "sandbox state: /accounts/key-a/apiSecret must NOT have fewer than 1 characters",
    );
  });

  it("takes an API key named like an object's own property as any other key", async () => {
    const sandbox = newSandbox();
    for (const key of ["__proto__", "constructor", "hasOwnProperty"]) {
      const answer = await api(sandbox, "GET", "/wallets/me", undefined, { key });
      expect(answer.status).toBe(200);
      expect(sandbox.getAccount(key)?.apiKey).toBe(key);
    }
    expect(Object.keys(stateOf(sandbox).accounts)).toEqual(["__proto__", "constructor", "hasOwnProperty"]);
  });

  it("refuses an account read without a key, and answers catalogue reads without one", async () => {
    const sandbox = newSandbox();
    const wallets = await api(sandbox, "GET", "/wallets/me", undefined, { key: null });
    expect(wallets.status).toBe(REFUSAL_STATUS.keylessAccountRead);
    expect(wallets.body.message).toMatch(/x-api-key/);
    expect(wallets.violations).toEqual([]);
    expect((await api(sandbox, "GET", "/currencies/fiat-rates", undefined, { key: null })).status).toBe(200);
  });

  it("refuses a key without an account when the sandbox requires known keys", async () => {
    const sandbox = newSandbox({ requireKnownKeys: true, accounts: { known: {} } });
    const unknown = await api(sandbox, "GET", "/wallets/me", undefined, { key: "stranger" });
    expect(unknown.status).toBe(REFUSAL_STATUS.unknownKey);
    expect(unknown.violations).toEqual([]);
    expect(sandbox.getAccount("stranger")).toBeUndefined();
    expect((await api(sandbox, "GET", "/wallets/me", undefined, { key: "known" })).status).toBe(200);
  });

  it("requires known keys from a PUT /_sandbox/settings on, and takes any key again after the next", async () => {
    const sandbox = newSandbox({ accounts: { known: {} } });
    const settings = async (body?: unknown) => {
      const init = body === undefined ? {} : { method: "PUT", body: JSON.stringify(body) };
      const answer = await sandbox.fetch(new Request("http://sandbox.local/_sandbox/settings", init));
      return { status: answer.status, body: await answer.json() };
    };
    expect(await settings()).toEqual({ status: 200, body: { requireKnownKeys: false } });
    expect(await settings({ requireKnownKeys: true })).toEqual({ status: 200, body: { requireKnownKeys: true } });
    expect((await api(sandbox, "GET", "/wallets/me", undefined, { key: "stranger" })).status).toBe(401);
    expect(sandbox.getAccount("stranger")).toBeUndefined();
    expect((await api(sandbox, "GET", "/wallets/me", undefined, { key: "known" })).status).toBe(200);
    expect((await settings({ requireKnownKeys: "yes" })).status).toBe(400);
    expect((await settings({ requireKnownKeys: true, other: 1 })).status).toBe(400);
    expect(sandbox.settings()).toEqual({ requireKnownKeys: true });
    expect(sandbox.putSettings({ requireKnownKeys: false })).toEqual({ requireKnownKeys: false });
    expect((await api(sandbox, "GET", "/wallets/me", undefined, { key: "stranger" })).status).toBe(200);
    expect(sandbox.getAccount("stranger")).toBeDefined();
    const notBoolean = () => sandbox.putSettings({ requireKnownKeys: 1 } as never);
    expect(notBoolean).toThrow(RangeError);
    expect(notBoolean).toThrow("settings: requireKnownKeys must be a boolean");
    // A state saved and put back keeps the settings of the running sandbox: they are not part of it.
    sandbox.putSettings({ requireKnownKeys: true });
    sandbox.restore(sandbox.snapshot());
    expect(sandbox.settings()).toEqual({ requireKnownKeys: true });
  });

  it("answers the collection operations to a Business account only", async () => {
    const sandbox = newSandbox({ accounts: { business: { business: true } } });
    const refused = await api(sandbox, "GET", "/collections/customers/me");
    expect(refused.status).toBe(REFUSAL_STATUS.notBusiness);
    const page = await api(sandbox, "GET", "/collections/customers/me", undefined, { key: "business" });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ data: [], meta: { total: 0, count: 0 } });
    expect(page.violations).toEqual([]);
    const one = await api(sandbox, "GET", "/collections/customers/c-1", undefined, { key: "business" });
    expect(one.status).toBe(REFUSAL_STATUS.notFound);
  });

  it("pages a Business account's collection customers as given, newest first, and finds one by id", async () => {
    const sandbox = newSandbox();
    sandbox.putAccount("key-a", { business: true, collectionCustomers: ["c-1", "c-2", "c-3"].map(customer) });
    const customers = async (query: string) => {
      const page = await api(sandbox, "GET", `/collections/customers/me?${query}`);
      expect(page.violations).toEqual([]);
      return { ids: page.body.data.map((item: { id: string }) => item.id), meta: page.body.meta };
    };
    expect(await customers("page=1&pageSize=2")).toMatchObject({
      ids: ["c-3", "c-2"],
      meta: { total: 3, count: 2, totalPages: 2, currentPage: 1 },
    });
    expect(await customers("page=2&pageSize=2")).toMatchObject({ ids: ["c-1"], meta: { total: 3, count: 1 } });
    const one = await api(sandbox, "GET", "/collections/customers/c-2");
    expect([one.status, one.body.data, one.violations]).toEqual([200, customer("c-2"), []]);
    const missing = await api(sandbox, "GET", "/collections/customers/c-9");
    expect([missing.status, missing.body.message]).toEqual([
      404,
      "no collection customer c-9 was found for this API key",
    ]);
    expect(sandbox.getAccount("key-a")!.collectionCustomers).toEqual(["c-1", "c-2", "c-3"].map(customer));
    // A restored state keeps them.
    const restored = newSandbox();
    restored.restore(sandbox.snapshot());
    expect((await api(restored, "GET", "/collections/customers/c-1")).body.data).toEqual(customer("c-1"));
  });

  it("refuses collection customers of an account that is not Business, an id twice, or one off the contract", () => {
    const sandbox = newSandbox();
    const put = (settings: object) => thrownBy(() => sandbox.putAccount("key-a", settings));
    expect(put({ collectionCustomers: [customer("c-1")] })).toMatchObject({
      status: 400,
      message: "sandbox account key-a: collectionCustomers need a Business account (business: true)",
    });
    expect(put({ business: true, collectionCustomers: [customer("c-1"), customer("c-1")] })).toMatchObject({
      message: "sandbox account key-a: collectionCustomers: the id c-1 is given twice",
    });
    const { bvn: _bvn, ...withoutBvn } = customer("c-1");
    expect(put({ business: true, collectionCustomers: [withoutBvn] })).toMatchObject({
      message: "sandbox account key-a: CollectionCustomer 0: /bvn is required but missing",
    });
    expect(sandbox.getAccount("key-a")).toBeUndefined();
  });
});

/** A collection customer of the contract's shape (CollectionCustomer) with the id given. */
function customer(id: string) {
  return {
    id,
    createdAt: "2026-09-05T16:41:27.803Z",
    updatedAt: "2026-09-05T16:41:27.803Z",
    active: true,
    businessId: "f1e2d3c4-b5a6-4978-8a69-5b4c3d2e1f07",
    firstName: "Chinedu",
    lastName: "Eze",
    bvn: "22212345678",
    nin: "12345678901",
  };
}
