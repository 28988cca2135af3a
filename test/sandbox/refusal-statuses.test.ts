// pins: accounts.unknown-key, accounts.isolation, accounts.business, quotes.not-tradable, quotes.invalid-request
// pins: quotes.balance-too-low, addresses.not-receivable, withdrawals.checks
// The statuses of the API's refusals, written as the numbers the register gives (GET /_sandbox/choices, the table of
// docs/guide/register.md), so a reader checks them by hand: a key without an account when the sandbox requires known
// keys 401; a collection operation of an account that is not a Business account 403; another key's quote or transaction
// 404, as an unknown id, and so a wallet, currency, pair or collection customer the sandbox does not have; a quote it
// cannot trade 400, a quote request it cannot read 422 (decimals beyond the currency's, 6 when the catalogue gives
// none), an accept the balance cannot cover 400; a deposit address of a pair that is not receivable 400; a withdrawal
// it cannot pay out 400, one whose destination or amount is not allowed 422, one the balance cannot cover 400. Every
// refusal is an answer the contract allows.
import { describe, expect, it } from "vitest";
import { successExample } from "../support/spec.js";
import { type Answer, api, newSandbox, quoteId, SELL_100 } from "./support/sandbox.js";

/** What a table of refusals compares: the case, its status, whether the contract allows the answer. */
const row = (name: string, answer: Answer) => [name, answer.status, answer.violations.length === 0];

describe("refusal statuses", () => {
  it("401: a key without an account when the sandbox requires known keys; a known key is answered", async () => {
    const sandbox = newSandbox({ requireKnownKeys: true, accounts: { known: {} } });
    const stranger = await api(sandbox, "GET", "/wallets/me", undefined, { key: "stranger" });
    const known = await api(sandbox, "GET", "/wallets/me", undefined, { key: "known" });
    expect([row("stranger", stranger), row("known", known)]).toEqual([
      ["stranger", 401, true],
      ["known", 200, true],
    ]);
  });

  it("403: the collection operations of an account that is not a Business account", async () => {
    const sandbox = newSandbox({ accounts: { business: { business: true } } });
    const rows = [];
    for (const key of ["key-a", "business"])
      for (const path of ["/collections/customers/me", "/collections/customers/c-1"])
        rows.push(row(`${key} ${path}`, await api(sandbox, "GET", path, undefined, { key })));
    expect(rows).toEqual([
      ["key-a /collections/customers/me", 403, true],
      ["key-a /collections/customers/c-1", 403, true],
      ["business /collections/customers/me", 200, true],
      ["business /collections/customers/c-1", 404, true],
    ]);
  });

  it("404: another key's quote or transaction as an unknown one, and what the sandbox does not have", async () => {
    const sandbox = newSandbox();
    const theirQuote = await quoteId(sandbox, SELL_100, "key-b");
    const asA = await api(sandbox, "POST", `/trades/quote/${theirQuote}`, {});
    expect((await api(sandbox, "POST", `/trades/quote/${theirQuote}`, {}, { key: "key-b" })).status).toBe(200);
    const [theirTransaction] = (await api(sandbox, "GET", "/transactions/me", undefined, { key: "key-b" })).body.data;
    const usdtId = (successExample("getCurrencies").data as Array<{ id: string }>)[0]!.id;
    expect((await api(sandbox, "GET", `/currencies/${usdtId}/pairs`)).status).toBe(200);
    const rows = [
      row("another key's quote", asA),
      row("an unknown quote", await api(sandbox, "POST", "/trades/quote/qt_doesnotexist0000", {})),
      row("another key's transaction", await api(sandbox, "GET", `/transactions/${theirTransaction.id}`)),
      row("an unknown transaction", await api(sandbox, "GET", "/transactions/no-such-id")),
      row("a wallet of EUR", await api(sandbox, "GET", "/wallets/EUR")),
      row("an unknown currency's pairs", await api(sandbox, "GET", "/currencies/no-such-id/pairs")),
      row("the pair NGNX/GHS", await api(sandbox, "GET", "/trades/pairs/NGNX/GHS")),
    ];
    expect(rows).toEqual([
      ["another key's quote", 404, true],
      ["an unknown quote", 404, true],
      ["another key's transaction", 404, true],
      ["an unknown transaction", 404, true],
      ["a wallet of EUR", 404, true],
      ["an unknown currency's pairs", 404, true],
      ["the pair NGNX/GHS", 404, true],
    ]);
  });

  it("400: a quote the sandbox cannot trade; 422: a quote request it cannot read", async () => {
    const sandbox = newSandbox();
    const quote = async (name: string, body: unknown) => row(name, await api(sandbox, "POST", "/trades/quote", body));
    expect([
      await quote("a currency the catalogue lacks", { ...SELL_100, targetId: "EUR" }),
      await quote("GHS: rates, but no currency", { ...SELL_100, targetId: "GHS" }),
      await quote("USDT against itself", { ...SELL_100, targetId: "USDT" }),
      await quote("the pair the other way round", { sourceId: "NGNX", targetId: "USDT", amount: 1000, side: "SELL" }),
      await quote("no side", { sourceId: "USDT", targetId: "NGNX", amount: 1 }),
      await quote("an amount of 0", { ...SELL_100, amount: 0 }),
      await quote("7 decimals of USDT (it takes 6)", { ...SELL_100, amount: 1.1234567 }),
      await quote("0.000001 USDT: less than 0.01 NGNX", { ...SELL_100, amount: 0.000001 }),
    ]).toEqual([
      ["a currency the catalogue lacks", 400, true],
      ["GHS: rates, but no currency", 400, true],
      ["USDT against itself", 400, true],
      ["the pair the other way round", 400, true],
      ["no side", 422, true],
      ["an amount of 0", 422, true],
      ["7 decimals of USDT (it takes 6)", 422, true],
      ["0.000001 USDT: less than 0.01 NGNX", 422, true],
    ]);
  });

  it("422: more than 6 decimals of a currency whose catalogue entry gives no maximumDecimalPlaces", async () => {
    const [usdt, ngnx] = successExample("getCurrencies").data as Array<Record<string, unknown>>;
    const { maximumDecimalPlaces: _, ...usdtWithoutPlaces } = usdt!;
    const sandbox = newSandbox({ catalogue: { currencies: [usdtWithoutPlaces, ngnx] as never } });
    const six = await api(sandbox, "POST", "/trades/quote", { ...SELL_100, amount: 1.123456 });
    const seven = await api(sandbox, "POST", "/trades/quote", { ...SELL_100, amount: 1.1234567 });
    expect([row("6 decimals", six), row("7 decimals", seven)]).toEqual([
      ["6 decimals", 200, true],
      ["7 decimals", 422, true],
    ]);
    expect(seven.body.message).toBe("amount has more than 6 decimals, the most USDT takes");
  });

  it("400: an accept of a quote whose amount is more than the source wallet holds", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 99.99 } } } });
    const refused = await api(sandbox, "POST", `/trades/quote/${await quoteId(sandbox)}`, {});
    expect(row("100 USDT from 99.99", refused)).toEqual(["100 USDT from 99.99", 400, true]);
    expect(sandbox.getAccount("key-a")?.balances.USDT).toBe(99.99);
  });

  it("400: a deposit address of a pair that is not receivable, or not an active network", async () => {
    const sandbox = newSandbox();
    const address = async (name: string, network: string) =>
      row(name, await api(sandbox, "POST", "/addresses/broker", { currency: "USDT", network }));
    expect([
      await address("BSC (isReceivable false)", "BSC"),
      await address("SOL (no active network)", "SOL"),
      await address("TRX", "TRX"),
    ]).toEqual([
      ["BSC (isReceivable false)", 400, true],
      ["SOL (no active network)", 400, true],
      ["TRX", 200, true],
    ]);
  });

  it("400: a withdrawal the sandbox cannot pay out or the balance cannot cover; 422: one not allowed", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 1000, NGNX: 100_000 } } } });
    const trx = { address: `T${"9".repeat(33)}`, network: "TRX" };
    const bank = { accountNumber: "0123456789", accountName: "Jane Doe", bankName: "OPAY", bankCode: "999992" };
    const crypto = async (name: string, body: Record<string, unknown>) =>
      row(
        name,
        await api(sandbox, "POST", "/wallets/ext/debit/crypto", { currency: "USDT", destination: trx, ...body }),
      );
    const fiat = async (name: string, body: Record<string, unknown>) =>
      row(
        name,
        await api(sandbox, "POST", "/wallets/ext/debit/fiat", { currency: "NGNX", destination: bank, ...body }),
      );
    const usdtId = (successExample("getCurrencies").data as Array<{ id: string }>)[0]!.id;
    expect([
      await crypto("on SOL, no withdrawal network", { amount: 10, destination: { ...trx, network: "SOL" } }),
      await crypto("NGNX on TRX", { amount: 10, currency: "NGNX" }),
      await crypto("USDT named by its id", { amount: 10, currency: usdtId }),
      await fiat("USDT to a bank", { amount: 100, currency: "USDT" }),
      await crypto("an address not of TRX's form", { amount: 10, destination: { ...trx, address: "T123" } }),
      await crypto("an amount of 0", { amount: 0 }),
      await crypto("9.99 USDT, under the minimum of 10", { amount: 9.99 }),
      await fiat("999.99 NGNX, under the minimum of 1000", { amount: 999.99 }),
      await crypto("1000 USDT and a fee of 1, from 1000", { amount: 1000 }),
    ]).toEqual([
      ["on SOL, no withdrawal network", 400, true],
      ["NGNX on TRX", 400, true],
      ["USDT named by its id", 400, true],
      ["USDT to a bank", 400, true],
      ["an address not of TRX's form", 422, true],
      ["an amount of 0", 422, true],
      ["9.99 USDT, under the minimum of 10", 422, true],
      ["999.99 NGNX, under the minimum of 1000", 422, true],
      ["1000 USDT and a fee of 1, from 1000", 400, true],
    ]);
    expect(sandbox.getAccount("key-a")?.balances).toEqual({ USDT: 1000, NGNX: 100_000 });
  });
});
