// Type tests (checked by `npm run typecheck`) plus a runtime pass over the same calls.
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import {
  createClient,
  unwrap,
  type ApiClient,
  type Invoice,
  type Quote,
  type Side,
  type Trade,
  type TradesSummaryResponse,
  SideValues,
} from "../../src/index.js";
import type { components, operations, paths } from "../../src/types.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";
import { basePath, successExample } from "./support/spec.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Compile-time only: every line marked @ts-expect-error must fail to compile. */
function compileOnly(client: ApiClient): void {
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
  void client.GET("/invoices/me", { params: { query: { status: "PENDING" } }, timeoutMs: 5000, retry: { retries: 1 } });
  void client.POST("/trades/quote", { body: { side: "SELL" }, retry: true });
}

describe("typed calls", () => {
  it("narrow data after checking error, per operation", async () => {
    server = await startServer((req, res) => {
      if (req.url?.startsWith(`${basePath}/trades/quote/`)) return sendJson(res, 200, successExample("acceptQuote"));
      if (req.url === `${basePath}/trades/quote`) return sendJson(res, 200, successExample("createQuote"));
      if (req.url === `${basePath}/trades/summary/me`) return sendJson(res, 200, successExample("getTradesSummary"));
      return sendJson(res, 200, successExample("listMyInvoices"));
    });
    const client = createClient({ baseUrl: server.baseUrl, apiKey: "k" });
    expect(typeof compileOnly).toBe("function");

    const created = await client.POST("/trades/quote", { body: { sourceId: "USDT", targetId: "NGNX", amount: 10, side: "SELL" } });
    // The error body is any JSON value (its shape is not shown; JSON `null`, `0`, `""` are falsy), so
    // `if (error)` cannot narrow; `error !== undefined` and `data === undefined` do.
    const summary = await client.GET("/trades/summary/me");
    const { data: summaryData, error: summaryError } = summary;
    if (summaryError === undefined) expectTypeOf(summaryData).toExtend<TradesSummaryResponse>();
    // @ts-expect-error without a check, data may be undefined
    expectTypeOf(summary.data).toExtend<TradesSummaryResponse>();
    if (created.data === undefined) throw new Error(`unexpected error ${String(created.error)}`);
    expectTypeOf(created.data.data).toEqualTypeOf<Quote>();
    expectTypeOf(created.data.data.side).toEqualTypeOf<Side>();
    expect(SideValues).toContain(created.data.data.side);

    const accepted = await client.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: created.data.data.id } }, body: {} });
    if (accepted.data !== undefined) {
      // Mutually assignable (openapi-fetch maps response types through Readable<>, so not identical).
      expectTypeOf(accepted.data.data).toExtend<Trade>();
      expectTypeOf<Trade>().toExtend<typeof accepted.data.data>();
      expectTypeOf(accepted.data.data.pair.isLimitOrderEnabled).toEqualTypeOf<boolean>();
    }
    expect(accepted.data?.data.id).not.toBe(created.data.data.id);

    const invoices = await unwrap(client.GET("/invoices/me", { params: { query: { status: "PENDING" } } }));
    expectTypeOf(invoices.data).toEqualTypeOf<Invoice[]>();
    expectTypeOf(invoices.meta).toEqualTypeOf<components["schemas"]["PageMetaA"]>();
    expect(Array.isArray(invoices.data)).toBe(true);
    expect(server.requests.map((r) => r.url)).toEqual(
      ["/trades/quote", "/trades/summary/me", `/trades/quote/${created.data.data.id}`, "/invoices/me?status=PENDING"].map((p) => `${basePath}${p}`),
    );
  });

  it("exposes the generated types from the ./types entry", () => {
    expectTypeOf<paths["/trades/quote"]["post"]>().toEqualTypeOf<operations["createQuote"]>();
    expectTypeOf<Quote>().toEqualTypeOf<components["schemas"]["Quote"]>();
    expect(SideValues.length).toBeGreaterThan(0);
  });
});
