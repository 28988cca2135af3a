// Small helpers the contract supports: quote expiry and pagination meta.
import type { PageMetaA, PageMetaB, Quote } from "../../generated/schema.js";

function toMillis(now: Date | number): number {
  const value = typeof now === "number" ? now : now.getTime();
  if (!Number.isFinite(value)) throw new TypeError("now must be a valid Date or a number of milliseconds");
  return value;
}

/** Milliseconds until `quote.expiryDate` (0 once expired). Throws a TypeError when expiryDate is not a timestamp. */
export function quoteTimeLeftMs(quote: Pick<Quote, "expiryDate">, now: Date | number = Date.now()): number {
  const expiry = Date.parse(quote.expiryDate);
  if (Number.isNaN(expiry))
    throw new TypeError(`quote.expiryDate is not an ISO 8601 timestamp: ${JSON.stringify(quote.expiryDate)}`);
  return Math.max(0, expiry - toMillis(now));
}

/** Whether the quote is no longer valid: the description says a quote is valid until `expiryDate`. */
export function isQuoteExpired(quote: Pick<Quote, "expiryDate">, now: Date | number = Date.now()): boolean {
  return quoteTimeLeftMs(quote, now) === 0;
}

/**
 * Whether a later page exists, for both meta shapes: A (`page`, `pageSize`, `total`; invoices) and
 * B (`perPage`, `currentPage`, `totalPages`, `count`, `total`). Whether page numbers start at 0 or 1 is not shown:
 * the result is `true` or `false` only when both numberings agree, and `undefined` when the answer depends on it.
 * It does not fetch the next page: the pagination parameters are not shown.
 */
export function hasMorePages(meta: PageMetaA | PageMetaB): boolean | undefined {
  if ("currentPage" in meta) {
    const { currentPage, totalPages } = meta;
    if (totalPages <= 1 || currentPage >= totalPages) return false;
    return currentPage + 1 < totalPages ? true : undefined;
  }
  const { page, pageSize, total } = meta;
  if (total <= 0) return false;
  if (pageSize <= 0) return undefined;
  if (total <= pageSize || page * pageSize >= total) return false;
  return (page + 1) * pageSize < total ? true : undefined;
}
