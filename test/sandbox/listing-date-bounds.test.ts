// pins: lists.filters
// The date filters of the deposits and payouts listings (register "lists.filters") at their edges: an endDate given
// as a date ends at its last millisecond (23:59:59.999Z), a startDate given as a date begins at its first; a value
// of the ISO form that names no moment (month 13, 31 November, 30 February, hour 24 or 25) is refused like any
// other bad date, as startDate or as endDate, with the message that says which forms are taken.
import { describe, expect, it } from "vitest";
import { api, newSandbox } from "./support/sandbox.js";

const REFUSED = "startDate and endDate must be ISO 8601 dates, or date-times with their offset";

describe("deposit and payout listings' date filters", () => {
  it("take a date's whole day: deposits at 2026-11-26T23:59:59.999Z and 2026-11-27T00:00:00.000Z", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": {} } }); // its clock: 2026-11-26T10:00:00.000Z
    const depositNow = (amount: number) =>
      sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount });
    sandbox.clock.advance(14 * 3_600_000 - 1);
    depositNow(1);
    sandbox.clock.advance(1);
    depositNow(2);
    const amounts = async (query: string) => {
      const answer = await api(sandbox, "GET", `/transactions/deposits/me?${query}`);
      return [query, answer.status, answer.body.data.map((item: { amount: number }) => item.amount)];
    };
    expect([
      await amounts("endDate=2026-11-26"),
      await amounts("startDate=2026-11-27"),
      await amounts("startDate=2026-11-26&endDate=2026-11-27"),
    ]).toEqual([
      ["endDate=2026-11-26", 200, [1]],
      ["startDate=2026-11-27", 200, [2]],
      ["startDate=2026-11-26&endDate=2026-11-27", 200, [2, 1]],
    ]);
  });

  it("refuse a date of the ISO form that names no moment, as startDate or endDate", async () => {
    const sandbox = newSandbox();
    const rows = [];
    for (const path of [
      "/transactions/deposits/me?startDate=2026-13-01",
      "/transactions/deposits/me?startDate=2026-11-26&endDate=2026-13-01",
      "/transactions/deposits/me?endDate=2026-11-26T25:00Z",
      "/transactions/withdrawals/me?endDate=2026-13-01",
      "/transactions/deposits/me?startDate=2026-11-31",
      "/transactions/withdrawals/me?endDate=2026-02-30",
      "/transactions/deposits/me?startDate=2026-11-26T24:00Z",
    ]) {
      const answer = await api(sandbox, "GET", path);
      rows.push([path, answer.status, answer.body.message]);
    }
    expect(rows).toEqual([
      ["/transactions/deposits/me?startDate=2026-13-01", 422, REFUSED],
      ["/transactions/deposits/me?startDate=2026-11-26&endDate=2026-13-01", 422, REFUSED],
      ["/transactions/deposits/me?endDate=2026-11-26T25:00Z", 422, REFUSED],
      ["/transactions/withdrawals/me?endDate=2026-13-01", 422, REFUSED],
      ["/transactions/deposits/me?startDate=2026-11-31", 422, REFUSED],
      ["/transactions/withdrawals/me?endDate=2026-02-30", 422, REFUSED],
      ["/transactions/deposits/me?startDate=2026-11-26T24:00Z", 422, REFUSED],
    ]);
  });
});
