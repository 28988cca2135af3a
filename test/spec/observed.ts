// Facts OBSERVED in a real client's traffic (the issue "What real clients send"), written BY HAND and on
// purpose NOT read from the spec, like description.ts. They are not in the description: the contract
// must declare each one and mark it `x-observed` where it is declared. test/spec/conformance.test.ts
// checks generated/openapi.json against them.
import {
  Currency,
  TransactionWithWallet,
  Wallet,
  Invoice,
  WalletWithCurrency,
  arrayOf,
  baseFields,
  bool,
  closedEnum,
  dateTime,
  int,
  num,
  obj,
  openEnum,
  optional,
  orNull,
  pathParam,
  str,
  transactionFields,
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

/**
 * A query parameter of the official client. Both resolve calls always send both of their query parameters
 * (required); the others are optional.
 */
const query = (name: string, shape: Field, required = false): ParameterExpectation => ({
  name,
  in: "query",
  required,
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
  // Issue 20, §1: the trade history's page and page size (C1, C2; defaults 1 and 30).
  "get /trades/me": [
    { name: "page", in: "query", required: false, shape: int() },
    { name: "pageSize", in: "query", required: false, shape: int() },
  ],
};

/** The category values both releases know: the documented (known) values of the open set. */
export const OBSERVED_CATEGORY_VALUES = ["DEPOSIT", "WITHDRAWAL", "SWAP", "TRANSFER"] as const;

/** Fact 1: Accept Quote is sent with no body at all; the description's sample sends {}. Both must pass. */
export const OPTIONAL_BODIES = [{ method: "post", path: "/trades/quote/{quoteId}" }] as const;

// ---------------------------------------------------------------- issue 20, §1: the money-flow requests
/** Any JSON value: the clients read these answers whole (or not at all) and declare no shape. */
const UNDECLARED: Field = { kind: "any" };

/** §3 "TradePair" (C1, C2): id, isSellable, isBuyable, source and target currencies. */
const PairSummary = obj("PairSummary (a trade pair as the clients declare it)", {
  id: str("3f8b2d6c-9e1a-4c7f-b254-8a6d0e3f9b15"),
  isSellable: bool(),
  isBuyable: bool(),
  source: Currency,
  target: Currency,
});

/** §3 "TradableCurrency" (C2); the types of the fields Currency also has are the description's. */
const TradableCurrency = obj("TradableCurrency", {
  id: str("1d9f6a7e-3c2b-4f8a-9e51-0b7c2d4e6f81"),
  active: bool(),
  name: str("Tether USD"),
  code: str("USDT"),
  receivable: bool(),
  withdrawable: bool(),
  transferrable: bool(),
  minimumWithdrawal: num(),
  maximumWithdrawal: num(),
  maximumDecimalPlaces: int(),
  withdrawalFee: num(),
  receiveFee: num(),
  type: closedEnum("CRYPTO", "STABLE", "FIAT"),
  receiveFeeType: closedEnum("PERCENTAGE", "FLAT"),
  withdrawalFeeType: closedEnum("PERCENTAGE", "FLAT"),
  sourcePairs: arrayOf(
    obj("TradableCurrency source pair", {
      id: str("3f8b2d6c-9e1a-4c7f-b254-8a6d0e3f9b15"),
      active: bool(),
      sourceId: str("1d9f6a7e-3c2b-4f8a-9e51-0b7c2d4e6f81"),
      targetId: str("5b2e8c14-7a3d-4e9f-8c60-2f1a9b3d7e52"),
      isSellable: bool(),
      isBuyable: bool(),
      isLeverage: bool(),
      target: Currency,
    }),
  ),
});

/** The Create Deposit Address answer: the published sample's fields (§3's DepositAddress has the same). */
const CreatedDepositAddress = obj("CreatedDepositAddress", {
  ...baseFields("05072a1b-2c84-493a-8829-6630f988e239"),
  value: str("0x6D3cE4DDeCA1AaFC95769A8F37C59d3D039d518C"),
  reference: str("9c975582-b331-4a6e-8d1c-5691fcf655ec"),
  network: str("ETH"),
  memo: orNull(str("104467")),
  purpose: str("Nestle Nigeria ETH.ETH"),
  userId: str("91754773-241c-4900-82e1-f962556b91af"),
  currencyId: orNull(str("55456608-8c9f-499d-99b4-15ceafef3212")),
  isMaster: bool(),
});

/** The withdrawal statuses of the Payouts feature page, and the sample's APPROVED (open: others may appear). */
const WITHDRAWAL_STATUS = openEnum("PENDING", "APPROVED", "SUCCESSFUL", "PROCESSING", "FAILED", "REJECTED");

/**
 * The Request Bank Account Withdrawal answer: a transaction with its payout. The clients read the payout's
 * status, fee, dollarValue, bitcoinValue, payoutAmount, payoutCurrency and bankAccount (required); the rest
 * is the published sample's (references null there, no bankCode in the bank account).
 */
const BankWithdrawal = obj("BankWithdrawal (transaction with its payout)", {
  ...transactionFields(),
  payout: obj("BankWithdrawalPayout", {
    id: optional(str("4c55a831-7909-432a-8db4-5514ff9fac62")),
    createdAt: optional(dateTime()),
    updatedAt: optional(dateTime()),
    active: optional(bool()),
    transferReference: optional(orNull(str("TRF-0001"))),
    externalReference: optional(orNull(str("EXT-0001"))),
    status: WITHDRAWAL_STATUS,
    fee: num(),
    dollarValue: num(),
    bitcoinValue: num(),
    payoutAmount: num(),
    payoutCurrency: str("NGNX"),
    transactionId: optional(str("0edb705b-9392-49c7-ad16-76bea0f84faf")),
    bankAccount: obj("WithdrawalBankAccount", {
      ...baseFields("52669ecc-b842-4976-9e55-05697d7702d3"),
      accountNumber: str("90xxxxxxxxx"),
      accountName: str("Jane Doe"),
      bankName: str("OPAY"),
      bankCode: optional(str("100004")),
      payoutId: str("4c55a831-7909-432a-8db4-5514ff9fac62"),
    }),
  }),
});

/** Whether a key is required is shown by no source (the clients always send one): a key or none. */
const common = { n: 0, key: "notShown" } as const;

/** Every money-flow request of §1 (C1 = client-2023, C2 = client-later, P = the reference pages). */
const MONEY_FLOW_ENDPOINTS: EndpointExpectation[] = [
  // C1, C2: array of Currency; the clients cache it and map codes to ids with it.
  { ...common, name: "Get Currencies", method: "get", path: "/currencies", parameters: [], data: arrayOf(Currency) },
  // C2: array of TradableCurrency.
  {
    ...common,
    name: "Get Tradeable Currencies",
    method: "get",
    path: "/currencies/tradeable",
    parameters: [],
    data: arrayOf(TradableCurrency),
  },
  // C1, C2: array of TradePair, by currency id (the path's one parameter, named id as in /currencies/{id}/networks).
  {
    ...common,
    name: "Get Currency Pairs",
    method: "get",
    path: "/currencies/{id}/pairs",
    parameters: [pathParam("id", "1d9f6a7e-3c2b-4f8a-9e51-0b7c2d4e6f81")],
    data: arrayOf(PairSummary),
  },
  // C1, C2: array of TradePair.
  {
    ...common,
    name: "Get Trade Pairs",
    method: "get",
    path: "/trades/pairs",
    parameters: [],
    data: arrayOf(PairSummary),
  },
  // C1, C2: page and pageSize (OBSERVED_PARAMETERS); read as the whole envelope, shape not declared.
  { ...common, name: "Get Trade History", method: "get", path: "/trades/me", parameters: [], data: UNDECLARED },
  // C1, C2, P: currency, network, uniqueUserIdentifier (C2, P) or purpose (C1); one DepositAddress.
  {
    ...common,
    name: "Create Deposit Address",
    method: "post",
    path: "/addresses/broker",
    parameters: [],
    requestBody: {
      kind: "fields",
      fields: {
        currency: str("ETH"),
        network: str("ETH"),
        uniqueUserIdentifier: optional(str("urbjreghuhubqvehvf")),
        purpose: optional(str("usr-e7a3c1d9")),
      },
      required: ["currency", "network"],
    },
    data: CreatedDepositAddress,
  },
  // C1, C2, P: amount, currency, destination{address, network, memo?}, narration; one Transaction with wallet.
  {
    ...common,
    name: "Request Crypto Withdrawal",
    method: "post",
    path: "/wallets/ext/debit/crypto",
    parameters: [],
    requestBody: {
      kind: "fields",
      fields: {
        amount: num(),
        currency: str("USDT"),
        destination: obj("crypto withdrawal destination", {
          address: str("0x1FFE2134c82D07227715af2A12D1406165A305BF"),
          network: str("BSC"),
          memo: optional(str("104467")),
        }),
        narration: optional(str("first withdrawal")),
      },
      required: ["amount", "currency", "destination"],
    },
    data: TransactionWithWallet,
  },
  // C1, C2, P: amount, currency, destination{accountNumber, accountName, bankName, bankCode}, narration;
  // C1 also sent a merchantCode in destination. One Transaction with payout.
  {
    ...common,
    name: "Request Bank Account Withdrawal",
    method: "post",
    path: "/wallets/ext/debit/fiat",
    parameters: [],
    requestBody: {
      kind: "fields",
      fields: {
        amount: num(),
        currency: str("NGNX"),
        destination: obj("bank withdrawal destination", {
          accountNumber: str("0123456789"),
          accountName: str("Jane Doe"),
          bankName: str("OPAY"),
          bankCode: str("100004"),
          merchantCode: optional(str("MRC-0001")),
        }),
        narration: optional(str("first withdrawal")),
      },
      required: ["amount", "currency", "destination"],
    },
    data: BankWithdrawal,
  },
  // C2: array of Wallet (all the caller's wallets).
  { ...common, name: "Get My Wallets", method: "get", path: "/wallets/me", parameters: [], data: arrayOf(Wallet) },
  // C1, C2: read as the whole envelope, shape not declared.
  {
    ...common,
    name: "Get Transaction",
    method: "get",
    path: "/transactions/{transactionId}",
    parameters: [pathParam("transactionId", "4c7e9a1b-3d5f-4b8e-a206-6e9b1d3f5a82")],
    data: UNDECLARED,
  },
  // C2: no body; the answer is not read.
  {
    ...common,
    name: "Resend Transaction Webhook",
    method: "post",
    path: "/transactions/{transactionId}/resendWebhook",
    parameters: [pathParam("transactionId", "4c7e9a1b-3d5f-4b8e-a206-6e9b1d3f5a82")],
    data: UNDECLARED,
  },
];

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

/**
 * An observed operation (n 0). Every request of C1 and C2 carries the key; whether the service requires it is not
 * shown by any source, so the key is optional and the place marked (as on the money-flow operations).
 */
const observed = (
  name: string,
  method: EndpointExpectation["method"],
  path: string,
  rest: Pick<EndpointExpectation, "data" | "requestBody"> & { parameters?: ParameterExpectation[] },
): EndpointExpectation => ({ n: 0, name, method, path, key: "notShown", parameters: [], ...rest });

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
    // §5: C2 returns data.url, the URL it later sends as invoiceDocument; other fields of data: not shown.
    data: obj("UploadedInvoiceDocument", { url: str("https://storage.host.invalid/invoices/doc.pdf") }),
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
  ...MONEY_FLOW_ENDPOINTS,
  ...ISSUE_20_OTHER_ENDPOINTS,
];

/** Fields the clients declare or the pages publish on schemas, each with the marker that must name its source. */
export const SOURCED_FIELDS = [
  // C1, C2: "applies only when above 0".
  { schema: "Currency", property: "maximumDeposit", marker: "x-observed", type: "number" },
  { schema: "Currency", property: "maximumDailyDepositLimit", marker: "x-observed", type: "number" },
  // §3 DepositAddress (C1, C2): purpose and currencyId, optional on Get Deposit Addresses' records.
  { schema: "DepositAddress", property: "purpose", marker: "x-observed", type: "string" },
  { schema: "DepositAddress", property: "currencyId", marker: "x-observed", type: "string" },
  { schema: "CreatedDepositAddress", property: "purpose", marker: "x-published", type: "string" },
  { schema: "CreatedDepositAddress", property: "currencyId", marker: "x-published", type: "string" },
  // P (Collections feature page): the identifier's rule; C1 sends it as purpose.
  { schema: "CreateDepositAddressRequest", property: "uniqueUserIdentifier", marker: "x-published", type: "string" },
  { schema: "CreateDepositAddressRequest", property: "purpose", marker: "x-observed", type: "string" },
  // §5 (C2): Upload Invoice Document's data.url, a string.
  { schema: "UploadedInvoiceDocument", property: "url", marker: "x-observed", type: "string" },
] as const;

/** Collections feature page: the identifier contains letters, digits and hyphens only. */
export const IDENTIFIER_RULE = {
  valid: ["urbjreghuhubqvehvf", "usr-e7a3c1d9", "A-1"],
  invalid: ["Nestle Nigeria", "ETH.ETH", "usr_e7a3", ""],
} as const;

/** Payouts feature page: the statuses a withdrawal goes through, known values of the (open) payout status. */
export const WITHDRAWAL_STATUSES = WITHDRAWAL_STATUS.kind === "enum" ? WITHDRAWAL_STATUS.values : [];

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

/** The statuses seen: CONFIRMED in the deposit sample; PENDING in the withdrawal sample, and the Payouts page's
 * (WITHDRAWAL_STATUSES above). */
const DEPOSIT_STATUSES = ["CONFIRMED"] as const;

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
