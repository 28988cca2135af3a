// pins: withdrawals.settlement
// When no test settles it, a withdrawal settles SUCCESSFUL 60 s after its request on the sandbox clock, stamped
// with that moment: a crypto withdrawal made at 10:00:00 is PENDING until 10:00:59.999 and SUCCESSFUL from
// 10:01:00 (its updatedAt 10:01:00 however far the clock then moves), a bank withdrawal APPROVED until then.
import { describe, expect, it } from "vitest";
import { api, newSandbox, START, withdrawBoth } from "./support/sandbox.js";

describe("a withdrawal no test settles", () => {
  it("settles SUCCESSFUL 60 s after its request, stamped with that moment", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 1000, NGNX: 100_000 } } } });
    expect(new Date(START).toISOString()).toBe("2026-11-26T10:00:00.000Z");
    const { crypto, bank } = await withdrawBoth(sandbox);
    const ids = [crypto.body.data.id, bank.body.data.id];
    /** Each withdrawal's state (from its webhooks, newest last) and Get Transaction's updatedAt. */
    const states = async () => {
      const bodies = (await sandbox.webhooks.list("key-a")).map((webhook) => JSON.parse(webhook.body));
      return Promise.all(
        ids.map(async (id) => [
          bodies.filter((body) => body.transactionId === id).map((body) => body.status),
          (await api(sandbox, "GET", `/transactions/${id}`)).body.data.updatedAt,
        ]),
      );
    };
    sandbox.clock.advance(59_999);
    expect(await states()).toEqual([
      [["PENDING"], "2026-11-26T10:00:00.000Z"],
      [["APPROVED"], "2026-11-26T10:00:00.000Z"],
    ]);
    sandbox.clock.advance(1);
    const settled = [
      [["PENDING", "SUCCESSFUL"], "2026-11-26T10:01:00.000Z"],
      [["APPROVED", "SUCCESSFUL"], "2026-11-26T10:01:00.000Z"],
    ];
    expect(await states()).toEqual(settled);
    sandbox.clock.advance(3_600_000);
    expect(await states()).toEqual(settled);
    // SUCCESSFUL: nothing comes back (1000 − 10 − a fee of 1; 100 000 − 15 000 − a fee of 75).
    expect(sandbox.getAccount("key-a")?.balances).toEqual({ USDT: 989, NGNX: 84_925 });
  });
});
