// The typed control client's methods beyond setting an account up: each reaches its own control operation and
// answers what that operation did (a settled withdrawal, the rates, one key's webhooks, a restored state, a
// deleted account), so a test driving the sandbox through the client sees the sandbox change as it asked.
import { describe, expect, it } from "vitest";
import { createSandboxControl } from "../../src/sandbox/index.js";
import { api, newSandbox, TRX_DESTINATION } from "./support/sandbox.js";

/** A sandbox and its client, in-process. */
function controlled() {
  const sandbox = newSandbox();
  return { sandbox, control: createSandboxControl({ baseUrl: "http://sandbox.local", fetch: sandbox.fetch }) };
}

describe("the typed control client's operations", () => {
  it("settles a withdrawal: FAILED returns its amount and fee to the wallet", async () => {
    const { sandbox, control } = controlled();
    await control.putAccount("key-a", { balances: { USDT: 100 } });
    const withdrawal = await api(sandbox, "POST", "/wallets/ext/debit/crypto", {
      amount: 10,
      currency: "USDT",
      destination: TRX_DESTINATION,
    });
    expect(withdrawal.status).toBe(200);
    expect((await control.getAccount("key-a")).balances.USDT).toBe(89);
    const settled = await control.settleWithdrawal(withdrawal.body.data.id, { status: "FAILED" });
    expect(settled.id).toBe(withdrawal.body.data.id);
    expect((await control.getAccount("key-a")).balances.USDT).toBe(100);
  });

  it("reads the rates and sets one, keeping the others", async () => {
    const { control } = controlled();
    const before = await control.rates();
    expect(before.fiat).toEqual([
      { currency: "NGNX", buyRate: 1652.4, sellRate: 1611.8 },
      { currency: "GHS", buyRate: 15.86, sellRate: 15.21 },
    ]);
    const after = await control.setRates({ dollar: { NGNX: 0.001 } });
    expect(after).toEqual({ fiat: before.fiat, dollar: { ...before.dollar, NGNX: 0.001 } });
    expect((await control.rates()).dollar.NGNX).toBe(0.001);
  });

  it("reads the settings and changes them: with known keys required, a key without an account is refused", async () => {
    const { sandbox, control } = controlled();
    expect(await control.settings()).toEqual({ requireKnownKeys: false });
    expect(await control.putSettings({ requireKnownKeys: true })).toEqual({ requireKnownKeys: true });
    expect(sandbox.settings()).toEqual({ requireKnownKeys: true });
    expect((await api(sandbox, "GET", "/wallets/me", undefined, { key: "stranger" })).status).toBe(401);
  });

  it("lists the webhooks of the key it is given, not those of every key", async () => {
    const { control } = controlled();
    for (const apiKey of ["key-a", "key-b"]) {
      await control.putAccount(apiKey);
      await control.deposit({ apiKey, currency: "USDT", network: "TRX", amount: 5 });
    }
    expect((await control.webhooks()).length).toBe(2);
    const ofA = await control.webhooks("key-a");
    expect(ofA.map((webhook) => webhook.apiKey)).toEqual(["key-a"]);
  });

  it("restores a state it read: an account deleted since comes back with its balance", async () => {
    const { control } = controlled();
    await control.putAccount("key-a", { balances: { USDT: 7 } });
    const saved = await control.state();
    expect(await control.deleteAccount("key-a")).toBeUndefined();
    await expect(control.getAccount("key-a")).rejects.toMatchObject({ status: 404 });
    expect(await control.restore(saved)).toBeUndefined();
    expect((await control.getAccount("key-a")).balances.USDT).toBe(7);
  });
});
