// Edges of the mock's quote refresh (src/mock/quote-expiry.ts) and of the mock's contract (src/mock/spec.ts),
// on fixture contracts: expiry schemas split over allOf, components without schemas, recursive schemas that
// never reach a quote, undocumented statuses and responses without content, the depth bound, quotes without
// an expiryDate; and deriveMockSpec's base path, refs into paths inside arrays, and "$ref" keys that are data.
import { describe, expect, it } from "vitest";
import { MOCK_QUOTE_VALIDITY_MS } from "../../src/mock/index.js";
import { quoteExpiry } from "../../src/mock/quote-expiry.js";
import { deriveMockSpec } from "../../src/mock/spec.js";
import { listOperations, type OpenApiDocument } from "../../src/openapi/index.js";

const now = Date.parse("2030-01-01T00:00:00.000Z");
const fresh = new Date(now + MOCK_QUOTE_VALIDITY_MS).toISOString();
const old = "2020-01-01T00:00:00.000Z";
const quoteRef = { $ref: "#/components/schemas/Quote" };

const timestamp = { type: "string", format: "date-time" };
const quoteSchema = {
  type: "object",
  properties: { id: { type: "string" }, expiryDate: { $ref: "#/components/schemas/Timestamp" } },
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
    expect(refresh(fixture({ $ref: "#/components/schemas/Quote" }), body)).toEqual({ id: "x", expiryDate: fresh });
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
    expect(refresh(fixture(quoteRef, splitProperty), { expiryDate: old })).toEqual({ expiryDate: fresh });
    const splitParts = {
      Quote: {
        type: "object",
        properties: { expiryDate: { allOf: [{ type: "string", format: "date-time" }, { description: "x" }] } },
      },
    };
    expect(refresh(fixture(quoteRef, splitParts), { expiryDate: old })).toEqual({ expiryDate: fresh });
  });

  it("copes with components that have no schemas", () => {
    const document: OpenApiDocument = { ...fixture({ type: "object" }, {}), components: {} };
    expect(refresh(document, { expiryDate: old })).toEqual({ expiryDate: old });
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
    expect(refresh(beside, { note, extra: note, quote: { id: "q", expiryDate: old } })).toEqual({
      note,
      extra: note,
      quote: { id: "q", expiryDate: fresh },
    });
    const without = fixture({ type: "object", properties: { note: true } });
    expect(refresh(without, { note, expiryDate: old })).toEqual({ note, expiryDate: old });
  });

  it("leaves an undocumented status, a response without content and an absent body alone", () => {
    const schemas = { Quote: { type: "object", properties: { expiryDate: { type: "string", format: "date-time" } } } };
    const document = fixture(quoteRef, schemas);
    const body = { expiryDate: old };
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
      const head: Record<string, unknown> = { quote: { expiryDate: old } };
      let node = head;
      for (let i = 1; i < length; i++) {
        const next = { quote: { expiryDate: old } };
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
    expect(refresh(document, { quote: { id: "q" }, other: { expiryDate: old } })).toEqual({
      quote: { id: "q" },
      other: { expiryDate: old },
    });
  });
});

describe("deriveMockSpec", () => {
  const base: OpenApiDocument = {
    openapi: "3.1.0",
    servers: [{ url: "http://127.0.0.1:4010/v1" }],
    paths: { "/a": { get: { responses: { "200": { description: "ok" } } } } },
  };

  it("prefixes with the base path, says so, and reduces the servers to /", () => {
    const { spec, basePath, fixes } = deriveMockSpec(base);
    expect(basePath).toBe("/v1");
    expect(Object.keys(spec.paths ?? {})).toEqual(["/v1/a"]);
    expect(fixes).toEqual(["every path is prefixed with /v1 (Prism ignores the base path of servers)"]);
    expect(spec.servers).toEqual([{ url: "/" }]);
  });

  it("changes nothing but the servers when there is no base path", () => {
    const { spec, basePath, fixes } = deriveMockSpec({ ...base, servers: [{ url: "http://127.0.0.1:4010" }] });
    expect(basePath).toBe("");
    expect(Object.keys(spec.paths ?? {})).toEqual(["/a"]);
    expect(fixes).toEqual([]);
    expect(spec.servers).toEqual([{ url: "/" }]);
  });

  it("rewrites refs into paths inside arrays, and leaves data that only looks like a ref", () => {
    const input = {
      ...base,
      components: {
        schemas: { Either: { oneOf: [{ $ref: "#/paths/~1a/get/responses/200" }] } },
        examples: { Data: { value: { $ref: { nested: "#/paths/~1a" }, note: "#/paths/~1a" } } },
      },
    } as OpenApiDocument;
    const { spec } = deriveMockSpec(input);
    const components = spec.components as {
      schemas: { Either: { oneOf: Array<{ $ref: string }> } };
      examples: { Data: { value: unknown } };
    };
    expect(components.schemas.Either.oneOf[0]!.$ref).toBe("#/paths/~1v1~1a/get/responses/200");
    expect(components.examples.Data.value).toEqual({ $ref: { nested: "#/paths/~1a" }, note: "#/paths/~1a" });
  });
});
