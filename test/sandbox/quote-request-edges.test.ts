// Create Quote at the edges of its rules: a refusal of several missing fields lists them all; a target without a
// dollar rate is named as the one lacking it; an amountReceived of exactly the largest amount the sandbox keeps
// exact is quoted and one a rate step beyond refused; and a quote is stored with `pays` only when the caller pays
// the target (absent means the source, as the control document says of a saved state).
import { describe, expect, it } from "vitest";
import { api, BUY_1000, newSandbox, SELL_100, stateOf } from "./support/sandbox.js";

const quote = (sandbox: ReturnType<typeof newSandbox>, body: object) => api(sandbox, "POST", "/trades/quote", body);

describe("Create Quote", () => {
  it("lists every missing field, in the order it needs them", async () => {
    const answer = await quote(newSandbox(), { sourceId: "USDT", targetId: "NGNX" });
    expect([answer.status, answer.body.message]).toEqual([
      422,
      "Create Quote needs sourceId, targetId, amount, side; missing: amount, side",
    ]);
  });

  it("names the target when only the target lacks a dollar rate", async () => {
    // USDT is the target of a BUY only when the source pays; a restored state can lack USDT's dollar rate.
    const sandbox = newSandbox({ quotes: { sideReading: "source-pays" } });
    const state = stateOf(sandbox);
    delete state.rates.dollar.USDT;
    sandbox.restore(state as never);
    const answer = await quote(sandbox, { sourceId: "NGNX", targetId: "USDT", amount: 1000, side: "BUY" });
    expect([answer.status, answer.body.message]).toEqual([400, "the sandbox has no dollar rate for USDT"]);
  });

  it("quotes an amountReceived of exactly 9999999999999.99 NGNX (999999999999999 cents), not beyond", async () => {
    const sandbox = newSandbox();
    const body = { ...SELL_100, amount: 999999999.999999 };
    sandbox.setRates({ fiat: [{ currency: "NGNX", buyRate: 10001, sellRate: 10000 }] });
    const largest = await quote(sandbox, body);
    expect([largest.status, largest.body.data?.amountReceived]).toEqual([200, 9999999999999.99]);
    sandbox.setRates({ fiat: [{ currency: "NGNX", buyRate: 10002, sellRate: 10001 }] });
    const beyond = await quote(sandbox, body);
    expect([beyond.status, beyond.body.message]).toEqual([
      422,
      "amount 999999999.999999 USDT would receive more than 9999999999999.99 NGNX, the most the sandbox keeps exact",
    ]);
  });

  it("stores `pays` on a quote only when the caller pays the target (a BUY as the clients send it)", async () => {
    const sandbox = newSandbox();
    for (const body of [SELL_100, BUY_1000]) expect((await quote(sandbox, body)).status).toBe(200);
    const stored = stateOf(sandbox).accounts["key-a"]!.quotes.map((record) => [record.side, record.pays]);
    expect(stored).toEqual([
      ["SELL", undefined],
      ["BUY", "target"],
    ]);
  });
});
