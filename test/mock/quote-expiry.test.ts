// The mock's quotes are valid when they are answered, for as long as they say: Create Quote answers its
// documented example with an expiryDate its own expiresIn seconds after the answer (published: seconds; the
// documented expiryDate is in the past), so the README's first example (create a quote, accept it unless
// expired) accepts against the mock. On a real socket. And the quote refresh itself (src/pipeline/quote-expiry.ts)
// on fixture contracts: any expiresIn (a property), one that is no number or puts the expiry out of the
// Timestamp's years, expiry schemas split over allOf, components without schemas, recursive schemas that never
// reach a quote, undocumented statuses and responses without content, the depth bound, quotes without an
// expiryDate.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MOCK_QUOTE_VALIDITY_MS, type StartedMock, startMock } from "../../src/mock/index.js";
import { quoteExpiry } from "../../src/pipeline/quote-expiry.js";
import { listOperations, type OpenApiDocument } from "../../src/openapi/index.js";
import { createQuote, freshQuoteTests, quoteExamples, quoteProperty, validityMsOf } from "../support/quote.js";
import type { JsonObject } from "../support/spec.js";

describe("the mock's Create Quote answer", () => {
  let mock: StartedMock;

  beforeAll(async () => {
    mock = await startMock();
  });

  afterAll(async () => {
    await mock?.stop();
  });

  it("says so in its fixes; the deprecated MOCK_QUOTE_VALIDITY_MS is the documented example's expiresIn", () => {
    expect(mock.fixes.some((fix) => fix.includes("expiryDate") && fix.includes("expiresIn seconds"))).toBe(true);
    const [documented] = quoteExamples;
    expect(MOCK_QUOTE_VALIDITY_MS).toBe(validityMsOf((documented!.value as JsonObject)[quoteProperty] as JsonObject));
  });

  freshQuoteTests(() => mock.baseUrl);

  it("computes the expiry at each answer, not once", async () => {
    // Only Date is faked (the mock runs in this process): timers and sockets stay real.
    const at = Date.parse("2026-11-24T10:00:00.000Z");
    const quoteOf = (body: JsonObject) => body[quoteProperty] as JsonObject;
    const expiryOf = (body: JsonObject) => Date.parse(quoteOf(body).expiryDate as string);
    try {
      vi.useFakeTimers({ toFake: ["Date"], now: at });
      const first = await createQuote(mock.baseUrl);
      vi.setSystemTime(at + 1234);
      const second = await createQuote(mock.baseUrl);
      const expected = [at + validityMsOf(quoteOf(first.body)), at + 1234 + validityMsOf(quoteOf(second.body))];
      expect([expiryOf(first.body), expiryOf(second.body)]).toEqual(expected);
    } finally {
      vi.useRealTimers();
    }
  });
});

const now = Date.parse("2030-01-01T00:00:00.000Z");
/** The quotes' own validity in the fixtures, in seconds. */
const expiresIn = 45;
const fresh = new Date(now + expiresIn * 1000).toISOString();
const old = "2020-01-01T00:00:00.000Z";
const quoteRef = { $ref: "#/components/schemas/Quote" };

const timestamp = { type: "string", format: "date-time" };
const quoteSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    expiryDate: { $ref: "#/components/schemas/Timestamp" },
    expiresIn: { type: "number" },
  },
};

/** A contract whose one operation answers `responseSchema` (200), nothing (204) and a Quote (4XX). */
function fixture(responseSchema: unknown, schemas: Record<string, unknown> = {}): OpenApiDocument {
  return {
    openapi: "3.1.0",
    paths: {
      "/things": {
        get: {
          responses: {
            "200": { description: "ok", content: { "application/json": { schema: responseSchema } } },
            "204": { description: "nothing" },
            "4XX": { description: "no", content: { "application/json": { schema: quoteRef } } },
          },
        },
      },
    },
    components: { schemas: { Timestamp: timestamp, Quote: quoteSchema, ...schemas } },
  };
}
const refresh = (document: OpenApiDocument, body: unknown, status = 200) =>
  quoteExpiry(document).refresh(listOperations(document)[0]!, status, body, now);

describe("quoteExpiry", () => {
  const quoteOnly = () => fixture(quoteRef);

  it("expires each quote its own expiresIn seconds after now, to the millisecond, whatever the number", () => {
    const expiry = (seconds: number) =>
      (refresh(quoteOnly(), { id: "q", expiryDate: old, expiresIn: seconds }) as JsonObject).expiryDate;
    expect(expiry(30)).toBe("2030-01-01T00:00:30.000Z");
    expect(expiry(0)).toBe("2030-01-01T00:00:00.000Z");
    expect(expiry(1.5)).toBe("2030-01-01T00:00:01.500Z");
    expect(expiry(-60)).toBe("2029-12-31T23:59:00.000Z");
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (seconds) => {
        const written = expiry(seconds) as string;
        expect(new Date(Date.parse(written)).toISOString()).toBe(written);
        expect(Date.parse(written)).toBe(Math.round(now + seconds * 1000));
      }),
    );
  });

  it("keeps the expiryDate of a quote whose expiresIn is no number, or out of the Timestamp's years", () => {
    for (const expiresIn of [undefined, "30", null, true, 1e12, -1e12]) {
      const body = { id: "q", expiryDate: old, ...(expiresIn === undefined ? {} : { expiresIn }) };
      expect(refresh(quoteOnly(), body), String(expiresIn)).toEqual(body);
    }
    // The last and first moments a four-digit year can write.
    const edge = (seconds: number) =>
      (refresh(quoteOnly(), { expiryDate: old, expiresIn: seconds }) as JsonObject).expiryDate;
    expect(edge((Date.parse("9999-12-31T23:59:59.999Z") - now) / 1000)).toBe("9999-12-31T23:59:59.999Z");
    expect(edge((Date.parse("9999-12-31T23:59:59.999Z") - now) / 1000 + 0.001)).toBe(old);
    expect(edge((Date.parse("0000-01-01T00:00:00.000Z") - now) / 1000)).toBe("0000-01-01T00:00:00.000Z");
    expect(edge((Date.parse("0000-01-01T00:00:00.000Z") - now) / 1000 - 0.001)).toBe(old);
  });

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
      {
        Node: {
          type: "object",
          properties: { quote: { $ref: "#/components/schemas/Quote" }, next: { $ref: "#/components/schemas/Node" } },
        },
      },
    );
    const body = {
      list: [{ id: "a", expiryDate: old, expiresIn }],
      byId: { b: { id: "b", expiryDate: old, expiresIn } },
      either: { id: "c", expiryDate: old, expiresIn },
      tree: {
        quote: { id: "d", expiryDate: old, expiresIn },
        next: { quote: { id: "e", expiryDate: old, expiresIn } },
      },
    };
    const copy = structuredClone(body);
    expect(refresh(document, body)).toEqual({
      list: [{ id: "a", expiryDate: fresh, expiresIn }],
      byId: { b: { id: "b", expiryDate: fresh, expiresIn } },
      either: { id: "c", expiryDate: fresh, expiresIn },
      tree: {
        quote: { id: "d", expiryDate: fresh, expiresIn },
        next: { quote: { id: "e", expiryDate: fresh, expiresIn } },
      },
    });
    expect(body).toEqual(copy);
  });

  it("per response: the documented status's schema decides", () => {
    const document = fixture({ type: "object", properties: { id: { type: "string" } } });
    expect(refresh(document, { id: "x", expiryDate: old, expiresIn })).toEqual({ id: "x", expiryDate: old, expiresIn });
    expect(refresh(document, { id: "x", expiryDate: old, expiresIn }, 404)).toEqual({
      id: "x",
      expiryDate: fresh,
      expiresIn,
    });
  });

  it("nowhere when the spec has no Quote schema, or its expiryDate is not a date-time", () => {
    const body = { id: "x", expiryDate: old, expiresIn };
    const noQuote: OpenApiDocument = {
      openapi: "3.1.0",
      paths: {
        "/things": {
          get: {
            responses: {
              "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } },
            },
          },
        },
      },
    };
    expect(refresh(noQuote, body)).toBe(body);
    const notTimestamp = fixture({ $ref: "#/components/schemas/Quote" }, { Timestamp: { type: "string" } });
    expect(refresh(notTimestamp, body)).toBe(body);
    expect(refresh(fixture({ $ref: "#/components/schemas/Quote" }), body)).toEqual({
      id: "x",
      expiryDate: fresh,
      expiresIn,
    });
  });
  it("finds a date-time expiryDate however allOf splits it, in the property's schemas or in their parts", () => {
    const splitProperty = {
      Quote: {
        allOf: [
          { type: "object", properties: { expiryDate: { type: "string", format: "date-time" } } },
          { properties: { expiryDate: { description: "when it expires" } } },
        ],
      },
    };
    expect(refresh(fixture(quoteRef, splitProperty), { expiryDate: old, expiresIn })).toEqual({
      expiryDate: fresh,
      expiresIn,
    });
    const splitParts = {
      Quote: {
        type: "object",
        properties: { expiryDate: { allOf: [{ type: "string", format: "date-time" }, { description: "x" }] } },
      },
    };
    expect(refresh(fixture(quoteRef, splitParts), { expiryDate: old, expiresIn })).toEqual({
      expiryDate: fresh,
      expiresIn,
    });
  });

  it("copes with components that have no schemas", () => {
    const document: OpenApiDocument = { ...fixture({ type: "object" }, {}), components: {} };
    expect(refresh(document, { expiryDate: old, expiresIn })).toEqual({ expiryDate: old, expiresIn });
  });

  it("leaves answers alone whose schema is recursive and never reaches a quote", () => {
    const schemas = {
      Quote: { type: "object", properties: { expiryDate: { type: "string", format: "date-time" } } },
      Tree: {
        type: "object",
        properties: {
          expiryDate: { type: "string" },
          children: { type: "array", items: { $ref: "#/components/schemas/Tree" } },
        },
      },
    };
    const body = { expiryDate: old, children: [{ expiryDate: old, children: [] }] };
    expect(refresh(fixture({ $ref: "#/components/schemas/Tree" }, schemas), body)).toBe(body);
  });

  it("passes over boolean schemas (true, false) beside and instead of a quote's", () => {
    const note = { noted: ["kept"] };
    const beside = fixture({
      type: "object",
      properties: { note: true, never: false, quote: quoteRef },
      additionalProperties: true,
    });
    expect(refresh(beside, { note, extra: note, quote: { id: "q", expiryDate: old, expiresIn } })).toEqual({
      note,
      extra: note,
      quote: { id: "q", expiryDate: fresh, expiresIn },
    });
    const without = fixture({ type: "object", properties: { note: true } });
    expect(refresh(without, { note, expiryDate: old, expiresIn })).toEqual({ note, expiryDate: old, expiresIn });
  });

  it("leaves an undocumented status, a response without content and an absent body alone", () => {
    const schemas = { Quote: { type: "object", properties: { expiryDate: { type: "string", format: "date-time" } } } };
    const document = fixture(quoteRef, schemas);
    const body = { expiryDate: old, expiresIn };
    expect(refresh(document, body, 599)).toBe(body);
    expect(refresh(document, body, 204)).toBe(body);
    expect(refresh(document, undefined)).toBeUndefined();
  });

  it("refreshes quotes down to 64 levels of nesting, not below", () => {
    const schemas = {
      Quote: { type: "object", properties: { expiryDate: { type: "string", format: "date-time" } } },
      Node: { type: "object", properties: { quote: quoteRef, next: { $ref: "#/components/schemas/Node" } } },
    };
    const document = fixture({ $ref: "#/components/schemas/Node" }, schemas);
    // A chain of nodes; the quote of node i sits at depth i + 1.
    const chain = (length: number): Record<string, unknown> => {
      const head: Record<string, unknown> = { quote: { expiryDate: old, expiresIn } };
      let node = head;
      for (let i = 1; i < length; i++) {
        const next = { quote: { expiryDate: old, expiresIn } };
        node.next = next;
        node = next;
      }
      return head;
    };
    const expiries = (value: Record<string, unknown>): string[] => {
      const found: string[] = [];
      for (
        let node: Record<string, unknown> | undefined = value;
        node;
        node = node.next as Record<string, unknown> | undefined
      )
        found.push((node.quote as { expiryDate: string }).expiryDate);
      return found;
    };
    const result = expiries(refresh(document, chain(70)) as Record<string, unknown>);
    expect(result.slice(0, 64)).toEqual(Array(64).fill(fresh)); // depths 1..64
    expect(result.slice(64)).toEqual(Array(6).fill(old));
  });

  it("gives a quote without an expiryDate none, and a non-quote with one keeps its own", () => {
    const schemas = {
      Quote: {
        type: "object",
        properties: { id: { type: "string" }, expiryDate: { type: "string", format: "date-time" } },
      },
      Other: { type: "object", properties: { expiryDate: { type: "string" } } },
    };
    const document = fixture(
      { type: "object", properties: { quote: quoteRef, other: { $ref: "#/components/schemas/Other" } } },
      schemas,
    );
    expect(refresh(document, { quote: { id: "q" }, other: { expiryDate: old, expiresIn } })).toEqual({
      quote: { id: "q" },
      other: { expiryDate: old, expiresIn },
    });
  });
});
