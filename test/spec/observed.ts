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

/** Fact 3: query parameters of Get User Transactions; `category` takes a transaction's category values (open). */
export const OBSERVED_PARAMETERS: Record<string, ParameterExpectation[]> = {
  "get /transactions/me": [
    { name: "page", in: "query", required: false, shape: int() },
    { name: "pageSize", in: "query", required: false, shape: int() },
    { name: "category", in: "query", required: false, shape: openEnum("DEPOSIT", "WITHDRAWAL", "SWAP") },
  ],
};

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
