// Expectations written BY HAND from the service's description (../shared/api-description.md beside the
// repository), on purpose NOT read from the spec:
// test/spec/conformance.test.ts checks generated/openapi.json against them.
// Section names in comments refer to the description.
//
// A resource of the description that the spec declares as a component schema of its own is marked with
// that component's name (`resource(...)`): the spec names its schemas after the description's resources
// in PascalCase. Only the NAME is written here; every field, type and value comes from the description.
// The conformance test probes each such resource once, at #/components/schemas/<name>, and wherever it
// is embedded only checks that it is that resource. A variant without a component of its own (`obj(...)`,
// e.g. "Wallet with currency") is probed in full where it first appears.

// ---------------------------------------------------------------- shape vocabulary

export type Shape =
  | { kind: "string"; sample: string }
  /** An ISO 8601 UTC timestamp with milliseconds (Conventions 4): the spec's one `Timestamp` schema. */
  | { kind: "dateTime"; component?: string }
  | { kind: "number" }
  | { kind: "integer" }
  | { kind: "boolean" }
  /** Closed: exactly these values. Open ("values seen", "only value shown"): these are known, any string passes. */
  | { kind: "enum"; values: readonly string[]; open: boolean }
  | { kind: "const"; value: string }
  /** `component`: the name of the component schema this resource is (absent: a variant without one). */
  | { kind: "object"; name: string; fields: Fields; component?: string }
  | { kind: "array"; items: Shape }
  /** Object keyed by an arbitrary key (currency code), every value of shape `values`. */
  | { kind: "map"; sampleKey: string; values: Shape }
  | { kind: "emptyObject" }
  /** Any JSON value: no source declares the shape (the data of some observed operations). */
  | { kind: "any" };

export type Field = Shape & {
  /** "or null" in the description. */
  nullable?: boolean;
  /** May be absent from a response (or request) that the description names. */
  optional?: boolean;
};

export type Fields = Record<string, Field>;

export const str = (sample: string): Field => ({ kind: "string", sample });
/** The component schema of the timestamp convention (Conventions 4). */
const TIMESTAMP = "Timestamp";
export const dateTime = (): Field => ({ kind: "dateTime", component: TIMESTAMP });
export const num = (): Field => ({ kind: "number" });
export const int = (): Field => ({ kind: "integer" });
export const bool = (): Field => ({ kind: "boolean" });
export const closedEnum = (...values: string[]): Field => ({ kind: "enum", values, open: false });
export const openEnum = (...values: string[]): Field => ({ kind: "enum", values, open: true });
const constant = (value: string): Field => ({ kind: "const", value });
/** An object without a component schema of its own (a variant of a resource, a request body...). */
export const obj = (name: string, fields: Fields): Field => ({ kind: "object", name, fields });
/** A resource of the description that is the component schema `component` (its PascalCase name). */
const resource = (component: string, fields: Fields): Field => ({
  kind: "object",
  name: component,
  fields,
  component,
});
export const arrayOf = (items: Shape): Field => ({ kind: "array", items });
export const orNull = (field: Field): Field => ({ ...field, nullable: true });
export const optional = (field: Field): Field => ({ ...field, optional: true });

/** Marks every field optional. */
const allOptional = (fields: Fields): Fields =>
  Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, optional(field)]));

// ---------------------------------------------------------------- resources

const SAMPLE_TIME = "2024-05-01T10:15:30.123Z";

/** "Base fields": id, createdAt, updatedAt, active. */
export const baseFields = (id: string): Fields => ({
  id: str(id),
  createdAt: dateTime(),
  updatedAt: dateTime(),
  active: bool(),
});

/** "Fiat rate". currency is NGNX or GHS; base is always USDT. */
const FiatRate = resource("FiatRate", {
  currency: closedEnum("NGNX", "GHS"),
  base: constant("USDT"),
  buyRate: num(),
  sellRate: num(),
});

/** "Quote (result of Create Quote)". id is opaque, not a UUID. */
const Quote = resource("Quote", {
  id: str("qt_8f2KQwZ1x9"),
  sourceId: str("9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d"),
  targetId: str("1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed"),
  rate: num(),
  side: closedEnum("BUY", "SELL"),
  amount: num(),
  amountReceived: num(),
  sourceDollarRate: num(),
  targetDollarRate: num(),
  expiryDate: dateTime(),
  sourceCode: str("USDT"),
  targetCode: str("NGNX"),
  expiresIn: num(),
  // "States and transitions": Quote | active / expiryDate | boolean flag and an expiry timestamp.
  // The Quote field table does not list `active`, so it is not required.
  active: optional(bool()),
});

/** "Currency": base fields, name and code; whether the rest is always present is not shown. */
const currencyBase = (code: string): Fields => ({
  ...baseFields(`cur-${code.toLowerCase()}-0001`),
  name: str(code === "USDT" ? "Tether" : "Naira"),
  code: str(code),
});

const currency = (code: string): Field =>
  resource("Currency", {
    ...currencyBase(code),
    ...allOptional({
      exchangeCode: orNull(str(code)),
      leverageBaseCurrencyCode: orNull(str("USDT")),
      leverageMultipler: orNull(num()),
      cardWithdrawalMultiplier: num(),
      cardFundingMultiplier: num(),
      receivable: bool(),
      withdrawable: bool(),
      transferrable: bool(),
      minimumWithdrawal: num(),
      minimumDeposit: num(),
      maximumDeposit: num(),
      maximumDailyDepositLimit: num(),
      maximumWithdrawal: num(),
      maximumDecimalPlaces: int(),
      minimumLiquidity: num(),
      maximumLiquidity: num(),
      withdrawalFee: num(),
      receiveFee: num(),
      maximumWithdrawalFee: num(),
      type: closedEnum("CRYPTO", "STABLE", "FIAT"),
      leverageType: orNull(str("MARGIN")),
      receiveFeeType: closedEnum("PERCENTAGE", "FLAT"),
      withdrawalFeeType: closedEnum("PERCENTAGE", "FLAT"),
      allowUtilityPayments: bool(),
      allowUnconfirmedTrading: bool(),
      allowVirtualCardTransactions: bool(),
      enableWithdrawalApproval: bool(),
    }),
  });

/** "Currency". */
export const Currency = currency("USDT");

/** Currency inside an accepted trade's pair: "limited to base fields, name and code". */
const currencySummary = (code: string): Field => obj("Currency (base fields, name, code)", currencyBase(code));

const pairFields = (source: Field, target: Field): Fields => ({
  ...baseFields("pair-usdt-ngnx-0001"),
  sourceId: str("cur-usdt-0001"),
  targetId: str("cur-ngnx-0001"),
  isSellable: bool(),
  isBuyable: bool(),
  isLeverage: bool(),
  enableP2PTrading: bool(),
  // "present in the pair nested in an accepted trade": optional elsewhere.
  isLimitOrderEnabled: optional(bool()),
  source,
  target,
});

/** "Pair". */
const Pair = resource("Pair", pairFields(currency("USDT"), currency("NGNX")));

/** The pair nested in a Trade: isLimitOrderEnabled present, currencies limited to base fields, name, code. */
const TradePair = obj("Pair (in a trade)", {
  ...pairFields(currencySummary("USDT"), currencySummary("NGNX")),
  isLimitOrderEnabled: bool(),
});

/** "Trade (result of Accept Quote)". side is written as a plain string here. */
const Trade = resource("Trade", {
  ...baseFields("trd-3f6c0e2a-0001"),
  reference: str("TRD-20240501-0001"),
  rate: num(),
  side: str("SELL"),
  amount: num(),
  amountReceived: num(),
  sourceDollarRate: num(),
  targetDollarRate: num(),
  userId: str("usr-0001"),
  pairId: str("pair-usdt-ngnx-0001"),
  dollarValue: num(),
  pair: TradePair,
});

/** "Wallet". p2pBalance and the two total... fields appear only in some responses; currency in some. */
const walletFields = (currencyField: Field): Fields => ({
  ...baseFields("wal-usdt-0001"),
  availableBalance: num(),
  pendingBalance: num(),
  pendingSwapBalance: num(),
  lockedBalance: num(),
  p2pBalance: optional(num()),
  totalSwappableBalance: optional(num()),
  totalPendingBalance: optional(num()),
  userId: str("usr-0001"),
  currencyId: str("cur-usdt-0001"),
  currency: currencyField,
});

export const Wallet = resource("Wallet", walletFields(optional(currency("USDT"))));
/** Endpoint 15: "Wallet with currency". */
export const WalletWithCurrency = obj("Wallet (with currency)", walletFields(currency("USDT")));

/** "Bank account (inside a payout)". accountNumber may be partly masked. */
const BankAccount = resource("BankAccount", {
  ...baseFields("bnk-0001"),
  accountNumber: str("01****6789"),
  accountName: str("Ada Obi"),
  bankName: str("Access Bank"),
  bankCode: str("044"),
  payoutId: str("pyt-0001"),
});

/** "Deposit". status: CONFIRMED is the only value shown (open). */
const Deposit = resource("Deposit", {
  ...baseFields("dep-0001"),
  hash: str("0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060"),
  network: str("TRX"),
  dollarRate: num(),
  status: openEnum("CONFIRMED"),
  fee: num(),
  transactionId: str("txn-0001"),
  destinationAddress: str("TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"),
});

/** "Payout". status: SUCCESSFUL is the only value shown (open). */
const Payout = resource("Payout", {
  ...baseFields("pyt-0001"),
  transferReference: str("TRF-0001"),
  externalReference: str("EXT-0001"),
  status: openEnum("SUCCESSFUL"),
  transactionId: str("txn-0001"),
  bankAccount: BankAccount,
});

/** "Transaction" without wallet/deposit/payout. category: values seen (open). */
export const transactionFields = (): Fields => ({
  ...baseFields("txn-0001"),
  reference: str("TXN-20240501-0001"),
  description: str("Deposit of USDT"),
  narration: orNull(str("Wallet funding")),
  type: closedEnum("CREDIT", "DEBIT"),
  category: openEnum("DEPOSIT", "WITHDRAWAL", "SWAP"),
  amount: num(),
  walletId: str("wal-usdt-0001"),
});

/** "Transaction": its wallet, and either its deposit (deposit listings) or its payout (payout listings). */
const Transaction = resource("Transaction", {
  ...transactionFields(),
  wallet: optional(Wallet),
  deposit: optional(Deposit),
  payout: optional(Payout),
});

/** Endpoint 16: "Transaction with wallet". */
export const TransactionWithWallet = obj("Transaction (with wallet)", { ...transactionFields(), wallet: Wallet });
/** Endpoint 9: "Transaction with deposit". The listing's wallet presence is not stated. */
const TransactionWithDeposit = obj("Transaction (with deposit)", {
  ...transactionFields(),
  wallet: optional(Wallet),
  deposit: Deposit,
});
/** Endpoint 10: "Transaction with payout". */
const TransactionWithPayout = obj("Transaction (with payout)", {
  ...transactionFields(),
  wallet: optional(Wallet),
  payout: Payout,
});

const INVOICE_STATUSES = ["PENDING", "APPROVED", "PROCESSING", "COMPLETED", "FAILED", "EXPIRED", "REFUNDED"] as const;

/** "Invoice": no `active`, all listed fields. */
export const Invoice = resource("Invoice", {
  id: str("inv-0001"),
  createdAt: dateTime(),
  updatedAt: dateTime(),
  status: closedEnum(...INVOICE_STATUSES),
  sourceCurrency: str("NGNX"),
  targetCurrency: str("USDT"),
  sourceAmount: num(),
  targetAmount: num(),
  rate: num(),
  purposeOfPayment: str("Supplier payment"),
  virtualAccountNumber: str("9912345678"),
  virtualAccountName: str("Acme Collections"),
  virtualBankName: str("Wema Bank"),
  virtualAccountReference: str("VA-REF-0001"),
  accountExpiresAt: dateTime(),
  trackingId: str("TRK-0001"),
  beneficiaryAccountNumber: str("0123456789"),
  beneficiaryAccountName: str("Acme Ltd"),
  beneficiaryBankName: str("Access Bank"),
  swiftCode: str("ABNGNGLA"),
});

/** "Collection customer". */
const CollectionCustomer = resource("CollectionCustomer", {
  ...baseFields("cus-0001"),
  businessId: str("biz-0001"),
  firstName: str("Ada"),
  lastName: str("Obi"),
  bvn: str("22212345678"),
  nin: str("12345678901"),
});

/** "Deposit address". */
const DepositAddress = resource("DepositAddress", {
  ...baseFields("adr-0001"),
  value: str("TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"),
  reference: str("ADR-REF-0001"),
  network: str("TRX"),
  memo: orNull(str("104467")),
  uniqueUserIdentifier: str("usr-0001-trx"),
  userId: str("usr-0001"),
  isMaster: bool(),
  deletedAt: orNull(dateTime()),
});

/** "Withdrawal network (per currency)". feeType: FLAT seen (open). */
const WithdrawalNetwork = resource("WithdrawalNetwork", {
  addressRegex: str("^T[1-9A-HJ-NP-Za-km-z]{33}$"),
  memoRegex: orNull(str("^[0-9]{1,20}$")),
  name: str("Tron (TRC20)"),
  code: str("TRX"),
  fee: num(),
  feeType: openEnum("FLAT"),
  minimum: num(),
  contractAddress: str("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"),
  explorerLink: str("https://tronscan.org/#/transaction/"),
});

/** "Active network entry": each of its networks. */
const ActiveNetwork = resource("ActiveNetwork", {
  networkName: str("Tron (TRC20)"),
  networkCode: str("TRX"),
  minimumDeposit: num(),
  depositFee: num(),
  minimumWithdrawal: num(),
  withdrawalFee: num(),
  maximumDecimalPlaces: int(),
  receiveFeeType: closedEnum("FLAT", "PERCENTAGE"),
  withdrawalFeeType: closedEnum("FLAT", "PERCENTAGE"),
  isReceivable: bool(),
  isWithdrawable: bool(),
});

/** "Active network entry": currencyName and networks. */
const ActiveNetworkEntry = resource("ActiveNetworkEntry", {
  currencyName: str("Tether"),
  networks: arrayOf(ActiveNetwork),
});

/** "Trades summary". */
const TradesSummary = resource("TradesSummary", { totalDollarVolume: num() });

// ---------------------------------------------------------------- envelope and meta

/** Meta shape A (invoices) and B (collection customers, deposits, payouts): all integers. */
export const META: Record<"A" | "B", Field> = {
  A: resource("PageMetaA", { page: int(), pageSize: int(), total: int() }),
  B: resource("PageMetaB", { perPage: int(), currentPage: int(), totalPages: int(), count: int(), total: int() }),
};

/** The timestamp convention (Conventions 4). */
const Timestamp = dateTime();

// ---------------------------------------------------------------- endpoints

export interface ParameterExpectation {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  shape: Field;
}

export interface EndpointExpectation {
  n: number;
  name: string;
  method: "get" | "post" | "put";
  path: string;
  /** "required": the sample carries x-api-key. "notShown": whether a key is required is not shown. */
  key: "required" | "notShown";
  parameters: ParameterExpectation[];
  /**
   * Request body fields (closed object; of `mediaType`, default application/json), or an empty JSON object.
   * Absent: no body.
   */
  requestBody?: { kind: "fields"; fields: Fields; required: string[]; mediaType?: string } | { kind: "emptyObject" };
  /** The body may be left out entirely (an observed fact, see observed.ts); default: a body is required. */
  bodyOptional?: boolean;
  data: Shape;
  meta?: "A" | "B";
}

export const pathParam = (name: string, sample: string): ParameterExpectation => ({
  name,
  in: "path",
  required: true,
  shape: str(sample),
});

export const ENDPOINTS: EndpointExpectation[] = [
  {
    n: 1,
    name: "Get Fiat Rates",
    method: "get",
    path: "/currencies/fiat-rates",
    key: "notShown",
    parameters: [],
    data: arrayOf(FiatRate),
  },
  {
    n: 2,
    name: "Create Quote",
    method: "post",
    path: "/trades/quote",
    key: "required",
    parameters: [],
    // "Which request fields are required: not shown": none is required.
    requestBody: {
      kind: "fields",
      fields: allOptional({
        sourceId: str("USDT"),
        targetId: str("NGNX"),
        amount: num(),
        side: closedEnum("SELL", "BUY"),
      }),
      required: [],
    },
    data: Quote,
  },
  {
    n: 3,
    name: "Accept Quote",
    method: "post",
    path: "/trades/quote/{quoteId}",
    key: "required",
    parameters: [pathParam("quoteId", "qt_8f2KQwZ1x9")],
    requestBody: { kind: "emptyObject" },
    data: Trade,
  },
  {
    n: 4,
    name: "Resend Webhooks",
    method: "post",
    path: "/transactions/resendWebhooks",
    key: "notShown",
    parameters: [],
    requestBody: { kind: "fields", fields: { ids: arrayOf(str("txn-0001")) }, required: ["ids"] },
    data: { kind: "emptyObject" },
  },
  {
    n: 5,
    name: "List my invoices",
    method: "get",
    path: "/invoices/me",
    key: "required",
    // Date filters and pagination parameters: names not shown, so not declared.
    parameters: [{ name: "status", in: "query", required: false, shape: closedEnum(...INVOICE_STATUSES) }],
    data: arrayOf(Invoice),
    meta: "A",
  },
  {
    n: 6,
    name: "Get Collection Customers",
    method: "get",
    path: "/collections/customers/me",
    key: "required",
    parameters: [],
    data: arrayOf(CollectionCustomer),
    meta: "B",
  },
  {
    n: 7,
    name: "Get Collection Customer",
    method: "get",
    path: "/collections/customers/{id}",
    key: "required",
    parameters: [pathParam("id", "cus-0001")],
    data: CollectionCustomer,
  },
  {
    n: 8,
    name: "Get Deposit Addresses",
    method: "get",
    path: "/addresses/me/broker",
    key: "required",
    parameters: [],
    data: arrayOf(DepositAddress),
  },
  {
    n: 9,
    name: "Deposit listing",
    method: "get",
    path: "/transactions/deposits/me",
    key: "notShown",
    parameters: [],
    data: arrayOf(TransactionWithDeposit),
    meta: "B",
  },
  {
    n: 10,
    name: "Payout listing",
    method: "get",
    path: "/transactions/withdrawals/me",
    key: "notShown",
    parameters: [],
    data: arrayOf(TransactionWithPayout),
    meta: "B",
  },
  {
    n: 11,
    name: "Get Withdrawal Currency Networks",
    method: "get",
    path: "/currencies/{id}/networks",
    key: "notShown",
    parameters: [pathParam("id", "cur-usdt-0001")],
    data: arrayOf(WithdrawalNetwork),
  },
  {
    n: 12,
    name: "Trades summary",
    method: "get",
    path: "/trades/summary/me",
    key: "required",
    parameters: [],
    data: TradesSummary,
  },
  {
    n: 13,
    name: "Get Active Networks",
    method: "get",
    path: "/currencies/networks/active",
    key: "notShown",
    parameters: [],
    data: { kind: "map", sampleKey: "USDT", values: ActiveNetworkEntry },
  },
  {
    n: 14,
    name: "Get Trade Pair",
    method: "get",
    path: "/trades/pairs/{sourceCode}/{targetCode}",
    key: "notShown",
    parameters: [pathParam("sourceCode", "USDT"), pathParam("targetCode", "NGNX")],
    data: Pair,
  },
  {
    n: 15,
    name: "Get Wallet Balance",
    method: "get",
    path: "/wallets/USDT",
    key: "notShown",
    parameters: [],
    data: WalletWithCurrency,
  },
  {
    n: 16,
    name: "Get User Transactions",
    method: "get",
    path: "/transactions/me",
    key: "notShown",
    parameters: [],
    data: arrayOf(TransactionWithWallet),
  },
];

/** "Authentication": the key travels in this header. */
export const API_KEY_HEADER = "x-api-key";

/** "Limits": every response carries these headers (names are case-insensitive). */
export const RATE_LIMIT_HEADERS = ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"] as const;

export { SAMPLE_TIME };

/**
 * Every resource that is a component schema of its own, each probed once at #/components/schemas/<name>.
 * (The conformance test checks that every resource marked with a component, wherever it is embedded, is here.)
 */
export const COMPONENTS: Field[] = [
  Timestamp,
  FiatRate,
  Quote,
  Currency,
  Pair,
  Trade,
  Wallet,
  Transaction,
  Deposit,
  Payout,
  BankAccount,
  Invoice,
  CollectionCustomer,
  DepositAddress,
  WithdrawalNetwork,
  ActiveNetwork,
  ActiveNetworkEntry,
  TradesSummary,
  META.A,
  META.B,
];
