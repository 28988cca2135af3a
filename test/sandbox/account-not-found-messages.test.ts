// The exact messages of the refusals of what the caller's account does not hold: a wallet of a code it has no
// wallet of, a transaction id it has no transaction of (another key's counts as none), and the collection
// operations of an account that is not a Business account.
import { describe, expect, it } from "vitest";
import { api, newSandbox } from "./support/sandbox.js";
import { deposit } from "./support/receiver.js";

describe("refusal messages of an account's reads", () => {
  it("name the wallet code, the transaction id, or the Business account they need", async () => {
    const sandbox = newSandbox({ accounts: { "key-b": {} } });
    const theirs = await deposit(sandbox, "key-b");
    const rows = [];
    for (const path of [
      "/wallets/EUR",
      "/transactions/no-such-id",
      `/transactions/${theirs}`,
      "/collections/customers/me",
      "/collections/customers/c-1",
    ]) {
      const answer = await api(sandbox, "GET", path);
      rows.push([path, answer.status, answer.body.message]);
    }
    expect(rows).toEqual([
      ["/wallets/EUR", 404, "the account has no wallet of EUR"],
      ["/transactions/no-such-id", 404, "no transaction no-such-id was found for this API key"],
      [`/transactions/${theirs}`, 404, `no transaction ${theirs} was found for this API key`],
      ["/collections/customers/me", 403, "the collection operations need a Business account"],
      ["/collections/customers/c-1", 403, "the collection operations need a Business account"],
    ]);
  });
});
