// Settlements of a key whose clock is ahead of the sandbox's: its moments are on its own clock, so the sandbox
// waits for them on its clock (the moment less the key's lead). With real time, the alarm rings when the sandbox
// clock reaches that; one advance past moments of two keys settles them in the order of the sandbox clock, which
// the order of their webhooks shows.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { useFakeClock } from "../client/support/clock.js";
import { api, START, stateOf, TRX_DESTINATION } from "./support/sandbox.js";

const FUNDED = { balances: { USDT: 1000 }, webhookSecret: "whsec-key-clocks" };

afterEach(() => {
  vi.useRealTimers();
});

/** A crypto withdrawal of 10 USDT by `key`: its transaction id. */
async function withdraw(sandbox: Sandbox, key: string): Promise<string> {
  const body = { amount: 10, currency: "USDT", destination: TRX_DESTINATION };
  const answer = await api(sandbox, "POST", "/wallets/ext/debit/crypto", body, { key });
  expect(answer.status).toBe(200);
  return answer.body.data.id;
}

/** The status of `key`'s withdrawal `id` in the state, read without a request (which would settle what is due). */
const statusOf = (sandbox: Sandbox, key: string, id: string) =>
  stateOf(sandbox).accounts[key]!.transactions.find((transaction) => transaction.id === id)?.withdrawal?.status;

describe("settlements on a key's clock ahead of the sandbox's", () => {
  it("with real time, settle after the delay of 1 min, not 1 min plus the key's lead of 30 s", async () => {
    useFakeClock(START);
    const sandbox = createSandbox({ accounts: { "key-a": FUNDED } });
    sandbox.accountClock("key-a").advance(30_000);
    const id = await withdraw(sandbox, "key-a"); // due at 10:01:30 on key-a's clock: 10:01:00 on the sandbox's
    await vi.advanceTimersByTimeAsync(59_999);
    expect(statusOf(sandbox, "key-a", id)).toBe("PENDING");
    await vi.advanceTimersByTimeAsync(1);
    expect(statusOf(sandbox, "key-a", id)).toBe("SUCCESSFUL");
  });

  it("settle two keys in one advance in the order of the sandbox clock, as their webhooks arrive", async () => {
    const arrived: string[] = [];
    const sandbox = createSandbox({
      clock: { start: START },
      accounts: { "key-a": FUNDED, "key-b": FUNDED },
      webhooks: {
        onWebhook: (delivery) => {
          arrived.push(`${delivery.apiKey} ${JSON.parse(delivery.body).status}`);
          return 200;
        },
      },
    });
    sandbox.accountClock("key-b").advance(30_000);
    await withdraw(sandbox, "key-b"); // due at 10:01:30 on key-b's clock: 10:01:00 on the sandbox's
    sandbox.clock.advance(10_000);
    await withdraw(sandbox, "key-a"); // due at 10:01:10, earlier than key-b's 10:01:30 but later on the sandbox
    await sandbox.webhooks.settled();
    sandbox.clock.advance(60_000);
    await sandbox.webhooks.settled();
    expect(arrived).toEqual(["key-b PENDING", "key-a PENDING", "key-b SUCCESSFUL", "key-a SUCCESSFUL"]);
  });
});
