// The mock's quotes are valid when they are answered: Create Quote answers its documented example with an
// expiryDate MOCK_QUOTE_VALIDITY_MS after the answer (the documented one is in the past), so the README's
// first example (create a quote, accept it unless expired) accepts against the mock. On a real socket.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractMiddleware } from "../../src/contract/index.js";
import { createClient, isQuoteExpired, unwrap } from "../../src/index.js";
import { MOCK_QUOTE_VALIDITY_MS, type StartedMock, startMock } from "../../src/mock/index.js";
import { quoteExpiry } from "../../src/mock/quote-expiry.js";
import { listOperations, type OpenApiDocument } from "../../src/openapi/index.js";
import { type JsonObject, loadSpec, sharedValidator, successKey } from "../support/spec.js";
import { createQuote as createQuoteAt, expectFreshQuote, quoteExamples, quoteOp, quoteProperty } from "../support/quote.js";

const _spec = loadSpec();
const validator = sharedValidator();

const op = quoteOp;
const property = quoteProperty;
const examples = quoteExamples;

describe("the mock's Create Quote answer", () => {
  let mock: StartedMock;

  beforeAll(async () => {
    mock = await startMock();
  });

  afterAll(async () => {
    await mock?.stop();
  });

  const createQuote = (prefer?: string) => createQuoteAt(mock.baseUrl, prefer);

  it("keeps MOCK_QUOTE_VALIDITY_MS a time-limited window: a minute", () => {
    expect(MOCK_QUOTE_VALIDITY_MS).toBe(60_000);
    expect(mock.fixes.some((fix) => fix.includes("expiryDate") && fix.includes(`${MOCK_QUOTE_VALIDITY_MS / 1000} s`))).toBe(true);
  });

  it("carries an expiryDate in the future, within the window, the rest being the documented example, meeting the contract", async () => {
    const { response, body, result, before, after } = await createQuote();
    expect(response.status).toBe(Number(successKey(op)));
    expectFreshQuote(body, examples[0]!.value as JsonObject, before, after);
    expect(result.violations).toEqual([]);
  });

  it("does so for every named example asked with Prefer: example=<name>", async () => {
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      const { response, body, result, before, after } = await createQuote(`example=${example.name}`);
      expect(response.status, example.name).toBe(Number(successKey(op)));
      expectFreshQuote(body, example.value as JsonObject, before, after);
      expect(result.violations, example.name).toEqual([]);
    }
  });

  it("computes the expiry at each answer, not once", async () => {
    const first = await createQuote();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await createQuote();
    const expiryOf = (body: JsonObject) => Date.parse((body[property] as JsonObject).expiryDate as string);
    expect(expiryOf(second.body)).toBeGreaterThan(expiryOf(first.body));
  });

  it("lets the README's first example accept the quote end to end", async () => {
    const api = createClient({ baseUrl: mock.baseUrl, apiKey: "any-value", retry: false });
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

describe("where quotes are found (quoteExpiry on fixtures)", () => {
  const timestamp = { type: "string", format: "date-time" };
  const quoteSchema = { type: "object", properties: { id: { type: "string" }, expiryDate: { $ref: "#/components/schemas/Timestamp" } } };
  const fixture = (responseSchema: unknown, schemas: Record<string, unknown> = {}): OpenApiDocument => ({
    openapi: "3.1.0",
    paths: {
      "/things": {
        get: {
          responses: {
            "200": { description: "ok", content: { "application/json": { schema: responseSchema } } },
            "4XX": { description: "no", content: { "application/json": { schema: { $ref: "#/components/schemas/Quote" } } } },
          },
        },
      },
    },
    components: { schemas: { Timestamp: timestamp, Quote: quoteSchema, ...schemas } },
  });
  const now = Date.parse("2030-01-01T00:00:00.000Z");
  const fresh = new Date(now + MOCK_QUOTE_VALIDITY_MS).toISOString();
  const old = "2020-01-01T00:00:00.000Z";
  const refresh = (document: OpenApiDocument, body: unknown, status = 200) => {
    const [operation] = listOperations(document);
    return quoteExpiry(document).refresh(operation!, status, body, now);
  };

  it("in arrays, maps, unions and recursive schemas, leaving the input unchanged", () => {
    const document = fixture(
      {
        type: "object",
        properties: {
          list: { type: "array", items: { $ref: "#/components/schemas/Quote" } },
          byId: { type: "object", additionalProperties: { $ref: "#/components/schemas/Quote" } },
          either: { oneOf: [{ type: "string" }, { $ref: "#/components/schemas/Quote" }] },
          tree: { $ref: "#/components/schemas/Node" },
        },
      },
      { Node: { type: "object", properties: { quote: { $ref: "#/components/schemas/Quote" }, next: { $ref: "#/components/schemas/Node" } } } },
    );
    const body = {
      list: [{ id: "a", expiryDate: old }],
      byId: { b: { id: "b", expiryDate: old } },
      either: { id: "c", expiryDate: old },
      tree: { quote: { id: "d", expiryDate: old }, next: { quote: { id: "e", expiryDate: old } } },
    };
    const copy = structuredClone(body);
    expect(refresh(document, body)).toEqual({
      list: [{ id: "a", expiryDate: fresh }],
      byId: { b: { id: "b", expiryDate: fresh } },
      either: { id: "c", expiryDate: fresh },
      tree: { quote: { id: "d", expiryDate: fresh }, next: { quote: { id: "e", expiryDate: fresh } } },
    });
    expect(body).toEqual(copy);
  });

  it("per response: the documented status's schema decides", () => {
    const document = fixture({ type: "object", properties: { id: { type: "string" } } });
    expect(refresh(document, { id: "x", expiryDate: old })).toEqual({ id: "x", expiryDate: old });
    expect(refresh(document, { id: "x", expiryDate: old }, 404)).toEqual({ id: "x", expiryDate: fresh });
  });

  it("nowhere when the spec has no Quote schema, or its expiryDate is not a date-time", () => {
    const body = { id: "x", expiryDate: old };
    const noQuote: OpenApiDocument = {
      openapi: "3.1.0",
      paths: { "/things": { get: { responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } } } } },
    };
    expect(refresh(noQuote, body)).toBe(body);
    const notTimestamp = fixture({ $ref: "#/components/schemas/Quote" }, { Timestamp: { type: "string" } });
    expect(refresh(notTimestamp, body)).toBe(body);
    expect(refresh(fixture({ $ref: "#/components/schemas/Quote" }), body)).toEqual({ id: "x", expiryDate: fresh });
  });
});
