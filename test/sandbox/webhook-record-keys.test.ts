// A webhook with no URL or that resends nothing has no such key at all, not one holding undefined: in the state
// (snapshot) and in the in-process listing, as in their JSON.
import { describe, expect, it } from "vitest";
import { api, newSandbox, stateOf } from "./support/sandbox.js";
import { SECRET } from "./support/receiver.js";

const deposit = { apiKey: "key-a", currency: "USDT", network: "TRX", amount: 25 } as const;

describe("webhook records", () => {
  it("hold no url or resendOf key when there is none, in the state and the in-process listing", async () => {
    const sandbox = newSandbox({ webhooks: { onWebhook: () => 200 } });
    sandbox.putAccount("key-a", { webhookSecret: SECRET });
    const { id } = sandbox.deposit(deposit);
    expect((await api(sandbox, "POST", `/transactions/${id}/resendWebhook`)).status).toBe(200);
    await sandbox.webhooks.settled();
    const [made, resent] = stateOf(sandbox).accounts["key-a"]!.outbox;
    expect(made).not.toHaveProperty("url");
    expect(made).not.toHaveProperty("resendOf");
    expect(resent).not.toHaveProperty("url");
    expect(resent!.resendOf).toBe(made!.id);
    const [listed, listedResent] = await sandbox.webhooks.list("key-a");
    expect(listed).not.toHaveProperty("resendOf");
    expect(listed!.url).toBeNull();
    expect(listedResent!.resendOf).toBe(made!.id);
  });
});
