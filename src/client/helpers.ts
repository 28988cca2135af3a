// Small helpers the contract supports: quote expiry and pagination meta.
import type { PageMetaA, PageMetaB, Quote } from "../../generated/schema-aliases.js";

function toMillis(now: Date | number): number {
  const value = typeof now === "number" ? now : now.getTime();
  if (!Number.isFinite(value)) throw new TypeError("now must be a valid Date or a number of milliseconds");
  return value;
}

/** Milliseconds until `quote.expiryDate` (0 once expired). Throws a TypeError when expiryDate is not a timestamp. */
export function quoteTimeLeftMs(quote: Pick<Quote, "expiryDate">, now: Date | number = Date.now()): number {
  const expiry = Date.parse(quote.expiryDate);
  if (Number.isNaN(expiry)) throw new TypeError(`quote.expiryDate is not an ISO 8601 timestamp: ${JSON.stringify(quote.expiryDate)}`);
  return Math.max(0, expiry - toMillis(now));
}

/** Whether the quote is no longer valid: the description says a quote is valid until `expiryDate`. */
export function isQuoteExpired(quote: Pick<Quote, "expiryDate">, now: Date | number = Date.now()): boolean {
  return quoteTimeLeftMs(quote, now) === 0;
}

/**
 * Whether a later page exists, for both meta shapes: A (`page`, `pageSize`, `total`; invoices) and
 * B (`perPage`, `currentPage`, `totalPages`, `count`, `total`). Page numbers are taken as 1-based (an assumption:
 * the description does not show it). It does not fetch the next page: the pagination parameters are not shown.
 */
export function hasMorePages(meta: PageMetaA | PageMetaB): boolean {
  if ("currentPage" in meta) return meta.currentPage < meta.totalPages;
  if (meta.pageSize <= 0) return false;
  return meta.page * meta.pageSize < meta.total;
}
