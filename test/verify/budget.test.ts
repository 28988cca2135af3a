// What verify announces it will spend on a deployment before its first request (src/verify/budget.ts): the requests
// of the cases that run and of the flows that run there, Create Quote calls, trades and deposit addresses at most,
// and the contract's limits they are held against; more with side effects allowed, fewer with the cases only.
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../src/contract/bundled.js";
import { deploymentBudget } from "../../src/verify/budget.js";

describe("verify's budget on a deployment", () => {
  it("without side effects: the safe cases, the five reading flows (57 + 3 + 6 + 29 + 9), one Create Quote", () => {
    expect(deploymentBudget(openApiDocument, {})).toEqual({
      requests: 150,
      cases: 46,
      // Pagination: 5 lists × (1 page of all + at most 10 pages of 2) + 2; rate limits: 3; keyless reads: 6;
      // list filters: 29; the history by category: 9. 57 + 3 + 6 + 29 + 9 = 104.
      flowRequests: 104,
      flows: 5,
      createQuotes: 1,
      trades: 0,
      addresses: 0,
      allRequests: { requests: 200, seconds: 60 },
      quotes: { requests: 100, seconds: 3600 },
    });
  });

  it("with side effects: every case, and eight more flows that trade, quote or make addresses", () => {
    expect(deploymentBudget(openApiDocument, { allowSideEffects: true })).toMatchObject({
      requests: 273,
      cases: 108,
      // The 104 of the reading flows; swap 8, expiry 4, balance 6, addresses 5; quote refusals 12, sides 11,
      // address values 10, address refusals 5: 104 + 23 + 38 = 165.
      flowRequests: 165,
      flows: 13,
      // The Create Quote cases (one valid, eight invalid bodies), one quote each for swap, expiry and balance,
      // the 8 refused ones of the refusals flow and the sides flow's 3: 9 + 3 + 8 + 3 = 23.
      createQuotes: 23,
      // Accept Quote's case, the swap's trade, the expiry and balance flows' should the target not refuse them,
      // and the sides flow's SELL and BUY.
      trades: 6,
      // Create Deposit Address's case, the address flow's two, the address values flow's 4 (one per receivable
      // network, at most 4) and the refusals flow's 2 should the target not refuse them.
      addresses: 9,
    });
  });

  it("with rules asked for: only the flows that check them (pagination: 5 × 11 + 2 = 57 requests)", () => {
    expect(deploymentBudget(openApiDocument, { rules: ["lists.pagination"] })).toMatchObject({
      requests: 103,
      flowRequests: 57,
      flows: 1,
    });
  });

  it("with answers.checked asked for: every flow, for every call of a flow checks it (the 5 reading ones)", () => {
    expect(deploymentBudget(openApiDocument, { rules: ["answers.checked"] })).toMatchObject({
      flowRequests: 104,
      flows: 5,
    });
  });

  it("with side effects, a second key and a webhook secret: the isolation and webhook flows too", () => {
    const options = { allowSideEffects: true, secondApiKey: "other", webhookSecret: "whsec" };
    // 165 + 6 for isolation (the pair, their quote, its accept, their list, a read) + 6 for the webhooks.
    expect(deploymentBudget(openApiDocument, options)).toMatchObject({
      flowRequests: 177,
      flows: 15,
      // Isolation's quote, and its accept should the target not refuse it; the webhook flow's deposit address.
      createQuotes: 24,
      trades: 7,
      addresses: 10,
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
