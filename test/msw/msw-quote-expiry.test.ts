// The ./msw handlers share the mock's answers, quotes included: Create Quote answers its documented
// example with an expiryDate MOCK_QUOTE_VALIDITY_MS after the answer, so the README's first example
// accepts against the handlers as against the mock (msw/node intercepting this package's own client).
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { contractMiddleware, openApiDocument } from "../../src/contract/index.js";
import { createClient, isQuoteExpired, MOCK_BASE_URL, unwrap } from "../../src/index.js";
import { createHandlers } from "../../src/msw/index.js";
import { type JsonObject, jsonMedia, listSpecOperations, loadSpec, mediaExamples, sharedValidator, successKey } from "../support/spec.js";
import { createQuote as createQuoteAt, expectFreshQuote, quoteExamples, quoteOp, quoteProperty } from "../support/quote.js";

const _spec = loadSpec();
const validator = sharedValidator();
const server = setupServer(...createHandlers());

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const op = quoteOp;
const _property = quoteProperty;
const examples = quoteExamples;

/** The examples of the operation in the bundled contract the handlers answer from (not a copy). */
function bundledExamples() {
  const bundled = listSpecOperations(openApiDocument).find((o) => o.key === op.key)!;
  return mediaExamples(openApiDocument, jsonMedia(bundled.responses[successKey(bundled)]));
}

const createQuote = (prefer?: string) => createQuoteAt(MOCK_BASE_URL, prefer);

describe("the msw handlers' Create Quote answer", () => {
  it("carries an expiryDate in the future, within the window, the rest being the documented example, meeting the contract", async () => {
    const { response, body, result, before, after } = await createQuote();
    expect(response.status).toBe(Number(successKey(op)));
    expectFreshQuote(body, examples[0]!.value as JsonObject, before, after);
    expect(result.violations).toEqual([]);
  });

  it("does so for every named example asked with Prefer: example=<name>, leaving the bundled contract's example unchanged", async () => {
    const documented = structuredClone(bundledExamples());
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      const { response, body, result, before, after } = await createQuote(`example=${example.name}`);
      expect(response.status, example.name).toBe(Number(successKey(op)));
      expectFreshQuote(body, example.value as JsonObject, before, after);
      expect(result.violations, example.name).toEqual([]);
    }
    // the handlers answer from the bundled contract's objects: a fresh expiry must not be written into them
    expect(bundledExamples()).toEqual(documented);
    expect(documented).toEqual(examples);
  });

  it("lets the README's first example accept the quote end to end", async () => {
    const api = createClient({ baseUrl: MOCK_BASE_URL, apiKey: "any-value", retry: false });
    api.use(contractMiddleware(validator));
    const rates = await unwrap(api.GET("/currencies/fiat-rates"));
    expect(Array.isArray(rates.data)).toBe(true);
    const quote = await unwrap(api.POST("/trades/quote", { body: { sourceId: "USDT", targetId: "NGNX", amount: 100, side: "SELL" } }));
    expect(isQuoteExpired(quote.data)).toBe(false);
    const trade = await unwrap(api.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: quote.data.id } }, body: {} }));
    expect(typeof trade.data.reference).toBe("string");
    expect(api.rateLimit?.remaining).toEqual(expect.any(Number));
  });
});
