// What the sandbox does not model yet (the register's "answers.unmodelled"): those operations answer their
// documented example, and Prefer picks another documented answer as in the mock; the modelled operations answer
// from the state whatever Prefer asks.
import { describe, expect, it } from "vitest";
import { UNMODELLED_OPERATIONS } from "../../src/sandbox/operations/index.js";
import { successExample } from "../support/spec.js";
import { api, newSandbox } from "./support/sandbox.js";

describe("operations the sandbox does not model yet", () => {
  it("answer their documented example", async () => {
    expect(UNMODELLED_OPERATIONS).toContain("listMyInvoices");
    const sandbox = newSandbox();
    const invoices = await api(sandbox, "GET", "/invoices/me");
    expect(invoices.status).toBe(200);
    expect(invoices.body).toEqual(successExample("listMyInvoices"));
  });

  it("take Prefer as the mock does", async () => {
    const sandbox = newSandbox();
    const limited = await api(sandbox, "GET", "/invoices/me", undefined, { headers: { prefer: "code=429" } });
    expect(limited.status).toBe(429);
    expect(limited.violations).toEqual([]);
  });

  it("while a modelled operation answers from the state whatever Prefer asks", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 3 } } } });
    const wallet = await api(sandbox, "GET", "/wallets/USDT", undefined, { headers: { prefer: "code=429" } });
    expect(wallet.status).toBe(200);
    expect(wallet.body.data.availableBalance).toBe(3);
  });
});
