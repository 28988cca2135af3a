// Type tests on generated/schema.d.ts. vitest runs *.test-d.ts files through tsc (its typecheck mode), so
// each `it` below passes or fails on its type assertions; `npm run typecheck` (tsc) checks them too.
import { describe, expectTypeOf, it } from "vitest";
import type { components, paths, CreateQuoteRequest, FiatRate, Quote, Transaction } from "../../generated/schema.js";

type Schemas = components["schemas"];
type CreateQuoteBody = NonNullable<paths["/trades/quote"]["post"]["requestBody"]>["content"]["application/json"];

describe("generated types", () => {
  it("types a quote's side as BUY | SELL", () => {
    expectTypeOf<Quote["side"]>().toEqualTypeOf<"BUY" | "SELL">();
  });

  it("types a fiat rate's base as the constant USDT and its currency as the closed enum", () => {
    expectTypeOf<FiatRate["base"]>().toEqualTypeOf<"USDT">();
    expectTypeOf<FiatRate["currency"]>().toEqualTypeOf<"NGNX" | "GHS">();
  });

  it("types narration as string | null", () => {
    expectTypeOf<Transaction["narration"]>().toEqualTypeOf<string | null>();
  });

  it("types the Create Quote body and rejects an unknown side", () => {
    expectTypeOf<CreateQuoteBody>().toEqualTypeOf<CreateQuoteRequest>();
    const valid: CreateQuoteBody = { sourceId: "USDT", targetId: "NGNX", amount: 100, side: "SELL" };
    // @ts-expect-error HOLD is not a side
    const invalid: CreateQuoteBody = { sourceId: "USDT", targetId: "NGNX", amount: 100, side: "HOLD" };
    // @ts-expect-error amount is a number
    const wrongAmount: CreateQuoteBody = { amount: "100" };
    expectTypeOf(valid.side).toEqualTypeOf<"BUY" | "SELL" | undefined>();
    void invalid;
    void wrongAmount;
  });

  it("has no unknown path", () => {
    expectTypeOf<paths>().toHaveProperty("/trades/quote");
    // @ts-expect-error no such path in the contract
    expectTypeOf<paths["/trades/quotes"]>().not.toBeNever();
    expectTypeOf<keyof paths>().not.toEqualTypeOf<string>();
  });

  it("types open enums as string", () => {
    expectTypeOf<Schemas["TransactionCategory"]>().toEqualTypeOf<string>();
  });

  it("types an error body object as published: message, optional findings with message and any property", () => {
    type PublishedObject = Extract<Schemas["ErrorBody"], { message: string }>;
    expectTypeOf<PublishedObject["message"]>().toEqualTypeOf<string>();
    type Finding = NonNullable<PublishedObject["errors"]>[number];
    expectTypeOf<Finding["message"]>().toEqualTypeOf<string>();
    expectTypeOf<Finding["property"]>().toEqualTypeOf<unknown>();
    const published: Schemas["ErrorBody"] = { message: "m", errors: [{ message: "m" }] };
    const further: Schemas["ErrorBody"] = { message: "m", code: "VALIDATION_ERROR" };
    // Another JSON type still passes (kept open: closing it would be a breaking change).
    const text: Schemas["ErrorBody"] = "text";
    // @ts-expect-error an object must have its message
    const noMessage: Schemas["ErrorBody"] = { errors: [] };
    void [published, further, text, noMessage];
  });

  it("types the empty bodies as empty objects", () => {
    expectTypeOf<Schemas["AcceptQuoteRequest"]>().toEqualTypeOf<Record<string, never>>();
    expectTypeOf<Schemas["EmptyResponse"]["data"]>().toEqualTypeOf<Record<string, never>>();
  });

  it("types the Get Active Networks data as an object keyed by currency code", () => {
    expectTypeOf<Schemas["ActiveNetworksResponse"]["data"]>().toEqualTypeOf<
      Record<string, Schemas["ActiveNetworkEntry"]>
    >();
  });
});
