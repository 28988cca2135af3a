// pins: lists.pagination
// Pagination meta, shape B (List Deposits): count is the number of items on the page asked for, which on the last
// page of a list that does not fill it is fewer than perPage, and past the last page 0; total and totalPages
// count the whole list.
import { describe, expect, it } from "vitest";
import { api, newSandbox } from "./support/sandbox.js";

describe("pagination meta (shape B)", () => {
  it("5 deposits by 2: pages 1 and 2 count 2, page 3 counts 1, page 4 counts 0; total 5, totalPages 3", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 0 } } } });
    for (const amount of [1, 2, 3, 4, 5])
      sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount });
    const pages = [];
    for (const page of [1, 2, 3, 4]) {
      const answer = await api(sandbox, "GET", `/transactions/deposits/me?page=${page}&pageSize=2`);
      expect(answer.violations).toEqual([]);
      pages.push({ amounts: answer.body.data.map((t: any) => t.amount), meta: answer.body.meta });
    }
    // Newest first: 5 4 | 3 2 | 1 | (nothing). totalPages = 5 ÷ 2 rounded up = 3.
    expect(pages).toEqual([
      { amounts: [5, 4], meta: { perPage: 2, currentPage: 1, totalPages: 3, count: 2, total: 5 } },
      { amounts: [3, 2], meta: { perPage: 2, currentPage: 2, totalPages: 3, count: 2, total: 5 } },
      { amounts: [1], meta: { perPage: 2, currentPage: 3, totalPages: 3, count: 1, total: 5 } },
      { amounts: [], meta: { perPage: 2, currentPage: 4, totalPages: 3, count: 0, total: 5 } },
    ]);
  });
});
