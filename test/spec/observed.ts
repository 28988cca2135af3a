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
  type Field,
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

// ---------------------------------------------------------------- published on the service's page "Webhooks"

/** A webhook of the page "Webhooks": the request the service POSTs to the account's webhook URL. */
interface WebhookExpectation {
  /** This contract's key for it under `webhooks:` (the payload carries no event name). */
  name: string;
  /** Its payload: a flat JSON object, open to further fields. */
  payload: Field;
  /** The known values of `type` and of `status` (open: any string passes). */
  type: readonly string[];
  status: readonly string[];
}

/** Fields of both published payloads; `network` appears in the withdrawal sample only. hash: null while pending. */
const webhookPayload = (name: string, type: string, status: readonly string[]): Field => ({
  kind: "object",
  name,
  fields: {
    type: openEnum(type),
    currency: str("USDT"),
    amount: { kind: "number" },
    status: openEnum(...status),
    reference: str("eba50518-58bf-430b-b603-d52f9794a8ee"),
    transactionId: str("d1ef5d75-0883-4183-9367-3d0417781fff"),
    createdAt: { kind: "dateTime", component: "Timestamp" },
    lastUpdated: { kind: "dateTime", component: "Timestamp" },
    hash: { ...str("0xe62236173d7427b73782c4d09863f01de418b7a2029841bcabfb35870c8d4f6c"), nullable: true },
    address: str("0x1FFE2134c82D07227715af2A12D1406165A305BF"),
    network: { ...str("BSC"), optional: true },
  },
});

/** The statuses seen: CONFIRMED in the deposit sample; PENDING in the withdrawal sample, and the Payouts page's. */
const DEPOSIT_STATUSES = ["CONFIRMED"] as const;
const WITHDRAWAL_STATUSES = ["PENDING", "APPROVED", "SUCCESSFUL", "PROCESSING", "FAILED", "REJECTED"] as const;

/** The deposit and the withdrawal webhook (no swap, invoice or collection events are documented). */
export const PUBLISHED_WEBHOOKS: WebhookExpectation[] = [
  {
    name: "deposit",
    payload: webhookPayload("Deposit webhook", "DEPOSIT", DEPOSIT_STATUSES),
    type: ["DEPOSIT"],
    status: DEPOSIT_STATUSES,
  },
  {
    name: "withdrawal",
    payload: webhookPayload("Withdrawal webhook", "WITHDRAWAL", WITHDRAWAL_STATUSES),
    type: ["WITHDRAWAL"],
    status: WITHDRAWAL_STATUSES,
  },
];

/** Every webhook request carries this header, required: the hex HMAC-SHA512 (128 hex digits) of the raw body. */
export const WEBHOOK_SIGNATURE: ParameterExpectation = {
  name: "x-obiex-signature",
  in: "header",
  required: true,
  shape: str("0123456789abcdef".repeat(8)),
};

/** Values of the webhook signature header: the hex case is not shown (both pass); other lengths and digits fail. */
export const WEBHOOK_SIGNATURE_VALUES: Array<{ value: string; valid: boolean }> = [
  { value: "0123456789ABCDEF".repeat(8), valid: true },
  { value: "0123456789abcdef".repeat(4), valid: false },
  { value: `${"0".repeat(128)}0`, valid: false },
  { value: "g".repeat(128), valid: false },
  { value: "", valid: false },
];

/** The page's source id (info.x-sources) every webhook element names. */
export const WEBHOOKS_PAGE = "page-webhooks";
