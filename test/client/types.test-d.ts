// Type tests of the typed client and the ./types entry: compile-only (vitest's typecheck and `npm run typecheck`);
// every line marked @ts-expect-error must fail to compile.
import { describe, expectTypeOf, it } from "vitest";
import {
  type ApiClient,
  type Invoice,
  type Quote,
  type Side,
  type Trade,
  type TradesSummaryResponse,
  unwrap,
} from "../../src/index.js";
import type { components, operations, paths } from "../../src/types.js";

declare const client: ApiClient;

describe("typed calls", () => {
  it("refuse what the contract does not allow", () => {
    // @ts-expect-error a path that is not in the contract
    void client.GET("/currencies/rates");
    // @ts-expect-error GET is not defined on a POST-only path
    void client.GET("/trades/quote");
    // @ts-expect-error a wrong enum value for side
    void client.POST("/trades/quote", { body: { sourceId: "USDT", targetId: "NGNX", amount: 1, side: "HOLD" } });
    // @ts-expect-error a wrong body field type
    void client.POST("/trades/quote", { body: { sourceId: "USDT", amount: "10" } });
    // @ts-expect-error the required body field `ids` is missing
    void client.POST("/transactions/resendWebhooks", { body: {} });
    // @ts-expect-error ids must be strings
    void client.POST("/transactions/resendWebhooks", { body: { ids: [1] } });
    // @ts-expect-error a wrong parameter type (path parameter must be a string)
    void client.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: 42 } }, body: {} });
    // @ts-expect-error the path parameter is required
    void client.GET("/collections/customers/{id}");
    // @ts-expect-error a wrong query enum value
    void client.GET("/invoices/me", { params: { query: { status: "PAID" } } });
    // @ts-expect-error a per-request timeout must be a number
    void client.GET("/wallets/USDT", { timeoutMs: "5s" });
    // @ts-expect-error retry takes boolean or retry options
    void client.POST("/trades/quote", { body: {}, retry: "yes" });
  });

  it("accept what it allows, with this client's per-request options", () => {
    void client.GET("/invoices/me", {
      params: { query: { status: "PENDING" } },
      timeoutMs: 5000,
      retry: { retries: 1 },
      maxResponseBytes: 1024,
    });
    void client.POST("/trades/quote", { body: { side: "SELL" }, retry: true });
    void client.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: "q-1" } }, body: {} });
  });

  it("narrow data after checking error, per operation", async () => {
    // The error body is any JSON value (its shape is not shown; JSON `null`, `0`, `""` are falsy), so
    // `if (error)` cannot narrow; `error !== undefined` and `data === undefined` do.
    const summary = await client.GET("/trades/summary/me");
    const { data: summaryData, error: summaryError } = summary;
    if (summaryError === undefined) expectTypeOf(summaryData).toExtend<TradesSummaryResponse>();
    // @ts-expect-error without a check, data may be undefined
    expectTypeOf(summary.data).toExtend<TradesSummaryResponse>();

    const created = await client.POST("/trades/quote", {
      body: { sourceId: "USDT", targetId: "NGNX", amount: 10, side: "SELL" },
    });
    if (created.data === undefined) return;
    expectTypeOf(created.data.data).toEqualTypeOf<Quote>();
    expectTypeOf(created.data.data.side).toEqualTypeOf<Side>();

    const accepted = await client.POST("/trades/quote/{quoteId}", {
      params: { path: { quoteId: created.data.data.id } },
      body: {},
    });
    if (accepted.data !== undefined) {
      // Mutually assignable (openapi-fetch maps response types through Readable<>, so not identical).
      expectTypeOf(accepted.data.data).toExtend<Trade>();
      expectTypeOf<Trade>().toExtend<typeof accepted.data.data>();
      expectTypeOf(accepted.data.data.pair.isLimitOrderEnabled).toEqualTypeOf<boolean>();
    }
  });

  it("unwrap gives the success body", async () => {
    const invoices = await unwrap(client.GET("/invoices/me", { params: { query: { status: "PENDING" } } }));
    expectTypeOf(invoices.data).toEqualTypeOf<Invoice[]>();
    expectTypeOf(invoices.meta).toEqualTypeOf<components["schemas"]["PageMetaA"]>();
  });
});

describe("the ./types entry", () => {
  it("exposes the generated types under stable names", () => {
    expectTypeOf<paths["/trades/quote"]["post"]>().toEqualTypeOf<operations["createQuote"]>();
    expectTypeOf<Quote>().toEqualTypeOf<components["schemas"]["Quote"]>();
  });
});
