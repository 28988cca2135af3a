// The mock's quotes are valid when they are answered: Create Quote answers its documented example with an
// expiryDate MOCK_QUOTE_VALIDITY_MS after the answer (the documented one is in the past), so the README's
// first example (create a quote, accept it unless expired) accepts against the mock. On a real socket.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MOCK_QUOTE_VALIDITY_MS, type StartedMock, startMock } from "../../src/mock/index.js";
import { quoteExpiry } from "../../src/mock/quote-expiry.js";
import { listOperations, type OpenApiDocument } from "../../src/openapi/index.js";
import { createQuote, freshQuoteTests, quoteProperty } from "../support/quote.js";
import type { JsonObject } from "../support/spec.js";

describe("the mock's Create Quote answer", () => {
  let mock: StartedMock;

  beforeAll(async () => {
    mock = await startMock();
  });

  afterAll(async () => {
    await mock?.stop();
  });

  it("keeps MOCK_QUOTE_VALIDITY_MS a time-limited window: a minute", () => {
    expect(MOCK_QUOTE_VALIDITY_MS).toBe(60_000);
    expect(mock.fixes.some((fix) => fix.includes("expiryDate") && fix.includes(`${MOCK_QUOTE_VALIDITY_MS / 1000} s`))).toBe(true);
  });

  freshQuoteTests(() => mock.baseUrl);

  it("computes the expiry at each answer, not once", async () => {
    const first = await createQuote(mock.baseUrl);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await createQuote(mock.baseUrl);
    const expiryOf = (body: JsonObject) => Date.parse((body[quoteProperty] as JsonObject).expiryDate as string);
    expect(expiryOf(second.body)).toBeGreaterThan(expiryOf(first.body));
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
