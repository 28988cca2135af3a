// What verify announces it will spend on a deployment before its first request (src/verify/budget.ts): the requests
// of the cases that run and of the flows that run there, Create Quote calls, trades and deposit addresses at most,
// and the contract's limits they are held against; more with side effects allowed, fewer with the cases only.
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../src/contract/bundled.js";
import { deploymentBudget } from "../../src/verify/budget.js";

describe("verify's budget on a deployment", () => {
  it("without side effects: the safe cases, the two reading flows (57 + 3 requests), one Create Quote", () => {
    expect(deploymentBudget(openApiDocument, {})).toEqual({
      requests: 106,
      cases: 46,
      // Pagination: 5 lists × (1 page of all + at most 10 pages of 2) + 2; rate limits: 3.
      flowRequests: 60,
      flows: 2,
      createQuotes: 1,
      trades: 0,
      addresses: 0,
      allRequests: { requests: 200, seconds: 60 },
      quotes: { requests: 100, seconds: 3600 },
    });
  });

  it("with side effects: every case, and the swap, expiry, balance and address flows (8 + 4 + 6 + 5 requests)", () => {
    expect(deploymentBudget(openApiDocument, { allowSideEffects: true })).toMatchObject({
      requests: 191,
      cases: 108,
      flowRequests: 83,
      flows: 6,
      // The Create Quote cases (one valid, eight invalid bodies) and one quote each for swap, expiry and balance.
      createQuotes: 12,
      // Accept Quote's case, the swap's trade, and the expiry and balance flows' should the target not refuse them.
      trades: 4,
      // Create Deposit Address's case and the address flow's two.
      addresses: 3,
    });
  });

  it("the cases only: no flow spends anything", () => {
    expect(deploymentBudget(openApiDocument, { flows: false })).toMatchObject({
      requests: 46,
      flowRequests: 0,
      flows: 0,
    });
  });
});
