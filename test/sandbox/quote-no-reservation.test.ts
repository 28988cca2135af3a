// pins: quotes.no-reservation
// A quote reserves nothing: with 100 USDT, quotes of 100, 100 and 500 USDT are all made and the wallet still holds
// 100 (no balance is looked at, none is held). The balance is checked when a quote is accepted: the first quote of
// 100 is accepted (the wallet then holds 0), the second is refused as the balance is too low (400), and the quote
// of 500, made beyond the balance, is accepted once a deposit of 500 has come in.
import { describe, expect, it } from "vitest";
import { api, newSandbox, quoteId } from "./support/sandbox.js";

const sell = (amount: number) => ({ sourceId: "USDT", targetId: "NGNX", amount, side: "SELL" });

describe("a quote reserves nothing", () => {
  it("makes quotes beyond the balance, and checks the balance when each is accepted", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 100, NGNX: 0 } } } });
    const usdt = () => sandbox.getAccount("key-a")?.balances.USDT;
    // quoteId fails the test when Create Quote refuses: each of the three is made.
    const first = await quoteId(sandbox, sell(100));
    const second = await quoteId(sandbox, sell(100));
    const big = await quoteId(sandbox, sell(500));
    expect(usdt()).toBe(100);

    const accepted = await api(sandbox, "POST", `/trades/quote/${first}`, {});
    expect([accepted.status, usdt()]).toEqual([200, 0]);
    const refused = await api(sandbox, "POST", `/trades/quote/${second}`, {});
    expect([refused.status, refused.body.message]).toEqual([
      400,
      "balance too low: the USDT wallet holds 0, the quote needs 100",
    ]);

    sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 500 });
    expect(usdt()).toBe(500);
    expect((await api(sandbox, "POST", `/trades/quote/${big}`, {})).status).toBe(200);
    expect(usdt()).toBe(0);
  });
});
