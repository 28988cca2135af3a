// With the real-time clock, withdrawals settle at their moments with no request: one timer, aimed at the soonest
// moment of any store, waiting again past setTimeout's limit (2^31 − 1 ms, about 24.9 days). When real time jumps
// ahead of the timers (a wall-clock step, here vi.setSystemTime), whatever the sandbox is asked next (an API
// request of the store, a control request, a deposit, a settle) settles what is due first, and the timer is aimed
// at the next moment. Fake timers stand in for real time (Date and setTimeout only); no sockets.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { useFakeClock } from "../client/support/clock.js";
import { api, control, START, stateOf, thrownBy, TRX_DESTINATION } from "./support/sandbox.js";

const FUNDED = { balances: { USDT: 1000 } };
const DAY = 86_400_000;

afterEach(() => {
  vi.useRealTimers();
});

/** A real-time sandbox at START (fake time) whose key-a, and the other `keys`, hold 1000 USDT. */
function realTimeSandbox(options: { keys?: string[]; settleAfterMs?: number } = {}) {
  useFakeClock(START);
  const accounts = Object.fromEntries(["key-a", ...(options.keys ?? [])].map((key) => [key, FUNDED]));
  return createSandbox({ accounts, withdrawals: { settleAfterMs: options.settleAfterMs ?? 60_000 } });
}

/** A crypto withdrawal of 10 USDT (fee 1) by `key`: its transaction id. */
async function withdraw(sandbox: Sandbox, key = "key-a"): Promise<string> {
  const body = { amount: 10, currency: "USDT", destination: TRX_DESTINATION };
  const answer = await api(sandbox, "POST", "/wallets/ext/debit/crypto", body, { key });
  expect(answer.status).toBe(200);
  return answer.body.data.id;
}

/** The status of withdrawal `id` of `key` in the state, read without a request (which would settle what is due). */
const statusOf = (sandbox: Sandbox, id: string, key = "key-a") =>
  stateOf(sandbox).accounts[key]!.transactions.find((transaction) => transaction.id === id)?.withdrawal?.status;

describe("settlement timers with real time", () => {
  it("keep one timer however many withdrawals wait", async () => {
    const sandbox = realTimeSandbox();
    await withdraw(sandbox);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(10_000);
    await withdraw(sandbox);
    await withdraw(sandbox);
    expect(vi.getTimerCount()).toBe(1);
  });

  it("settle a withdrawal 30 days away at its moment, waiting again past setTimeout's limit", async () => {
    const sandbox = realTimeSandbox({ settleAfterMs: 30 * DAY });
    const id = await withdraw(sandbox);
    await vi.advanceTimersByTimeAsync(30 * DAY - 1);
    expect(statusOf(sandbox, id)).toBe("PENDING");
    await vi.advanceTimersByTimeAsync(1);
    expect(statusOf(sandbox, id)).toBe("SUCCESSFUL");
  });

  it("aim at the soonest moment of any store, whichever store comes first", async () => {
    for (const [earlier, later] of [
      ["key-a", "key-b"],
      ["key-b", "key-a"],
    ]) {
      const sandbox = realTimeSandbox({ keys: ["key-b"] });
      const soon = await withdraw(sandbox, earlier); // due at 10:01:00
      await vi.advanceTimersByTimeAsync(10_000);
      const late = await withdraw(sandbox, later); // due at 10:01:10
      await vi.advanceTimersByTimeAsync(50_000);
      expect([earlier, statusOf(sandbox, soon, earlier), statusOf(sandbox, late, later)]).toEqual([
        earlier,
        "SUCCESSFUL",
        "PENDING",
      ]);
      vi.useRealTimers();
    }
  });

  it("after a jump, settle a store's due withdrawal at its request, and aim at the next moment", async () => {
    const sandbox = realTimeSandbox();
    const first = await withdraw(sandbox); // due at 10:01:00
    await vi.advanceTimersByTimeAsync(10_000);
    const second = await withdraw(sandbox); // due at 10:01:10
    vi.setSystemTime(START + 65_000); // the timer set for 10:01:00 still waits 50 s
    expect((await api(sandbox, "GET", "/wallets/USDT")).status).toBe(200);
    expect([statusOf(sandbox, first), statusOf(sandbox, second)]).toEqual(["SUCCESSFUL", "PENDING"]);
    await vi.advanceTimersByTimeAsync(5_000); // 10:01:10
    expect(statusOf(sandbox, second)).toBe("SUCCESSFUL");
  });

  it("after a jump, settle what is due before a control request, a deposit or a settle", async () => {
    const viaControl = realTimeSandbox();
    await withdraw(viaControl);
    vi.setSystemTime(START + 60_000);
    const outbox = await control(viaControl, "GET", "/_sandbox/webhooks?apiKey=key-a");
    expect(outbox.body.map((webhook: any) => JSON.parse(webhook.body).status)).toEqual(["PENDING", "SUCCESSFUL"]);
    vi.useRealTimers();

    const viaDeposit = realTimeSandbox();
    const deposited = await withdraw(viaDeposit);
    vi.setSystemTime(START + 60_000);
    viaDeposit.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 5 });
    expect(statusOf(viaDeposit, deposited)).toBe("SUCCESSFUL");
    vi.useRealTimers();

    const viaSettle = realTimeSandbox();
    const settled = await withdraw(viaSettle);
    vi.setSystemTime(START + 60_000);
    const refusal = thrownBy(() => viaSettle.settleWithdrawal(settled, "FAILED"));
    expect([refusal?.name, refusal?.message]).toEqual(["RangeError", `withdrawal ${settled} is already SUCCESSFUL`]);
  });
});
