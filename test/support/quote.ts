// Shared by the mock's and the ./msw handlers' quote-expiry tests: the operation that answers a Quote (found
// through the spec), a Create Quote call, the check of a fresh quote, and the tests both answerers must pass.
import { expect, it } from "vitest";
import { contractMiddleware } from "../../src/contract/index.js";
import { createClient, isQuoteExpired, unwrap } from "../../src/index.js";
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
} from "./spec.js";

const spec = loadSpec();
const validator = sharedValidator();

/** The operation whose success response carries a Quote, and the envelope property it sits in. */
function quoteOperation(): { op: SpecOperation; property: string } {
  const quote = deref(spec, spec.components?.schemas?.Quote);
  const found = listSpecOperations(spec).flatMap((op) => {
    const view = schemaView(spec, jsonMedia(op.responses[successKey(op)])?.schema);
    return [...view.properties]
      .filter(([, schemas]) => schemas.some((s) => deref(spec, s) === quote))
      .map(([property]) => ({ op, property }));
  });
  expect(found, "exactly one operation answers a Quote").toHaveLength(1);
  return found[0]!;
}

export const { op: quoteOp, property: quoteProperty } = quoteOperation();
export const quoteExamples = mediaExamples(spec, jsonMedia(quoteOp.responses[successKey(quoteOp)]));

/** Create Quote's sample request to `baseUrl` (a key, and `prefer` if given), its answer checked by the contract. */
export async function createQuote(baseUrl: string, prefer?: string) {
  const sample = buildSampleRequest(spec, quoteOp);
  const before = Date.now();
  const response = await fetch(`${baseUrl}${sample.path}`, {
    method: quoteOp.method,
    headers: { ...sample.headers, [API_KEY_HEADER]: "any-value", ...(prefer ? { prefer } : {}) },
    body: sample.body,
  });
  const bodyText = await response.text();
  const after = Date.now();
  const result = validator.validateResponse({
    method: quoteOp.method,
    path: quoteOp.path,
    status: response.status,
    headers: response.headers,
    bodyText,
  });
  return { response, body: JSON.parse(bodyText) as JsonObject, result, before, after };
}

/** A quote's validity in ms: its own `expiresIn` seconds (published: seconds). */
export const validityMsOf = (quote: JsonObject): number => (quote.expiresIn as number) * 1000;

/**
 * Checks one answer: expiryDate in [before, after] + the quote's own expiresIn seconds, in the Timestamp
 * convention; the rest `example` (expiresIn included).
 */
function expectFreshQuote(body: JsonObject, example: JsonObject, before: number, after: number): void {
  const quote = body[quoteProperty] as JsonObject;
  const expiryDate = quote.expiryDate as string;
  expect(typeof expiryDate).toBe("string");
  expect(new Date(Date.parse(expiryDate)).toISOString(), "ISO 8601 UTC with milliseconds").toBe(expiryDate);
  const expiry = Date.parse(expiryDate);
  expect(validityMsOf(quote), "a positive validity").toBeGreaterThan(0);
  expect(expiry, "in the future of the request").toBeGreaterThan(after);
  expect(expiry).toBeGreaterThanOrEqual(before + validityMsOf(quote));
  expect(expiry).toBeLessThanOrEqual(after + validityMsOf(quote));
  expect(body, "every other field is the documented example").toEqual({
    ...example,
    [quoteProperty]: { ...(example[quoteProperty] as JsonObject), expiryDate },
  });
}

/**
 * The tests every answerer of Create Quote passes (the mock on a socket, the ./msw handlers in process):
 * fresh expiry for the default and every named example, the rest documented, and the README's first example
 * end to end. `baseUrl()` is read when each test runs (after the answerer started).
 */
export function freshQuoteTests(baseUrl: () => string): void {
  it("carries an expiryDate expiresIn seconds after the answer, the rest as documented, and conforms", async () => {
    const { response, body, result, before, after } = await createQuote(baseUrl());
    expect(response.status).toBe(Number(successKey(quoteOp)));
    expectFreshQuote(body, quoteExamples[0]!.value as JsonObject, before, after);
    expect(result.violations).toEqual([]);
  });

  it("does so for every named example asked with Prefer: example=<name>", async () => {
    expect(quoteExamples.length).toBeGreaterThan(0);
    for (const example of quoteExamples) {
      const { response, body, result, before, after } = await createQuote(baseUrl(), `example=${example.name}`);
      expect(response.status, example.name).toBe(Number(successKey(quoteOp)));
      expectFreshQuote(body, example.value as JsonObject, before, after);
      expect(result.violations, example.name).toEqual([]);
    }
  });

  it("lets the README's first example accept the quote end to end", async () => {
    const api = createClient({ baseUrl: baseUrl(), apiKey: "any-value", retry: false });
    api.use(contractMiddleware(validator));
    const rates = await unwrap(api.GET("/currencies/fiat-rates"));
    expect(Array.isArray(rates.data)).toBe(true);
    const quote = await unwrap(
      api.POST("/trades/quote", { body: { sourceId: "USDT", targetId: "NGNX", amount: 100, side: "SELL" } }),
    );
    expect(isQuoteExpired(quote.data)).toBe(false);
    const trade = await unwrap(
      api.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: quote.data.id } }, body: {} }),
    );
    expect(typeof trade.data.reference).toBe("string");
    expect(api.rateLimit?.remaining).toEqual(expect.any(Number));
  });
}
