// One typed call per operation through the client against the Prism mock, each response checked by the
// contract validator (./contract) plugged in as middleware. Parameter values and bodies come from the spec's examples.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { contractMiddleware, createBundledContractValidator } from "../../src/contract/index.js";
import {
  createClient,
  unwrap,
  type ApiClient,
  type BankWithdrawalRequest,
  type CreateDepositAddressRequest,
  type CreateInvoiceRequest,
  type CreateNgnDepositRequest,
  type CreateQuoteRequest,
  type CryptoWithdrawalRequest,
  type InvoiceDocumentUpload,
  type ResendWebhooksRequest,
  type InvoiceStatus,
} from "../../src/index.js";
import { listSpecOperations, loadSpec, requestExample } from "../support/spec.js";

const spec = loadSpec();

const parameters = spec.components?.parameters as Record<string, { example?: unknown }>;
const parameter = (name: string): string => String(parameters[name]?.example);

/** A multipart body's fields as FormData, one part each (Upload Invoice Document). */
const toFormData = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
};

const calls: Record<string, (client: ApiClient) => Promise<unknown>> = {
  getFiatRates: (c) => unwrap(c.GET("/currencies/fiat-rates")),
  createQuote: (c) => unwrap(c.POST("/trades/quote", { body: requestExample<CreateQuoteRequest>("createQuote") })),
  acceptQuote: (c) =>
    unwrap(c.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: parameter("QuoteId") } }, body: {} })),
  // Observed: a real client sends no body at all.
  acceptQuoteWithoutBody: (c) =>
    unwrap(c.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: parameter("QuoteId") } } })),
  resendWebhooks: (c) =>
    unwrap(c.POST("/transactions/resendWebhooks", { body: requestExample<ResendWebhooksRequest>("resendWebhooks") })),
  listMyInvoices: (c) =>
    unwrap(c.GET("/invoices/me", { params: { query: { status: parameter("InvoiceStatusFilter") as InvoiceStatus } } })),
  // Issue 20: the invoice, upload, NGN and GHS payment operations of the official client.
  createInvoice: (c) => unwrap(c.POST("/invoices", { body: requestExample<CreateInvoiceRequest>("createInvoice") })),
  getInvoice: (c) =>
    unwrap(c.GET("/invoices/{invoiceId}", { params: { path: { invoiceId: parameter("InvoiceId") } } })),
  uploadInvoiceDocument: (c) =>
    unwrap(
      c.POST("/uploads/invoices", {
        body: requestExample<InvoiceDocumentUpload>("uploadInvoiceDocument"),
        bodySerializer: toFormData,
      }),
    ),
  listNgnBanks: (c) => unwrap(c.GET("/ngn-payments/banks")),
  listNgnMerchants: (c) =>
    unwrap(
      c.GET("/ngn-payments/merchants", {
        params: {
          query: { page: Number(parameter("MerchantsPage")), pageSize: Number(parameter("MerchantsPageSize")) },
        },
      }),
    ),
  resolveNgnAccount: (c) =>
    unwrap(
      c.GET("/ngn-payments/accounts/resolve", {
        params: { query: { bankId: parameter("NgnBankId"), accountNumber: parameter("AccountNumber") } },
      }),
    ),
  createNgnDeposit: (c) =>
    unwrap(c.POST("/ngn-payments/deposits", { body: requestExample<CreateNgnDepositRequest>("createNgnDeposit") })),
  updateNgnDeposit: (c) =>
    unwrap(
      c.PUT("/ngn-payments/deposits/{reference}", { params: { path: { reference: parameter("PaymentReference") } } }),
    ),
  updateNgnWithdrawal: (c) =>
    unwrap(
      c.PUT("/ngn-payments/withdrawals/{reference}", {
        params: { path: { reference: parameter("PaymentReference") } },
      }),
    ),
  listGhsBanks: (c) => unwrap(c.GET("/ghs-payments/banks")),
  listGhsMobileNetworks: (c) => unwrap(c.GET("/ghs-payments/mobile/networks")),
  resolveGhsAccount: (c) =>
    unwrap(
      c.GET("/ghs-payments/accounts/resolve", {
        params: { query: { bankCode: parameter("GhsBankCode"), accountNumber: parameter("AccountNumber") } },
      }),
    ),
  getCollectionCustomers: (c) => unwrap(c.GET("/collections/customers/me")),
  getCollectionCustomer: (c) =>
    unwrap(c.GET("/collections/customers/{id}", { params: { path: { id: parameter("CustomerId") } } })),
  getDepositAddresses: (c) => unwrap(c.GET("/addresses/me/broker")),
  listDeposits: (c) => unwrap(c.GET("/transactions/deposits/me")),
  listPayouts: (c) => unwrap(c.GET("/transactions/withdrawals/me")),
  getWithdrawalCurrencyNetworks: (c) =>
    unwrap(c.GET("/currencies/{id}/networks", { params: { path: { id: parameter("CurrencyId") } } })),
  getTradesSummary: (c) => unwrap(c.GET("/trades/summary/me")),
  getActiveNetworks: (c) => unwrap(c.GET("/currencies/networks/active")),
  getTradePair: (c) =>
    unwrap(
      c.GET("/trades/pairs/{sourceCode}/{targetCode}", {
        params: { path: { sourceCode: parameter("SourceCode"), targetCode: parameter("TargetCode") } },
      }),
    ),
  getWalletBalance: (c) => unwrap(c.GET("/wallets/USDT")),
  getWalletBalanceByCode: (c) =>
    unwrap(c.GET("/wallets/{currencyCode}", { params: { path: { currencyCode: parameter("WalletCurrencyCode") } } })),
  getUserTransactions: (c) => unwrap(c.GET("/transactions/me")),
  // Observed query parameters, with the spec's examples.
  getUserTransactionsWithQuery: (c) =>
    unwrap(
      c.GET("/transactions/me", {
        params: {
          query: {
            page: Number(parameter("TransactionsPage")),
            pageSize: Number(parameter("TransactionsPageSize")),
            category: parameter("TransactionCategoryFilter"),
          },
        },
      }),
    ),
  // Issue 20: the money-flow operations the official clients call and the reference pages publish.
  getCurrencies: (c) => unwrap(c.GET("/currencies")),
  getTradeableCurrencies: (c) => unwrap(c.GET("/currencies/tradeable")),
  getCurrencyPairs: (c) =>
    unwrap(c.GET("/currencies/{id}/pairs", { params: { path: { id: parameter("CurrencyId") } } })),
  getTradePairs: (c) => unwrap(c.GET("/trades/pairs")),
  getTradeHistory: (c) =>
    unwrap(
      c.GET("/trades/me", {
        params: { query: { page: Number(parameter("TradesPage")), pageSize: Number(parameter("TradesPageSize")) } },
      }),
    ),
  createDepositAddress: (c) =>
    unwrap(c.POST("/addresses/broker", { body: requestExample<CreateDepositAddressRequest>("createDepositAddress") })),
  requestCryptoWithdrawal: (c) =>
    unwrap(
      c.POST("/wallets/ext/debit/crypto", { body: requestExample<CryptoWithdrawalRequest>("requestCryptoWithdrawal") }),
    ),
  requestBankWithdrawal: (c) =>
    unwrap(c.POST("/wallets/ext/debit/fiat", { body: requestExample<BankWithdrawalRequest>("requestBankWithdrawal") })),
  getMyWallets: (c) => unwrap(c.GET("/wallets/me")),
  getTransaction: (c) =>
    unwrap(c.GET("/transactions/{transactionId}", { params: { path: { transactionId: parameter("TransactionId") } } })),
  resendTransactionWebhook: (c) =>
    unwrap(
      c.POST("/transactions/{transactionId}/resendWebhook", {
        params: { path: { transactionId: parameter("TransactionId") } },
      }),
    ),
};

/** The operation a call exercises: its name, or the longest operationId it starts with (`acceptQuoteWithoutBody`). */
const operationOf = (name: string): string | undefined =>
  listSpecOperations()
    .map((o) => o.operationId)
    .filter((id) => name.startsWith(id))
    .sort((a, b) => b.length - a.length)[0];

let mock: StartedMock | undefined;
beforeAll(async () => {
  mock = await startMock({ host: "127.0.0.1", port: 0 });
});
afterAll(async () => {
  await mock?.stop();
});

describe("client against the Prism mock", () => {
  it("has a call for every operation of the spec, and no call for anything else", () => {
    expect([...new Set(Object.keys(calls).map(operationOf))].sort()).toEqual(
      listSpecOperations()
        .map((o) => o.operationId)
        .sort(),
    );
  });

  it.each([
    ["unsigned", {}],
    ["signed (apiSecret)", { apiSecret: "mock-secret" }],
  ])("every operation answers 200 with a body that meets the contract, %s", async (_, extra) => {
    const client = createClient({ baseUrl: mock!.baseUrl, apiKey: "test-key", ...extra });
    client.use(contractMiddleware(createBundledContractValidator()));
    for (const [name, call] of Object.entries(calls)) {
      const body = (await call(client)) as { message?: unknown; data?: unknown };
      expect(typeof body.message, name).toBe("string");
      expect(body.data, name).toBeDefined();
      expect(client.rateLimit, name).toMatchObject({
        limit: expect.any(Number),
        remaining: expect.any(Number),
        reset: expect.any(Number),
      });
    }
  });
});
