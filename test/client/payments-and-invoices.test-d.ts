// Type tests of the invoice, upload, NGN and GHS payment operations the official client sends (issue 20), checked
// by tsc (`npm run typecheck`) and by vitest's typecheck: required query parameters, the one account of the GHS
// resolve call against the NGN call's list, the multipart upload and its answer's data.url, the PUTs without a
// body and untyped fields.
import { describe, expectTypeOf, it } from "vitest";
import type {
  ApiClient,
  FiatMerchant,
  Invoice,
  NairaPayment,
  ResolvedAccount,
  UploadedInvoiceDocument,
} from "../../src/index.js";

declare const client: ApiClient;

describe("the invoice and payment operations of the official client", () => {
  it("requires both query parameters of the resolve calls", () => {
    void client.GET("/ngn-payments/accounts/resolve", { params: { query: { bankId: "b", accountNumber: "1" } } });
    void client.GET("/ghs-payments/accounts/resolve", { params: { query: { bankCode: "VOD", accountNumber: "1" } } });
    // @ts-expect-error accountNumber is always sent
    void client.GET("/ngn-payments/accounts/resolve", { params: { query: { bankId: "b" } } });
    // @ts-expect-error bankCode is always sent
    void client.GET("/ghs-payments/accounts/resolve", { params: { query: { accountNumber: "1" } } });
  });

  it("answers one account to the GHS resolve call and a list to the NGN one", async () => {
    const ghs = await client.GET("/ghs-payments/accounts/resolve", {
      params: { query: { bankCode: "VOD", accountNumber: "1" } },
    });
    expectTypeOf(ghs.data?.data).toEqualTypeOf<ResolvedAccount | undefined>();
    const ngn = await client.GET("/ngn-payments/accounts/resolve", {
      params: { query: { bankId: "b", accountNumber: "1" } },
    });
    expectTypeOf(ngn.data?.data).toEqualTypeOf<ResolvedAccount[] | undefined>();
  });

  it("takes page and pageSize (integers, optional) on the merchant listing, and reads FiatMerchant", async () => {
    const merchants = await client.GET("/ngn-payments/merchants", { params: { query: { page: 1, pageSize: 30 } } });
    // openapi-fetch flattens the response type (FiatMerchant is an allOf): compare both ways.
    type Merchants = NonNullable<typeof merchants.data>["data"];
    expectTypeOf<Merchants>().toExtend<FiatMerchant[]>();
    expectTypeOf<FiatMerchant[]>().toExtend<Merchants>();
    void client.GET("/ngn-payments/merchants");
    // @ts-expect-error page is an integer
    void client.GET("/ngn-payments/merchants", { params: { query: { page: "1" } } });
  });

  it("creates an NGN deposit from merchantCode and amount, reading a NairaPayment", async () => {
    const deposit = await client.POST("/ngn-payments/deposits", { body: { merchantCode: "m", amount: 5000 } });
    expectTypeOf(deposit.data?.data).toEqualTypeOf<NairaPayment | undefined>();
    expectTypeOf<NairaPayment["status"]>().toEqualTypeOf<
      "FAILED" | "PENDING" | "PROCESSING" | "CANCELLED" | "COMPLETED"
    >();
    // Untyped (no source gives the type): any value.
    expectTypeOf<NairaPayment["amount"]>().toBeUnknown();
    // @ts-expect-error merchantCode is always sent
    void client.POST("/ngn-payments/deposits", { body: { amount: 5000 } });
  });

  it("sends the PUTs with the payment's reference and no body", () => {
    void client.PUT("/ngn-payments/deposits/{reference}", { params: { path: { reference: "r" } } });
    void client.PUT("/ngn-payments/withdrawals/{reference}", { params: { path: { reference: "r" } } });
    // @ts-expect-error the reference is in the path
    void client.PUT("/ngn-payments/deposits/{reference}");
  });

  it("reads an Invoice with the later client's optional fields, by id or as created", async () => {
    const one = await client.GET("/invoices/{invoiceId}", { params: { path: { invoiceId: "inv" } } });
    expectTypeOf(one.data?.data).toEqualTypeOf<Invoice | undefined>();
    expectTypeOf<Invoice["invoiceDocument"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Invoice["beneficiaryCountryOfResidence"]>().toEqualTypeOf<string | undefined>();
  });

  it("uploads the document as the one multipart body: a `file` part, sent through a body serializer", () => {
    const toFormData = (fields: { file: string }) => {
      const form = new FormData();
      form.append("file", fields.file);
      return form;
    };
    void client.POST("/uploads/invoices", { body: { file: "%PDF-1.7" }, bodySerializer: toFormData });
    // @ts-expect-error the part is named file
    void client.POST("/uploads/invoices", { body: { document: "%PDF-1.7" }, bodySerializer: toFormData });
  });

  it("answers the uploaded document: data.url, a string, as the official client reads it", async () => {
    const toFormData = (fields: { file: string }) => {
      const form = new FormData();
      form.append("file", fields.file);
      return form;
    };
    const uploaded = await client.POST("/uploads/invoices", { body: { file: "%PDF-1.7" }, bodySerializer: toFormData });
    expectTypeOf(uploaded.data?.data).toEqualTypeOf<UploadedInvoiceDocument | undefined>();
    expectTypeOf(uploaded.data?.data.url).toEqualTypeOf<string | undefined>();
    expectTypeOf<UploadedInvoiceDocument["url"]>().toEqualTypeOf<string>();
    // @ts-expect-error data is an object, no longer a bare string
    expectTypeOf(uploaded.data?.data).toEqualTypeOf<string | undefined>();
  });
});
