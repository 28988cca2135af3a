// The typed control client (createSandboxControl): each method answers its documented success, in-process
// through sandbox.fetch and over HTTP alike; any other answer throws a SandboxControlError with the status and
// the control API's message, so a set-up step that was refused never passes for done.
import { describe, expect, it } from "vitest";
import { createSandboxControl } from "../../src/sandbox/index.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { api, newSandbox, rejectionOf, START } from "./support/sandbox.js";

describe("the typed control client", () => {
  it("sets an in-process sandbox up: an account, a deposit, the clock, webhooks and the register", async () => {
    const sandbox = newSandbox();
    const control = createSandboxControl({ baseUrl: "http://sandbox.local/v1", fetch: sandbox.fetch });
    const account = await control.putAccount("key-a", { balances: { USDT: 100 }, business: true });
    expect(account).toMatchObject({ apiKey: "key-a", business: true, hasApiSecret: false });
    expect(account.balances.USDT).toBe(100);
    const deposit = await control.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 25 });
    expect([deposit.type, deposit.amount]).toEqual(["CREDIT", 25]);
    expect((await api(sandbox, "GET", `/transactions/${deposit.id}`)).status).toBe(200);
    expect((await control.getAccount("key-a")).balances.USDT).toBe(125);
    expect(await control.advanceClock(30_000)).toMatchObject({ now: START + 30_000 });
    expect((await control.webhooks("key-a")).length).toBe(1);
    expect((await control.choices()).some((choice) => choice.id === "accounts.business")).toBe(true);
    await control.putAccount("key-s", { apiSecret: "s3cret" });
    type State = { accounts: Record<string, { apiSecret?: string }> };
    const secretOf = (state: State) => state.accounts["key-s"]?.apiSecret;
    expect([secretOf(await control.state()), secretOf(await control.state({ secrets: true }))]).toEqual([
      undefined,
      "s3cret",
    ]);
    expect(await control.deleteAccount("key-a")).toBeUndefined();
  });

  it("throws the control API's refusal with its status and message, never a body it did not document", async () => {
    const sandbox = newSandbox();
    const control = createSandboxControl({ baseUrl: "http://sandbox.local", fetch: sandbox.fetch });
    const refused = await rejectionOf(control.putAccount("key-a", { balances: { EUR: 1 } }));
    expect([refused.operation, refused.status]).toEqual(["putSandboxAccount", 400]);
    expect(refused.detail).toContain("EUR");
    const missing = await rejectionOf(control.getAccount("nobody"));
    expect([missing.status, missing.message]).toEqual([
      404,
      "getSandboxAccount: the sandbox answered 404: No sandbox account for the API key nobody",
    ]);
  });

  it("sends the control token over HTTP, and says 401 without it", async () => {
    const started = await startSandbox({ port: 0, quiet: true, controlToken: "t0ken" });
    try {
      const without = createSandboxControl({ baseUrl: started.baseUrl });
      expect((await rejectionOf(without.clock())).status).toBe(401);
      const withToken = createSandboxControl({ baseUrl: started.baseUrl, token: "t0ken" });
      expect(await withToken.putAccount("key-b", { balances: { USDT: 5 } })).toMatchObject({ apiKey: "key-b" });
      expect((await withToken.getAccount("key-b")).balances.USDT).toBe(5);
    } finally {
      await started.stop();
    }
  });
});
