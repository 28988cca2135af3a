// Facts OBSERVED in a real client's traffic (the issue "What real clients send"), written BY HAND and on
// purpose NOT read from the spec, like description.ts. They are not in the description: the contract
// must declare each one and mark it `x-observed` where it is declared. test/spec/conformance.test.ts
// checks generated/openapi.json against them.
import {
  WalletWithCurrency,
  int,
  openEnum,
  pathParam,
  str,
  type EndpointExpectation,
  type ParameterExpectation,
} from "./description.js";

/** Fact 2: every request carries these two headers besides x-api-key (optional in the contract). */
export const SIGNING_HEADERS: ParameterExpectation[] = [
  // Milliseconds since the Unix epoch, as a decimal string.
  { name: "x-api-timestamp", in: "header", required: false, shape: str("1700000000000") },
  // Lowercase hex of HMAC-SHA256 (64 hex digits).
  {
    name: "x-api-signature",
    in: "header",
    required: false,
    shape: str("ece0ab4cc6577304fa2104f6c84454050b3b5ead1ede4e961ed1f4dcea9830ae"),
  },
];

/** Malformed values of the signing headers: what the observed formats exclude. */
export const MALFORMED_SIGNING_HEADERS: Record<string, string[]> = {
  "x-api-timestamp": ["2026-11-22T10:00:12.504Z", "-1700000000000", "1700000000000.5"],
  "x-api-signature": ["ECE0AB4CC6577304FA2104F6C84454050B3B5EAD1EDE4E961ED1F4DCEA9830AE", "ece0ab4c", "not-hex"],
};

/** An optional query parameter of the official client. */
const query = (name: string, shape: ParameterExpectation["shape"]): ParameterExpectation => ({
  name,
  in: "query",
  required: false,
  shape,
});
/** Pagination as both releases send it: integers (their defaults 1 and 30). */
const page = query("page", int());
const pageSize = query("pageSize", int());
/** A currency's id (a string); a status whose values no source shows; dates whose format no source shows. */
const currencyId = query("currencyId", str("1d9f6a7e-3c2b-4f8a-9e51-0b7c2d4e6f81"));
const status = query("status", str("CONFIRMED"));
const startDate = query("startDate", str("2026-11-01"));
const endDate = query("endDate", str("2026-11-30"));

/**
 * Fact 3 and §2 of the shared facts: query parameters the official client sends to described operations, all
 * optional. Get User Transactions (2023 release): page, pageSize, category, whose values in both releases are
 * DEPOSIT, WITHDRAWAL, SWAP, TRANSFER (open: a transaction's category). The later release: currencyId, page,
 * pageSize to Get Trades Summary; page, pageSize, currencyId, status, startDate, endDate to the deposit and
 * payout listings; startDate, endDate, page, pageSize (besides the described status) to List My Invoices; page,
 * pageSize to Get Deposit Addresses (one version).
 */
export const OBSERVED_PARAMETERS: Record<string, ParameterExpectation[]> = {
  "get /transactions/me": [page, pageSize, query("category", openEnum("DEPOSIT", "WITHDRAWAL", "SWAP", "TRANSFER"))],
  "get /trades/summary/me": [currencyId, page, pageSize],
  "get /transactions/deposits/me": [page, pageSize, currencyId, status, startDate, endDate],
  "get /transactions/withdrawals/me": [page, pageSize, currencyId, status, startDate, endDate],
  "get /invoices/me": [startDate, endDate, page, pageSize],
  "get /addresses/me/broker": [page, pageSize],
};

/** The category values both releases know: the documented (known) values of the open set. */
export const OBSERVED_CATEGORY_VALUES = ["DEPOSIT", "WITHDRAWAL", "SWAP", "TRANSFER"] as const;

/** Fact 1: Accept Quote is sent with no body at all; the description's sample sends {}. Both must pass. */
export const OPTIONAL_BODIES = [{ method: "post", path: "/trades/quote/{quoteId}" }] as const;

/** Fact 4: the wallet path with other currency codes. Its answer is not observed: assumed Get Wallet Balance's. */
export const OBSERVED_ENDPOINTS: EndpointExpectation[] = [
  {
    n: 0,
    name: "Get Wallet Balance (other currency codes)",
    method: "get",
    path: "/wallets/{currencyCode}",
    key: "notShown",
    parameters: [pathParam("currencyCode", "NGNX")],
    data: WalletWithCurrency,
  },
];

/** Fact 5: Create Quote's sourceId/targetId carry identifiers in the real client (both stay strings). */
export const OBSERVED_FIELDS = [
  { schema: "CreateQuoteRequest", property: "sourceId" },
  { schema: "CreateQuoteRequest", property: "targetId" },
] as const;

// ---------------------------------------------------------------- published on the service's pages

/**
 * Page Errors: an error answers `{"message": "<text>", "errors": [{"message": "<text>"}]}`, still open to further
 * fields. `message` is in the sample and in both clients' types: required. `errors` is in the sample, but both
 * clients type it as optional: not required. A finding's `message` is in the sample and the clients' types:
 * required; its `property` is typed by the clients only (no type or value shown): optional, any JSON value.
 * A body of another JSON type than an object still passes: the contract kept it open (closing it is a breaking
 * change, for a major version), a decision of the contract's, not a fact of the page.
 */
export const PUBLISHED_ERROR_BODY = {
  component: "ErrorBody",
  sample: {
    message: "Account has been disabled. Try again in 15 minutes",
    errors: [{ message: "Account has been disabled. Try again in 15 minutes" }],
  },
  required: ["message"],
  findingRequired: ["message"],
  otherJsonTypesPass: true,
} as const;

/** The error responses every operation declares, each with the published body. */
export const ERROR_RESPONSE_KEYS = ["401", "429", "4XX", "5XX"] as const;

/** Page Errors: its table of codes, each with its status. */
export const PUBLISHED_ERROR_CODES: Record<string, number> = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  VALIDATION_ERROR: 422,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
};

/** Page Errors: the statuses it lists. */
export const PUBLISHED_STATUSES = [200, 201, 400, 401, 403, 404, 422, 429, 500] as const;

/** Trading feature page, Create Quote page: a quote's expiresIn is in seconds (30 in the sample). */
export const PUBLISHED_QUOTE_VALIDITY = { schema: "Quote", property: "expiresIn", seconds: 30 } as const;
