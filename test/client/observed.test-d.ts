// Type tests of the observed additions (checked by tsc: `npm run typecheck`, and by vitest's typecheck).
import { describe, expectTypeOf, it } from "vitest";
import {
  createClient,
  type ApiClient,
  type ClientOptions,
  type CreatedDepositAddress,
  type Wallet,
  type WalletWithCurrency,
} from "../../src/index.js";
import type { paths } from "../../src/types.js";

declare const client: ApiClient;

describe("observed in a real client", () => {
  it("takes page, pageSize and category on Get User Transactions", () => {
    type Query = NonNullable<paths["/transactions/me"]["get"]["parameters"]["query"]>;
    expectTypeOf<Query>().toEqualTypeOf<{ page?: number; pageSize?: number; category?: string }>();
    void client.GET("/transactions/me", { params: { query: { page: 1, pageSize: 30, category: "DEPOSIT" } } });
    void client.GET("/transactions/me", { params: { query: { category: "A_CATEGORY_NOT_SEEN_YET" } } });
    // @ts-expect-error page is an integer, not a string
    void client.GET("/transactions/me", { params: { query: { page: "1" } } });
    // @ts-expect-error an undeclared query parameter
    void client.GET("/transactions/me", { params: { query: { limit: 10 } } });
  });

  it("calls /wallets/{currencyCode} for another code, and keeps /wallets/USDT typed as before", async () => {
    // openapi-fetch flattens the response type: compare both ways.
    const other = await client.GET("/wallets/{currencyCode}", { params: { path: { currencyCode: "NGNX" } } });
    type OtherWallet = NonNullable<typeof other.data>["data"];
    expectTypeOf<OtherWallet>().toExtend<WalletWithCurrency>();
    expectTypeOf<WalletWithCurrency>().toExtend<OtherWallet>();
    const usdt = await client.GET("/wallets/USDT");
    expectTypeOf(usdt.data?.data).toExtend<WalletWithCurrency | undefined>();
    // @ts-expect-error the template needs its currency code
    void client.GET("/wallets/{currencyCode}");
  });

  it("sends Accept Quote with no body or with {}, and nothing else", () => {
    void client.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: "qt_1" } } });
    void client.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: "qt_1" } }, body: {} });
    // @ts-expect-error the body is an empty object
    void client.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: "qt_1" } }, body: { confirm: true } });
  });

  it("takes apiSecret as a string option", () => {
    expectTypeOf<ClientOptions["apiSecret"]>().toEqualTypeOf<string | undefined>();
    void createClient({ baseUrl: "https://api.example.com/v1", apiKey: "key", apiSecret: "secret" });
    // @ts-expect-error the secret is a string
    void createClient({ baseUrl: "https://api.example.com/v1", apiKey: "key", apiSecret: 42 });
  });

  it("calls /wallets/me for all the caller's wallets (a list), not the template with the code `me`", async () => {
    const wallets = await client.GET("/wallets/me");
    type Wallets = NonNullable<typeof wallets.data>["data"];
    expectTypeOf<Wallets>().toExtend<Wallet[]>();
    expectTypeOf<Wallet[]>().toExtend<Wallets>();
  });

  it("sends Create Deposit Address with uniqueUserIdentifier or its former name purpose", async () => {
    void client.POST("/addresses/broker", { body: { currency: "ETH", network: "ETH", uniqueUserIdentifier: "u-1" } });
    void client.POST("/addresses/broker", { body: { currency: "ETH", network: "ETH", purpose: "u-1" } });
    // @ts-expect-error the network is required
    void client.POST("/addresses/broker", { body: { currency: "ETH", uniqueUserIdentifier: "u-1" } });
    const created = await client.POST("/addresses/broker", { body: { currency: "ETH", network: "ETH" } });
    expectTypeOf(created.data?.data).toExtend<CreatedDepositAddress | undefined>();
    expectTypeOf<CreatedDepositAddress["purpose"]>().toEqualTypeOf<string>();
  });

  it("sends both withdrawals as the pages publish them, with the 2023 client's merchantCode", () => {
    const destination = { address: "a", network: "BSC" };
    void client.POST("/wallets/ext/debit/crypto", { body: { amount: 1, currency: "USDT", destination } });
    void client.POST("/wallets/ext/debit/crypto", {
      // @ts-expect-error the destination's network is required
      body: { amount: 1, currency: "USDT", destination: { address: "a" } },
    });
    const bank = { accountNumber: "1", accountName: "A", bankName: "B", bankCode: "C" };
    void client.POST("/wallets/ext/debit/fiat", { body: { amount: 1, currency: "NGNX", destination: bank } });
    void client.POST("/wallets/ext/debit/fiat", {
      body: { amount: 1, currency: "NGNX", destination: { ...bank, merchantCode: "M" }, narration: "n" },
    });
  });
});
