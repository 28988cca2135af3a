// Type tests of the webhook payload types a receiver imports from the package (generated from the spec's
// webhooks): each has `type` and `status` (open strings), `hash` string | null, `network` optional, and the
// `webhooks` interface holds both webhooks with their signature header.
import { describe, expectTypeOf, it } from "vitest";
import type { DepositWebhook, WebhookPayload, webhooks, WithdrawalWebhook } from "../../src/index.js";

type Body<W extends keyof webhooks> = NonNullable<webhooks[W]["post"]["requestBody"]>["content"]["application/json"];
type Header<W extends keyof webhooks> = webhooks[W]["post"]["parameters"]["header"];

describe("webhook payload types", () => {
  it("give every payload a type and a status, both open strings", () => {
    expectTypeOf<WebhookPayload["type"]>().toEqualTypeOf<string>();
    expectTypeOf<WebhookPayload["status"]>().toEqualTypeOf<string>();
    expectTypeOf<DepositWebhook["type"]>().toEqualTypeOf<string>();
    expectTypeOf<DepositWebhook["status"]>().toEqualTypeOf<string>();
    expectTypeOf<WithdrawalWebhook["type"]>().toEqualTypeOf<string>();
    expectTypeOf<WithdrawalWebhook["status"]>().toEqualTypeOf<string>();
  });

  it("type hash as string | null, the timestamps as strings and network as optional", () => {
    expectTypeOf<DepositWebhook["hash"]>().toEqualTypeOf<string | null>();
    expectTypeOf<WithdrawalWebhook["createdAt"]>().toEqualTypeOf<string>();
    expectTypeOf<WithdrawalWebhook["amount"]>().toEqualTypeOf<number>();
    expectTypeOf<WithdrawalWebhook["network"]>().toEqualTypeOf<string | undefined>();
    // @ts-expect-error transactionId is required
    const missing: DepositWebhook = { type: "DEPOSIT", status: "CONFIRMED" };
    void missing;
  });

  it("type the webhooks' bodies and their required signature header", () => {
    expectTypeOf<Body<"deposit">>().toEqualTypeOf<DepositWebhook>();
    expectTypeOf<Body<"withdrawal">>().toEqualTypeOf<WithdrawalWebhook>();
    expectTypeOf<Header<"deposit">["x-obiex-signature"]>().toEqualTypeOf<string>();
    expectTypeOf<keyof webhooks>().toEqualTypeOf<"deposit" | "withdrawal">();
  });
});
