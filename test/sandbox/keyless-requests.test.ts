// pins: accounts.keyless
// Without x-api-key, or with an empty one (the mock answers 401 to it too), there is no account: every operation
// that reads or changes one (wallets, transactions, trades, quotes, collections, deposit addresses, withdrawals,
// webhook resends) answers 401, and no account is made; the catalogue reads (rates, pairs, currencies) answer 200
// without a key.
import { describe, expect, it } from "vitest";
import { successExample } from "../support/spec.js";
import { api, BANK_DESTINATION, newSandbox, SELL_100, stateOf, TRX_DESTINATION } from "./support/sandbox.js";

const TRX = TRX_DESTINATION;
const BANK = BANK_DESTINATION;
const USDT_ID = (successExample("getCurrencies").data as Array<{ id: string }>)[0]!.id;

/** Method, path (under the base path) and body of a request sent without a key. */
const ACCOUNT_REQUESTS: Array<[string, string, unknown?]> = [
  ["GET", "/wallets/me"],
  ["GET", "/wallets/USDT"],
  ["GET", "/wallets/NGNX"],
  ["GET", "/transactions/me"],
  ["GET", "/transactions/some-transaction"],
  ["GET", "/trades/me"],
  ["GET", "/trades/summary/me"],
  ["POST", "/trades/quote", SELL_100],
  ["POST", "/trades/quote/qt_doesnotexist0000", {}],
  ["GET", "/collections/customers/me"],
  ["GET", "/collections/customers/c-1"],
  ["POST", "/addresses/broker", { currency: "USDT", network: "TRX" }],
  ["GET", "/addresses/me/broker"],
  ["GET", "/transactions/deposits/me"],
  ["GET", "/transactions/withdrawals/me"],
  ["POST", "/wallets/ext/debit/crypto", { amount: 10, currency: "USDT", destination: TRX }],
  ["POST", "/wallets/ext/debit/fiat", { amount: 5000, currency: "NGNX", destination: BANK }],
  ["POST", "/transactions/resendWebhooks", { ids: ["some-transaction"] }],
  ["POST", "/transactions/some-transaction/resendWebhook"],
];

const CATALOGUE_READS = [
  "/currencies/fiat-rates",
  "/currencies",
  `/currencies/${USDT_ID}/pairs`,
  "/trades/pairs",
  "/trades/pairs/USDT/NGNX",
];

describe.each([
  ["without an API key", null],
  ["with an empty API key", ""],
])("requests %s", (_, key) => {
  it("answer 401 to every operation that reads or changes an account, and make no account", async () => {
    const sandbox = newSandbox();
    const seen = [];
    for (const [method, path, body] of ACCOUNT_REQUESTS) {
      const answer = await api(sandbox, method, path, body, { key });
      seen.push([method, path, answer.status, answer.violations]);
    }
    expect(seen).toEqual(ACCOUNT_REQUESTS.map(([method, path]) => [method, path, 401, []]));
    expect(stateOf(sandbox).accounts).toEqual({});
    const wallets = await api(sandbox, "GET", "/wallets/me", undefined, { key });
    expect(wallets.body).toMatchObject({
      message: "the sandbox keeps one account per API key: getMyWallets needs the x-api-key header, not empty",
    });
  });

  it("answer 200 to the catalogue reads: rates, pairs, currencies", async () => {
    const sandbox = newSandbox();
    const seen = [];
    for (const path of CATALOGUE_READS) seen.push([path, (await api(sandbox, "GET", path, undefined, { key })).status]);
    expect(seen).toEqual(CATALOGUE_READS.map((path) => [path, 200]));
    expect(stateOf(sandbox).accounts).toEqual({});
  });
});
