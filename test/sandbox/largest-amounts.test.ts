// The largest amount the sandbox takes (choices.ts, "money.exact"): MAX_MINOR_UNITS minor units of a currency, for
// an amount and for a wallet's balance counting what its pending withdrawals would return. Beyond it every way in
// is refused with a message that says so, never answered as a sandbox bug (a 500), and the state stays as it was.
import { describe, expect, it } from "vitest";
import { MAX_MINOR_UNITS, REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { successExample } from "../support/spec.js";
import { deposit, settle, withdraw } from "./support/receiver.js";
import {
  api,
  control,
  newSandbox,
  quoteId,
  SELL_100,
  stateOf,
  storesBeyondLimits,
  thrownBy,
} from "./support/sandbox.js";

const currencies = successExample("getCurrencies").data as Array<{ code: string; maximumDecimalPlaces: number }>;
/** A currency's decimal places in the contract's example catalogue (the sandbox's default one). */
const decimalsOf = (code: string) => currencies.find((currency) => currency.code === code)!.maximumDecimalPlaces;
/** The largest amount of a currency, and as a message writes it. */
const largest = (code: string) => MAX_MINOR_UNITS / 10 ** decimalsOf(code);
const written = (code: string) => largest(code).toFixed(decimalsOf(code));
/** An amount of USDT in minor units, as the saved state holds it. */
const usdtMinor = (amount: number) => amount * 10 ** decimalsOf("USDT");
const LARGEST_USDT = largest("USDT");
const LARGEST_NGNX = largest("NGNX");
const BEYOND_USDT = `more than ${written("USDT")} USDT, the most the sandbox keeps exact`;
const WOULD_HOLD = `the USDT wallet would hold more than ${written("USDT")} USDT, the most the sandbox keeps exact`;

const quote = (sandbox: ReturnType<typeof newSandbox>, body: unknown) => api(sandbox, "POST", "/trades/quote", body);

describe("Create Quote", () => {
  it("takes the largest amount and refuses one beyond it as invalid, however far beyond (never a 500)", async () => {
    const sandbox = newSandbox();
    const largest = await quote(sandbox, { ...SELL_100, amount: LARGEST_USDT });
    expect(largest.status).toBe(200);
    expect(largest.body.data.amount).toBe(LARGEST_USDT);
    for (const amount of [LARGEST_USDT + 10 ** -decimalsOf("USDT"), 1e9, 1e308]) {
      const answer = await quote(sandbox, { ...SELL_100, amount });
      expect({ amount, status: answer.status }).toEqual({ amount, status: REFUSAL_STATUS.invalidQuoteRequest });
      expect(answer.body.message).toBe(`amount has ${BEYOND_USDT}`);
      expect(answer.violations).toEqual([]);
    }
    expect(sandbox.bugs).toEqual([]);
  });

  it("refuses an amount whose amountReceived would be beyond the target's largest", async () => {
    const sandbox = newSandbox();
    const body = { sourceId: "USDT", targetId: "NGNX", amount: LARGEST_NGNX, side: "BUY" };
    const answer = await quote(sandbox, body);
    expect(answer.status).toBe(REFUSAL_STATUS.invalidQuoteRequest);
    expect(answer.body.message).toBe(`amount ${LARGEST_NGNX} NGNX would receive ${BEYOND_USDT}`);
    expect(sandbox.bugs).toEqual([]);
  });
});

describe("an account's balances", () => {
  it("take the largest amount and refuse one beyond it", async () => {
    const sandbox = newSandbox();
    const largest = await control(sandbox, "PUT", "/_sandbox/accounts/key-a", { balances: { USDT: LARGEST_USDT } });
    expect(largest.status).toBe(200);
    expect(largest.body.balances.USDT).toBe(LARGEST_USDT);
    const beyond = await control(sandbox, "PUT", "/_sandbox/accounts/key-b", { balances: { NGNX: 1e13 } });
    expect(beyond.status).toBe(400);
    expect(beyond.body.message).toContain(`the balance of NGNX has more than ${written("NGNX")} NGNX`);
  });
});

/** key-a holds USDT up to 1 below its largest, and NGNX to buy a few USDT with. */
const nearlyFull = () => newSandbox({ accounts: { "key-a": { balances: { USDT: LARGEST_USDT - 1, NGNX: 100_000 } } } });
/** A quote that receives between 5 and 10 USDT. */
const BUY_A_FEW_USDT = { sourceId: "USDT", targetId: "NGNX", amount: 12_000, side: "BUY" } as const;

describe("a credit that would take a wallet beyond its largest balance", () => {
  it("refuses the accept with its status, and the state stays as it was", async () => {
    const sandbox = nearlyFull();
    const id = await quoteId(sandbox, BUY_A_FEW_USDT);
    const before = storesBeyondLimits(sandbox)["key-a"];
    const answer = await api(sandbox, "POST", `/trades/quote/${id}`, {});
    expect(answer.status).toBe(REFUSAL_STATUS.balanceTooHigh);
    expect(answer.body.message).toContain(WOULD_HOLD);
    expect(storesBeyondLimits(sandbox)["key-a"]).toEqual(before);
    expect(sandbox.bugs).toEqual([]);
  });

  it("refuses a simulated deposit", async () => {
    const sandbox = nearlyFull();
    const body = { apiKey: "key-a", currency: "USDT", network: "TRX", amount: 25 };
    const answer = await control(sandbox, "POST", "/_sandbox/deposits", body);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain(WOULD_HOLD);
  });

  it("counts what a pending withdrawal would return, until it settles", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: LARGEST_USDT - 3, NGNX: 100_000 } } } });
    const withdrawal = await withdraw(sandbox, "key-a", 15); // pending: the balance alone would take the credit
    const refused = await api(sandbox, "POST", `/trades/quote/${await quoteId(sandbox, BUY_A_FEW_USDT)}`, {});
    expect(refused.status).toBe(REFUSAL_STATUS.balanceTooHigh);
    await settle(sandbox, withdrawal, "SUCCESSFUL"); // nothing to return any more
    const accepted = await api(sandbox, "POST", `/trades/quote/${await quoteId(sandbox, BUY_A_FEW_USDT)}`, {});
    expect(accepted.status).toBe(200);
  });

  it("takes a credit up to the largest balance", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: LARGEST_USDT - 25 } } } });
    await deposit(sandbox, "key-a", 25);
    const wallet = await api(sandbox, "GET", "/wallets/USDT");
    expect(wallet.body.data.availableBalance).toBe(LARGEST_USDT - lastDepositFee(sandbox));
  });
});

/** The fee the last USDT deposit of key-a paid, in USDT (the TRX network's, from the catalogue). */
function lastDepositFee(sandbox: ReturnType<typeof newSandbox>): number {
  const deposits = stateOf(sandbox).accounts["key-a"]!.transactions.filter((t) => t.deposit);
  return deposits.at(-1)!.deposit!.feeMinor / usdtMinor(1);
}

describe("a withdrawal", () => {
  it("of an amount beyond the largest is refused as invalid", async () => {
    const sandbox = newSandbox();
    const body = { amount: 1e9, currency: "USDT", destination: { address: "T".repeat(34), network: "TRX" } };
    const answer = await api(sandbox, "POST", "/wallets/ext/debit/crypto", body);
    expect(answer.status).toBe(REFUSAL_STATUS.invalidWithdrawal);
    expect(answer.body.message).toBe(`amount has ${BEYOND_USDT}`);
  });
});

describe("a restore", () => {
  it("refuses a balance beyond the largest, and one that its pending withdrawals would take beyond it", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: LARGEST_USDT - 20 } } } });
    await deposit(sandbox, "key-a", 5);
    await withdraw(sandbox, "key-a", 15);
    const saved = JSON.parse(JSON.stringify(sandbox.snapshot()));
    expect(thrownBy(() => newSandbox().restore(saved))).toBeUndefined();
    const account = (state: any) => state.accounts["key-a"];
    const wallet = (state: any) => account(state).wallets.find((w: any) => w.code === "USDT");
    const beyond = structuredClone(saved);
    wallet(beyond).startingMinor += usdtMinor(100); // the history still adds up: only the largest balance is broken
    wallet(beyond).balanceMinor += usdtMinor(100);
    expect(thrownBy(() => newSandbox().restore(beyond))?.message).toMatch(
      new RegExp(`/accounts/key-a/wallets/\\d/startingMinor must be <= ${MAX_MINOR_UNITS}$`),
    );
    // A deposit of 30 USDT more: the balance alone stays within the largest, not with the pending withdrawal's refund.
    const refunding = structuredClone(saved);
    account(refunding).transactions.find((t: any) => t.deposit).amountMinor += usdtMinor(30);
    wallet(refunding).balanceMinor += usdtMinor(30);
    expect(thrownBy(() => newSandbox().restore(refunding))?.message).toMatch(
      `the USDT balance, with what its pending withdrawals would return, is over ${MAX_MINOR_UNITS}`,
    );
  });
});
