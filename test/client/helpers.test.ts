// Quote expiry, pagination meta and the generated enums, checked against values read from the spec.
import { describe, expect, it } from "vitest";
import * as api from "../../src/index.js";
import {
  hasMorePages,
  isQuoteExpired,
  quoteTimeLeftMs,
  type PageMetaA,
  type PageMetaB,
  type Quote,
} from "../../src/index.js";
import { loadSpec, successExample } from "../support/spec.js";

const spec = loadSpec();

const quote = successExample("createQuote").data as Quote;
const expiry = Date.parse(quote.expiryDate);

describe("quote expiry", () => {
  it("counts down to expiryDate and expires at it", () => {
    expect(quoteTimeLeftMs(quote, expiry - 1500)).toBe(1500);
    expect(isQuoteExpired(quote, expiry - 1)).toBe(false);
    expect(isQuoteExpired(quote, expiry)).toBe(true);
    expect(isQuoteExpired(quote, new Date(expiry + 1))).toBe(true);
    expect(quoteTimeLeftMs(quote, expiry + 60_000)).toBe(0);
  });

  it("uses the current time by default", () => {
    const future = { expiryDate: new Date(Date.now() + 60_000).toISOString() };
    expect(isQuoteExpired(future)).toBe(false);
    expect(quoteTimeLeftMs(future)).toBeGreaterThan(55_000);
    expect(isQuoteExpired({ expiryDate: new Date(Date.now() - 1).toISOString() })).toBe(true);
  });

  it("refuses an expiryDate that is not a timestamp", () => {
    expect(() => isQuoteExpired({ expiryDate: "tomorrow" })).toThrow(/not an ISO 8601 timestamp: "tomorrow"/);
    expect(() => quoteTimeLeftMs(quote, Number.NaN)).toThrow(/valid Date/);
  });
});

describe("hasMorePages", () => {
  const examples = spec.components?.examples as Record<string, { value: { meta?: PageMetaA | PageMetaB } }>;
  const metas = Object.values(examples).flatMap((e) => (e.value?.meta ? [e.value.meta] : []));

  it("is false for every single-page example of the spec (both shapes)", () => {
    expect(metas.some((m) => "currentPage" in m)).toBe(true);
    expect(metas.some((m) => "pageSize" in m)).toBe(true);
    for (const meta of metas) expect(hasMorePages(meta), JSON.stringify(meta)).toBe(false);
  });

  it("shape A: answers only where 0-based and 1-based page numbers agree", () => {
    expect(hasMorePages({ page: 1, pageSize: 20, total: 41 })).toBe(true); // a third page either way
    // 1-based: page 2 follows; 0-based: the last page
    expect(hasMorePages({ page: 1, pageSize: 20, total: 21 })).toBeUndefined();
    expect(hasMorePages({ page: 2, pageSize: 20, total: 40 })).toBe(false);
    expect(hasMorePages({ page: 0, pageSize: 20, total: 20 })).toBe(false); // everything fits on one page
    expect(hasMorePages({ page: 1, pageSize: 20, total: 0 })).toBe(false);
    expect(hasMorePages({ page: 1, pageSize: 0, total: 5 })).toBeUndefined();
  });

  it("shape B: answers only where 0-based and 1-based page numbers agree", () => {
    expect(hasMorePages({ perPage: 20, currentPage: 1, totalPages: 3, count: 20, total: 55 })).toBe(true);
    expect(hasMorePages({ perPage: 20, currentPage: 1, totalPages: 2, count: 20, total: 35 })).toBeUndefined();
    expect(hasMorePages({ perPage: 20, currentPage: 2, totalPages: 2, count: 15, total: 35 })).toBe(false);
    expect(hasMorePages({ perPage: 20, currentPage: 0, totalPages: 1, count: 15, total: 15 })).toBe(false);
  });
});

describe("closed enums", () => {
  it("are exported as arrays equal to every schema with enum, and open enums are not", () => {
    const schemas = spec.components?.schemas as Record<string, { enum?: unknown[]; "x-known-values"?: unknown[] }>;
    const closed = Object.entries(schemas).filter(([, s]) => Array.isArray(s.enum));
    expect(closed.length).toBeGreaterThan(0);
    for (const [name, schema] of closed)
      expect((api as Record<string, unknown>)[`${name}Values`], name).toEqual(schema.enum);
    const exported = Object.keys(api).filter((k) => k.endsWith("Values"));
    expect(exported.sort()).toEqual(closed.map(([name]) => `${name}Values`).sort());
    for (const [name, schema] of Object.entries(schemas))
      if (schema["x-known-values"]) expect(exported).not.toContain(`${name}Values`);
  });
});

describe("hasMorePages at its edges", () => {
  it("hasMorePages (shape A): false when total is 0, whatever the page size; undefined where numbering decides", () => {
    expect(hasMorePages({ page: 0, pageSize: 0, total: 0 } as never)).toBe(false);
    expect(hasMorePages({ page: 0, pageSize: 0, total: 5 } as never)).toBeUndefined();
    expect(hasMorePages({ page: 1, pageSize: 10, total: 20 } as never)).toBeUndefined();
    expect(hasMorePages({ page: 0, pageSize: 10, total: 21 } as never)).toBe(true);
  });
});
