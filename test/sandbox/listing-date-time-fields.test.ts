// pins: lists.filters
// The date filters of the deposits and payouts listings take a date-time only when its minutes, seconds and offset
// name a moment: minute 60, second 60 and an offset of +24:00 or -23:60 have the ISO form the filter checks first,
// yet name no time, so they are refused like any other bad date (not read as no moment, which would list nothing).
import { describe, expect, it } from "vitest";
import { api, newSandbox } from "./support/sandbox.js";

const REFUSED = "startDate and endDate must be ISO 8601 dates, or date-times with their offset";

describe("deposit and payout listings' date-time filters", () => {
  it("refuse minute 60, second 60 and an offset past 23:59, as startDate or endDate", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": {} } }); // its clock: 2026-11-26T10:00:00.000Z
    sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 1 });
    const rows = [];
    for (const path of [
      "/transactions/deposits/me?startDate=2026-11-26T09:60Z",
      "/transactions/deposits/me?endDate=2026-11-26T23:59:60Z",
      "/transactions/withdrawals/me?startDate=2026-11-26T09:00%2B24:00",
      "/transactions/withdrawals/me?endDate=2026-11-26T23:00-23:60",
      // The same fields in range: the deposit of 10:00 is listed.
      "/transactions/deposits/me?startDate=2026-11-26T09:59:59.999Z&endDate=2026-11-26T10:00%2B00:00",
    ]) {
      const answer = await api(sandbox, "GET", path);
      rows.push([path, answer.status, answer.status === 200 ? answer.body.data.length : answer.body.message]);
    }
    expect(rows).toEqual([
      ["/transactions/deposits/me?startDate=2026-11-26T09:60Z", 422, REFUSED],
      ["/transactions/deposits/me?endDate=2026-11-26T23:59:60Z", 422, REFUSED],
      ["/transactions/withdrawals/me?startDate=2026-11-26T09:00%2B24:00", 422, REFUSED],
      ["/transactions/withdrawals/me?endDate=2026-11-26T23:00-23:60", 422, REFUSED],
      ["/transactions/deposits/me?startDate=2026-11-26T09:59:59.999Z&endDate=2026-11-26T10:00%2B00:00", 200, 1],
    ]);
  });
});
