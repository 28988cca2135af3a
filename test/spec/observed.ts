// Facts OBSERVED in a real client's traffic (the issue "What real clients send"), written BY HAND and on
// purpose NOT read from the spec, like description.ts. They are not in the description: the contract
// must declare each one and mark it `x-observed` where it is declared. test/spec/conformance.test.ts
// checks generated/openapi.json against them.
import {
  Invoice,
  WalletWithCurrency,
  arrayOf,
  baseFields,
  closedEnum,
  dateTime,
  int,
  obj,
  openEnum,
  optional,
  pathParam,
  str,
  type EndpointExpectation,
  type Field,
  type Fields,
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

/** Fact 5: Create Quote's sourceId/targetId carry identifiers in the real client (both stay strings). */
export const OBSERVED_FIELDS: ReadonlyArray<{ schema: string; property: string; added?: true }> = [
  { schema: "CreateQuoteRequest", property: "sourceId" },
  { schema: "CreateQuoteRequest", property: "targetId" },
  // Issue 20, §3 (C2): the Invoice fields the later client release adds, all optional strings (`added`: new).
  ...[
    "invoiceDocument",
    "beneficiaryBankCountry",
    "beneficiaryBankAddress",
    "beneficiaryName",
    "beneficiaryAddress",
    "beneficiaryCountryCode",
    "beneficiaryCountryOfResidence",
  ].map((property) => ({ schema: "Invoice", property, added: true as const })),
];

// ---------------------------------------------------------------- issue 20, §1: the other operations
// Written from ../shared/observed/README.md §1 and §3 (C1: the 2023 client release, C2: the later one). A field
// whose type no source gives is `untyped()`: any JSON value passes. Every request carries the key.

/** A field whose type no source gives. */
const untyped = (): Field => ({ kind: "any" });
const untypedFields = (...names: string[]): Fields => Object.fromEntries(names.map((name) => [name, untyped()]));

/** §1: an NGN bank {name, uuid, interInstitutionCode, sortCode} (C1, C2). */
const NgnBank = obj("NgnBank", untypedFields("name", "uuid", "interInstitutionCode", "sortCode"));
/** §1: a GHS bank {name, uuid, sortCode} (C2). */
const GhsBank = obj("GhsBank", untypedFields("name", "uuid", "sortCode"));
/** §1: a GHS mobile network {name, sortCode} (C2). */
const MobileNetwork = obj("MobileNetwork", untypedFields("name", "sortCode"));
/** §1: a resolved account {bankId, accountNumber, accountName} (NGN: C1, C2; GHS: C2). */
const ResolvedAccount = obj("ResolvedAccount", untypedFields("bankId", "accountNumber", "accountName"));

/** §3 FiatMerchant: base fields, code, fees, userId, user{base fields, names, email, role}, request counts. */
const FiatMerchant = obj("FiatMerchant", {
  ...baseFields("5d7f9b1c-3e6a-4c2d-b8f0-7a9c1e3b5d46"),
  ...untypedFields("code", "depositFee", "payoutFee", "userId"),
  user: obj("FiatMerchant user", {
    ...baseFields("0b2d4f6a-8c1e-4a3b-9d5f-7e9a1c3b5d68"),
    ...untypedFields("firstName", "lastName", "email", "role"),
  }),
  ...untypedFields("totalRequests", "completedRequests"),
});

/** §3 NairaPayment: recipientBankAccountId optional; type and status as the clients declare them. */
const NairaPayment = obj("NairaPayment", {
  createdAt: dateTime(),
  ...untypedFields(
    "reference",
    "customerReference",
    "merchantAccountNumber",
    "merchantAccountName",
    "fee",
    "amount",
    "merchantId",
  ),
  recipientBankAccountId: optional(untyped()),
  type: closedEnum("DEPOSIT", "WITHDRAW"),
  status: closedEnum("FAILED", "PENDING", "PROCESSING", "CANCELLED", "COMPLETED"),
  recipientBankAccount: obj(
    "NairaPayment recipientBankAccount",
    untypedFields("accountName", "accountNumber", "bankId"),
  ),
});

/** Both resolve calls always send both of their query parameters (required); the others are optional. */
const query = (name: string, shape: Field, required = false): ParameterExpectation => ({
  name,
  in: "query",
  required,
  shape,
});

/** C2's Create Invoice body: every key always sent; invoiceDocument a URL string (the Invoice's is a string). */
const createInvoiceBody: Fields = {
  ...untypedFields("targetAmount", "source", "target", "purposeOfPayment"),
  invoiceDocument: str("https://storage.host.invalid/invoices/doc.pdf"),
  destination: obj(
    "Create Invoice destination",
    untypedFields(
      "accountName",
      "accountNumber",
      "swiftCode",
      "bankName",
      "bankCode",
      "bankCountry",
      "bankAddress",
      "beneficiaryName",
      "beneficiaryAddress",
      "beneficiaryCountryCode",
      "beneficiaryCountryOfResidence",
    ),
  ),
};

/** An observed operation (n 0) that requires the key: every request of C1 and C2 carries it. */
const observed = (
  name: string,
  method: EndpointExpectation["method"],
  path: string,
  rest: Pick<EndpointExpectation, "data" | "requestBody"> & { parameters?: ParameterExpectation[] },
): EndpointExpectation => ({ n: 0, name, method, path, key: "required", parameters: [], ...rest });

/** The upload's one part, `file`: at most 1 MB (C2), read as 1,000,000 characters of the part's text. */
export const UPLOAD_FILE_MAX_LENGTH = 1_000_000;

const ISSUE_20_OTHER_ENDPOINTS: EndpointExpectation[] = [
  observed("Create Invoice", "post", "/invoices", {
    requestBody: { kind: "fields", fields: createInvoiceBody, required: Object.keys(createInvoiceBody) },
    data: Invoice,
  }),
  observed("Get Invoice", "get", "/invoices/{invoiceId}", {
    parameters: [pathParam("invoiceId", "2e4a6c8f-0b1d-4e3f-9a75-8c0e2a4b6d93")],
    data: Invoice,
  }),
  observed("Upload Invoice Document", "post", "/uploads/invoices", {
    requestBody: {
      kind: "fields",
      mediaType: "multipart/form-data",
      fields: { file: str("%PDF-1.7") },
      required: ["file"],
    },
    // Not declared by C2, which uses it as invoiceDocument.
    data: untyped(),
  }),
  observed("List NGN Banks", "get", "/ngn-payments/banks", { data: arrayOf(NgnBank) }),
  observed("List NGN Merchants", "get", "/ngn-payments/merchants", {
    parameters: [query("page", int()), query("pageSize", int())],
    data: arrayOf(FiatMerchant),
  }),
  observed("Resolve NGN Bank Account", "get", "/ngn-payments/accounts/resolve", {
    parameters: [query("bankId", str("4c8e2a6f"), true), query("accountNumber", str("0691234821"), true)],
    data: arrayOf(ResolvedAccount),
  }),
  observed("Create NGN Deposit", "post", "/ngn-payments/deposits", {
    requestBody: {
      kind: "fields",
      fields: untypedFields("merchantCode", "amount"),
      required: ["merchantCode", "amount"],
    },
    data: NairaPayment,
  }),
  observed("Update NGN Deposit", "put", "/ngn-payments/deposits/{reference}", {
    parameters: [pathParam("reference", "NGN-DEP-20261122-4H8J2L")],
    data: untyped(),
  }),
  observed("Update NGN Withdrawal", "put", "/ngn-payments/withdrawals/{reference}", {
    parameters: [pathParam("reference", "NGN-WDR-0001")],
    data: untyped(),
  }),
  observed("List GHS Banks", "get", "/ghs-payments/banks", { data: arrayOf(GhsBank) }),
  observed("List GHS Mobile Networks", "get", "/ghs-payments/mobile/networks", { data: arrayOf(MobileNetwork) }),
  observed("Resolve GHS Account", "get", "/ghs-payments/accounts/resolve", {
    parameters: [query("bankCode", str("VOD"), true), query("accountNumber", str("0241234567"), true)],
    // ONE account, unlike the NGN resolve call.
    data: ResolvedAccount,
  }),
];

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
  ...ISSUE_20_OTHER_ENDPOINTS,
];
