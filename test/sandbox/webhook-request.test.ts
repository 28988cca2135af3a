// pins: webhooks.request, webhooks.destination
// A webhook is POSTed to the account's webhookUrl with exactly two headers of its own, Content-Type:
// application/json and x-obiex-signature (128 lowercase hex digits: HMAC-SHA512), its body the outbox's bytes,
// redirects not followed. The fetch is the one the sandbox is given here (webhooks.fetch), so the request is seen
// as the sandbox builds it, before any header the HTTP stack adds.
import { describe, expect, it } from "vitest";
import { deposit, SECRET } from "./support/receiver.js";
import { newSandbox } from "./support/sandbox.js";

describe("a webhook request", () => {
  it("is a POST to the webhookUrl with Content-Type and the lowercase hex signature, no other header", async () => {
    const seen: Array<{ url: string; init: RequestInit }> = [];
    const spy: typeof fetch = async (input, init) => {
      seen.push({ url: String(input), init: init ?? {} });
      return new Response(null, { status: 204 });
    };
    const sandbox = newSandbox({ webhooks: { fetch: spy } });
    sandbox.putAccount("key-a", { webhookUrl: "https://receiver.test/hooks", webhookSecret: SECRET });
    await deposit(sandbox, "key-a");
    await sandbox.webhooks.settled();
    const [webhook] = await sandbox.webhooks.list("key-a");
    expect(webhook).toMatchObject({ status: "delivered", attempts: [{ status: 204 }] });
    expect(seen).toHaveLength(1);
    const [{ url, init }] = seen as [{ url: string; init: RequestInit }];
    expect([url, init.method, init.redirect, init.body]).toEqual([
      "https://receiver.test/hooks",
      "POST",
      "manual",
      webhook!.body,
    ]);
    expect(init.headers).toEqual({ "content-type": "application/json", "x-obiex-signature": webhook!.signature });
    expect(webhook!.signature).toMatch(/^[0-9a-f]{128}$/);
  });
});
