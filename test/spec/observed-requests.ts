// The requests of §1 and §2 of the shared facts (../shared/observed/README.md, issue "The contract covers the flows
// real clients run"): every request the service's official Node client sends in its 2023 release (C1) and in its
// later release (C2) that the contract did not have, and the query parameters they add to operations it had.
// Written BY HAND from the facts' tables, on purpose NOT read from the spec (like description.ts and observed.ts):
// test/mock/observed-requests.test.ts sends each to the mock and checks that the contract accepts it and its answer.
// Path values are the published samples' where a page shows one, else placeholders of the right kind; the facts give
// no values for them. Published sample request bodies are sent with their values unchanged.

/** Who sends the request: C1, C2, or the published reference page P (its sample request). */
export type FactSource = "C1" | "C2" | "P";

export interface ObservedRequest {
  /** The facts' row, in their words. */
  name: string;
  sources: FactSource[];
  method: "GET" | "POST" | "PUT";
  /** Path and query below the base path, as the client sends them (empty query values are not sent). */
  path: string;
  /** A JSON body, or a multipart form with one file part; none when absent. */
  body?: { json: unknown } | { file: { name: string; type: string; bytes: Uint8Array<ArrayBuffer> } };
}

const CURRENCY_ID = "55456608-8c9f-499d-99b4-15ceafef3212"; // the crypto-withdrawal sample's USDT currency id
const TRANSACTION_ID = "0edb705b-9392-49c7-ad16-76bea0f84faf"; // the bank-withdrawal sample's transaction id
const REFERENCE = "bb976d10-d805-456a-9b3e-5a4ec4c9a026"; // the bank-withdrawal sample's reference
const INVOICE_ID = "3b1f8e52-8f5e-4c36-9d0a-2f7c1e9a4b10";
const BANK_ID = "9f0c3a1e-7d2b-4e8f-a6c5-1b2d3e4f5a6b";
const DATE_FROM = "2026-01-01";
const DATE_TO = "2026-01-31";

/** A one-page PDF's first bytes: enough for a multipart part typed application/pdf (the facts give no file). */
const PDF_BYTES = new TextEncoder().encode("%PDF-1.4\n%\u00e2\u00e3\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");

/** §1: requests the clients send that the contract did not have. */
export const SECTION_1: ObservedRequest[] = [
  { name: "GET /currencies", sources: ["C1", "C2"], method: "GET", path: "/currencies" },
  { name: "GET /currencies/tradeable", sources: ["C2"], method: "GET", path: "/currencies/tradeable" },
  {
    name: "GET /currencies/{currencyId}/pairs",
    sources: ["C1", "C2"],
    method: "GET",
    path: `/currencies/${CURRENCY_ID}/pairs`,
  },
  { name: "GET /trades/pairs", sources: ["C1", "C2"], method: "GET", path: "/trades/pairs" },
  {
    name: "GET /trades/me (trade history)",
    sources: ["C1", "C2"],
    method: "GET",
    path: "/trades/me?page=1&pageSize=30",
  },
  {
    name: "POST /addresses/broker, the page's sample (uniqueUserIdentifier)",
    sources: ["C2", "P"],
    method: "POST",
    path: "/addresses/broker",
    body: { json: { uniqueUserIdentifier: "urbjreghuhubqvehvf", currency: "ETH", network: "ETH" } },
  },
  {
    name: "POST /addresses/broker, the identifier sent as purpose",
    sources: ["C1"],
    method: "POST",
    path: "/addresses/broker",
    body: { json: { purpose: "customer-0042", currency: "USDT", network: "TRX" } },
  },
  {
    name: "POST /wallets/ext/debit/crypto, the page's sample",
    sources: ["C1", "C2", "P"],
    method: "POST",
    path: "/wallets/ext/debit/crypto",
    body: {
      json: {
        destination: { address: "wallet-address", network: "", memo: "" },
        amount: 1,
        currency: "string",
        narration: "string",
      },
    },
  },
  {
    name: "POST /wallets/ext/debit/fiat, the page's sample",
    sources: ["C2", "P"],
    method: "POST",
    path: "/wallets/ext/debit/fiat",
    body: {
      json: {
        destination: { accountNumber: "", accountName: "", bankName: "", bankCode: "" },
        amount: 1,
        currency: "string",
        narration: "string",
      },
    },
  },
  {
    name: "POST /wallets/ext/debit/fiat, currency NGNX and a merchantCode in destination",
    sources: ["C1"],
    method: "POST",
    path: "/wallets/ext/debit/fiat",
    body: {
      json: {
        destination: {
          accountNumber: "0123456789",
          accountName: "Jane Doe",
          bankName: "OPAY",
          bankCode: "100004",
          merchantCode: "MRC-0001",
        },
        amount: 15000,
        currency: "NGNX",
        narration: "first withdrawal",
      },
    },
  },
  { name: "GET /wallets/me", sources: ["C2"], method: "GET", path: "/wallets/me" },
  {
    name: "GET /transactions/{transactionId}",
    sources: ["C1", "C2"],
    method: "GET",
    path: `/transactions/${TRANSACTION_ID}`,
  },
  {
    name: "POST /transactions/{transactionId}/resendWebhook",
    sources: ["C2"],
    method: "POST",
    path: `/transactions/${TRANSACTION_ID}/resendWebhook`,
  },
  {
    name: "POST /invoices",
    sources: ["C2"],
    method: "POST",
    path: "/invoices",
    body: {
      json: {
        targetAmount: 1500,
        source: "NGNX",
        target: "USD",
        purposeOfPayment: "Payment for goods",
        invoiceDocument: "https://uploads.example/invoices/inv-0042.pdf",
        destination: {
          accountName: "Acme Supplies Ltd",
          accountNumber: "12345678",
          swiftCode: "BARCGB22",
          bankName: "Barclays",
          bankCode: "BARC",
          bankCountry: "GB",
          bankAddress: "1 Churchill Place, London",
          beneficiaryName: "Acme Supplies Ltd",
          beneficiaryAddress: "2 High Street, London",
          beneficiaryCountryCode: "GB",
          beneficiaryCountryOfResidence: "GB",
        },
      },
    },
  },
  { name: "GET /invoices/{invoiceId}", sources: ["C2"], method: "GET", path: `/invoices/${INVOICE_ID}` },
  {
    name: "POST /uploads/invoices (multipart, one part file)",
    sources: ["C2"],
    method: "POST",
    path: "/uploads/invoices",
    body: { file: { name: "invoice.pdf", type: "application/pdf", bytes: PDF_BYTES } },
  },
  { name: "GET /ngn-payments/banks", sources: ["C1", "C2"], method: "GET", path: "/ngn-payments/banks" },
  {
    name: "GET /ngn-payments/merchants",
    sources: ["C1", "C2"],
    method: "GET",
    path: "/ngn-payments/merchants?page=1&pageSize=30",
  },
  {
    name: "GET /ngn-payments/accounts/resolve",
    sources: ["C1", "C2"],
    method: "GET",
    path: `/ngn-payments/accounts/resolve?bankId=${BANK_ID}&accountNumber=0123456789`,
  },
  {
    name: "POST /ngn-payments/deposits",
    sources: ["C1", "C2"],
    method: "POST",
    path: "/ngn-payments/deposits",
    body: { json: { merchantCode: "MRC-0001", amount: 5000 } },
  },
  {
    name: "PUT /ngn-payments/deposits/{reference}",
    sources: ["C1", "C2"],
    method: "PUT",
    path: `/ngn-payments/deposits/${REFERENCE}`,
  },
  {
    name: "PUT /ngn-payments/withdrawals/{reference}",
    sources: ["C1", "C2"],
    method: "PUT",
    path: `/ngn-payments/withdrawals/${REFERENCE}`,
  },
  { name: "GET /ghs-payments/banks", sources: ["C2"], method: "GET", path: "/ghs-payments/banks" },
  { name: "GET /ghs-payments/mobile/networks", sources: ["C2"], method: "GET", path: "/ghs-payments/mobile/networks" },
  {
    name: "GET /ghs-payments/accounts/resolve (a mobile network code)",
    sources: ["C2"],
    method: "GET",
    path: "/ghs-payments/accounts/resolve?bankCode=MTN&accountNumber=0241234567",
  },
];

/** §2: query parameters the clients send to operations the contract had (status values: see the test). */
export const SECTION_2: Array<Omit<ObservedRequest, "path"> & { path: (status: Record<string, string>) => string }> = [
  {
    name: "Get Trades Summary with currencyId, page, pageSize",
    sources: ["C2"],
    method: "GET",
    path: () => `/trades/summary/me?currencyId=${CURRENCY_ID}&page=1&pageSize=30`,
  },
  {
    name: "Deposits with page, pageSize, currencyId, status, startDate, endDate",
    sources: ["C2"],
    method: "GET",
    path: ({ deposit }) =>
      `/transactions/deposits/me?page=1&pageSize=30&currencyId=${CURRENCY_ID}&status=${deposit}` +
      `&startDate=${DATE_FROM}&endDate=${DATE_TO}`,
  },
  {
    name: "Payouts with page, pageSize, currencyId, status, startDate, endDate",
    sources: ["C2"],
    method: "GET",
    path: ({ payout }) =>
      `/transactions/withdrawals/me?page=1&pageSize=30&currencyId=${CURRENCY_ID}&status=${payout}` +
      `&startDate=${DATE_FROM}&endDate=${DATE_TO}`,
  },
  {
    name: "List my invoices with status, startDate, endDate, page, pageSize",
    sources: ["C2"],
    method: "GET",
    path: ({ invoice }) =>
      `/invoices/me?status=${invoice}&startDate=${DATE_FROM}&endDate=${DATE_TO}&page=1&pageSize=30`,
  },
  {
    name: "Get Deposit Addresses with page, pageSize",
    sources: ["C2"],
    method: "GET",
    path: () => "/addresses/me/broker?page=1&pageSize=30",
  },
  ...["DEPOSIT", "WITHDRAWAL", "SWAP", "TRANSFER"].map((category) => ({
    name: `Get User Transactions with category ${category}`,
    sources: ["C1", "C2"] as FactSource[],
    method: "GET" as const,
    path: () => `/transactions/me?category=${category}`,
  })),
];
