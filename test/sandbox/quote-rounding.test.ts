// pins: quotes.rounding, quotes.sides, money.exact
// Create Quote's amountReceived, end to end: the product or quotient of amount and rate is read at 15 significant
// digits, then rounded down to the received currency's decimals (USDT 6, NGNX 2). A plain Math.floor of the float
// would lose a minor unit wherever the float lands just below the exact value (0.29 × 100 is 28.999999999999996).
import { describe, expect, it } from "vitest";
import { api, newSandbox } from "./support/sandbox.js";

/** A sandbox whose NGNX rates are `buyRate` and `sellRate`, and where key-a holds 1 USDT and 1 NGNX. */
function withRates(buyRate: number, sellRate: number) {
  const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 1, NGNX: 1 } } } });
  sandbox.setRates({ fiat: [{ currency: "NGNX", buyRate, sellRate }] });
  return sandbox;
}

const quote = async (sandbox: ReturnType<typeof newSandbox>, side: "SELL" | "BUY", amount: number) => {
  const answer = await api(sandbox, "POST", "/trades/quote", { sourceId: "USDT", targetId: "NGNX", side, amount });
  expect(answer.violations).toEqual([]);
  expect(answer.status).toBe(200);
  return answer.body.data as { id: string; rate: number; amount: number; amountReceived: number };
};

describe("amountReceived at 15 digits, rounded down", () => {
  it("SELL 0.29 USDT at sellRate 100 receives 29 NGNX (the float 0.29 × 100 is 28.999999999999996)", async () => {
    const sandbox = withRates(100, 100);
    const sold = await quote(sandbox, "SELL", 0.29);
    // 0.29 × 100 = 29 exactly; a plain floor of the float product would answer 28.99.
    expect(sold).toMatchObject({ rate: 100, amount: 0.29, amountReceived: 29 });
    // Accepting moves exactly that: USDT 1 − 0.29 = 0.71, NGNX 1 + 29 = 30.
    expect((await api(sandbox, "POST", `/trades/quote/${sold.id}`, {})).status).toBe(200);
    const balances = sandbox.getAccount("key-a")!.balances;
    expect([balances.USDT, balances.NGNX]).toEqual([0.71, 30]);
  });

  it("BUY (the clients' form) of 0.7 NGNX at buyRate 100 receives 0.007 USDT (the float is 0.00699…)", async () => {
    const sandbox = withRates(100, 100);
    const bought = await quote(sandbox, "BUY", 0.7);
    // 0.7 ÷ 100 = 0.007 exactly; the float quotient is 0.006999999999999999, which a plain floor makes 0.006999.
    expect(bought).toMatchObject({ rate: 100, amount: 0.7, amountReceived: 0.007 });
    // The BUY pays NGNX and receives USDT: NGNX 1 − 0.7 = 0.3, USDT 1 + 0.007 = 1.007.
    expect((await api(sandbox, "POST", `/trades/quote/${bought.id}`, {})).status).toBe(200);
    const balances = sandbox.getAccount("key-a")!.balances;
    expect([balances.NGNX, balances.USDT]).toEqual([0.3, 1.007]);
  });

  it("reads the exact quotient, not the float's: BUY 1290919915501.94 NGNX at 1652.4 → 781239358.20742", async () => {
    // 1290919915501.94 ÷ 1652.4 = 781239358.2074195110…: at 15 significant digits 781239358.207420, down to 6
    // decimals 781239358.20742. The float quotient is 781239358.2074194, whose 15 digits end in …419.
    const bought = await quote(withRates(1652.4, 1652.4), "BUY", 1290919915501.94);
    expect(bought).toMatchObject({ rate: 1652.4, amountReceived: 781239358.20742 });
  });

  it("rounds down, not to nearest: SELL 0.123456 × 100 = 12.3456 → 12.34; BUY 2 ÷ 3 → 0.666666", async () => {
    const sold = await quote(withRates(100, 100), "SELL", 0.123456);
    expect(sold.amountReceived).toBe(12.34); // 12.3456 NGNX to 2 decimals, down (nearest would be 12.35)
    const bought = await quote(withRates(3, 3), "BUY", 2);
    expect(bought.amountReceived).toBe(0.666666); // 0.666666|666… USDT to 6 decimals, down (nearest: 0.666667)
  });
});
