// The ./msw handlers share the mock's answers, quotes included: Create Quote answers its documented
// example with an expiryDate MOCK_QUOTE_VALIDITY_MS after the answer, so the README's first example
// accepts against the handlers as against the mock (msw/node intercepting this package's own client).
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { contractMiddleware, openApiDocument } from "../../src/contract/index.js";
import { createClient, isQuoteExpired, MOCK_BASE_URL, unwrap } from "../../src/index.js";
import { createHandlers, MOCK_QUOTE_VALIDITY_MS } from "../../src/msw/index.js";
import { schemaView } from "../../src/openapi/index.js";
import {
  API_KEY_HEADER,
  buildSampleRequest,
  deref,
  type JsonObject,
  jsonMedia,
  listSpecOperations,
  loadSpec,
  mediaExamples,
  type SpecOperation,
  sharedValidator,
  successKey,
} from "../support/spec.js";

const spec = loadSpec();
const validator = sharedValidator();
const server = setupServer(...createHandlers());

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The operation whose success response carries a Quote, and the envelope property it sits in (found through the spec). */
function quoteOperation(): { op: SpecOperation; property: string } {
  const quote = deref(spec, spec.components?.schemas?.Quote);
  const found = listSpecOperations(spec).flatMap((op) => {
    const view = schemaView(spec, jsonMedia(op.responses[successKey(op)])?.schema);
    return [...view.properties].filter(([, schemas]) => schemas.some((s) => deref(spec, s) === quote)).map(([property]) => ({ op, property }));
  });
  expect(found, "exactly one operation answers a Quote").toHaveLength(1);
  return found[0]!;
}

const { op, property } = quoteOperation();
const examples = mediaExamples(spec, jsonMedia(op.responses[successKey(op)]));

/** The examples of the operation in the bundled contract the handlers answer from (not a copy). */
function bundledExamples() {
  const bundled = listSpecOperations(openApiDocument).find((o) => o.key === op.key)!;
  return mediaExamples(openApiDocument, jsonMedia(bundled.responses[successKey(bundled)]));
}

async function createQuote(prefer?: string) {
  const sample = buildSampleRequest(spec, op);
  const before = Date.now();
  const response = await fetch(`${MOCK_BASE_URL}${sample.path}`, {
    method: op.method,
    headers: { ...sample.headers, [API_KEY_HEADER]: "any-value", ...(prefer ? { prefer } : {}) },
    body: sample.body,
  });
  const bodyText = await response.text();
  const after = Date.now();
  const result = validator.validateResponse({ method: op.method, path: op.path, status: response.status, headers: response.headers, bodyText });
  return { response, body: JSON.parse(bodyText) as JsonObject, result, before, after };
}

/** Checks one answer: expiryDate in [before, after] + the window, in the Timestamp convention; the rest is `example`. */
function expectFreshQuote(body: JsonObject, example: JsonObject, before: number, after: number): void {
  const expiryDate = (body[property] as JsonObject).expiryDate as string;
  expect(typeof expiryDate).toBe("string");
  expect(new Date(Date.parse(expiryDate)).toISOString(), "ISO 8601 UTC with milliseconds").toBe(expiryDate);
  const expiry = Date.parse(expiryDate);
  expect(expiry, "in the future of the request").toBeGreaterThan(after);
  expect(expiry).toBeGreaterThanOrEqual(before + MOCK_QUOTE_VALIDITY_MS);
  expect(expiry).toBeLessThanOrEqual(after + MOCK_QUOTE_VALIDITY_MS);
  expect(body, "every other field is the documented example").toEqual({
    ...example,
    [property]: { ...(example[property] as JsonObject), expiryDate },
  });
}

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
