// pins: rates.update
// The control API answered by sandbox.fetch under /_sandbox: accounts, clock, rates, state, the register and the
// control document, each route as the control document describes it, bodies checked (400), the token required
// when one is set (401), unknown accounts and routes 404; the accounts' secrets only in a state read asking for them.
import { describe, expect, it } from "vitest";
import controlDocument from "../../generated/sandbox-control.json" with { type: "json" };
import { createContractValidator } from "../../src/contract/validator.js";
import type { OpenApiDocument } from "../../src/openapi/document.js";
import { control, newSandbox, START } from "./support/sandbox.js";

const validator = createContractValidator(controlDocument as unknown as OpenApiDocument, { basePaths: [] });

/** A control answer, checked against the control document. */
async function checked(...args: Parameters<typeof control>) {
  const answer = await control(...args);
  const path = new URL(args[2], "http://x").pathname;
  const result = validator.validateResponse({
    method: args[1],
    path,
    status: answer.status,
    headers: answer.headers,
    body: answer.body,
  });
  expect(result.violations).toEqual([]);
  return answer;
}

describe("control API", () => {
  it("puts, reads and deletes an account; the secret itself is never answered", async () => {
    const sandbox = newSandbox();
    const put = await checked(sandbox, "PUT", "/_sandbox/accounts/k1", { balances: { USDT: 5 }, apiSecret: "x" });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ apiKey: "k1", business: false, hasApiSecret: true });
    expect(put.body.balances.USDT).toBe(5);
    expect(JSON.stringify(put.body)).not.toContain('"x"');
    expect((await checked(sandbox, "GET", "/_sandbox/accounts/k1")).body).toEqual(put.body);
    expect((await checked(sandbox, "DELETE", "/_sandbox/accounts/k1")).status).toBe(204);
    const gone = await checked(sandbox, "GET", "/_sandbox/accounts/k1");
    expect(gone.status).toBe(404);
    expect(gone.body.message).toMatch(/k1/);
    expect((await checked(sandbox, "DELETE", "/_sandbox/accounts/k1")).status).toBe(404);
  });

  it("refuses an account body with a field the document lacks, or balances of an unknown currency", async () => {
    const sandbox = newSandbox();
    const extra = await checked(sandbox, "PUT", "/_sandbox/accounts/k1", { balance: {} });
    expect(extra.status).toBe(400);
    const unknown = await checked(sandbox, "PUT", "/_sandbox/accounts/k1", { balances: { EUR: 1 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/EUR/);
    const notJson = await checked(sandbox, "PUT", "/_sandbox/accounts/k1", "{");
    expect(notJson.status).toBe(400);
  });

  it("reads and advances the clock, forward only", async () => {
    const sandbox = newSandbox();
    expect((await checked(sandbox, "GET", "/_sandbox/clock")).body).toEqual({
      now: START,
      iso: new Date(START).toISOString(),
    });
    const moved = await checked(sandbox, "POST", "/_sandbox/clock/advance", { ms: 1500 });
    expect(moved.body.now).toBe(START + 1500);
    expect(sandbox.clock.now()).toBe(START + 1500);
    for (const ms of [-1, 1.5, "1"]) {
      expect((await checked(sandbox, "POST", "/_sandbox/clock/advance", { ms })).status).toBe(400);
    }
    expect(sandbox.clock.now()).toBe(START + 1500);
    expect(() => sandbox.clock.advance(-1)).toThrow(RangeError);
  });

  it("reads and sets the rates; what a body leaves out is kept", async () => {
    const sandbox = newSandbox();
    const before = (await checked(sandbox, "GET", "/_sandbox/rates")).body;
    const after = await checked(sandbox, "PUT", "/_sandbox/rates", { dollar: { NGNX: 0.001 } });
    expect(after.body).toEqual({ fiat: before.fiat, dollar: { ...before.dollar, NGNX: 0.001 } });
    // Each fiat rate given replaces its currency's; NGNX's documented rate stays.
    const fiat = [{ currency: "GHS", buyRate: 16, sellRate: 15 }];
    expect((await checked(sandbox, "PUT", "/_sandbox/rates", { fiat })).body.fiat).toEqual([
      { currency: "NGNX", buyRate: 1652.4, sellRate: 1611.8 },
      { currency: "GHS", buyRate: 16, sellRate: 15 },
    ]);
    const bad = await checked(sandbox, "PUT", "/_sandbox/rates", {
      fiat: [{ currency: "EUR", buyRate: 1, sellRate: 1 }],
    });
    expect(bad.status).toBe(400);
    expect((await checked(sandbox, "PUT", "/_sandbox/rates", { dollar: { NGNX: 0 } })).status).toBe(400);
  });

  it("answers the state and restores it", async () => {
    const sandbox = newSandbox();
    await checked(sandbox, "PUT", "/_sandbox/accounts/k1", { balances: { USDT: 5 } });
    const state = (await checked(sandbox, "GET", "/_sandbox/state")).body;
    expect(state.version).toBe(2);
    const other = newSandbox();
    expect((await checked(other, "PUT", "/_sandbox/state", state)).status).toBe(204);
    expect(other.getAccount("k1")?.balances.USDT).toBe(5);
    expect((await checked(other, "PUT", "/_sandbox/state", { version: 1 })).status).toBe(400);
    expect((await checked(other, "PUT", "/_sandbox/state", { ...state, version: 3 })).status).toBe(400);
  });

  it("leaves the accounts' secrets out of the state unless asked with ?secrets=true", async () => {
    const sandbox = newSandbox();
    const settings = { apiSecret: "api-s3cret", webhookUrl: "http://127.0.0.1:9/hooks", webhookSecret: "whsec-1" };
    await checked(sandbox, "PUT", "/_sandbox/accounts/k1", settings);
    const read = await checked(sandbox, "GET", "/_sandbox/state");
    const text = JSON.stringify(read.body);
    expect([text.includes("api-s3cret"), text.includes("whsec-1"), text.includes("127.0.0.1:9/hooks")]).toEqual([
      false,
      false,
      true,
    ]);
    expect((await checked(sandbox, "GET", "/_sandbox/state?secrets=false")).body).toEqual(read.body);
    const full = (await checked(sandbox, "GET", "/_sandbox/state?secrets=true")).body;
    expect([full.accounts.k1.apiSecret, full.accounts.k1.webhookSecret]).toEqual(["api-s3cret", "whsec-1"]);
    // What was read without them cannot bring back the webhooks, and says why; with them it can.
    const other = newSandbox();
    const refused = await checked(other, "PUT", "/_sandbox/state", read.body);
    expect([refused.status, refused.body.message]).toEqual([
      400,
      "sandbox state: /accounts/k1: a webhookUrl needs a webhookSecret to sign the webhooks with (GET " +
        "/_sandbox/state leaves the secrets out unless asked with ?secrets=true)",
    ]);
    expect((await checked(other, "PUT", "/_sandbox/state", full)).status).toBe(204);
    expect(other.getAccount("k1")).toMatchObject({ hasApiSecret: true, hasWebhookSecret: true });
    const wrong = await checked(sandbox, "GET", "/_sandbox/state?secrets=yes");
    expect([wrong.status, wrong.body]).toEqual([400, { message: "secrets must be true or false" }]);
  });

  it("answers the register of choices and the control document", async () => {
    const sandbox = newSandbox();
    const choices = await checked(sandbox, "GET", "/_sandbox/choices");
    expect(choices.body).toEqual(sandbox.choices);
    expect(new Set(choices.body.map((choice: { id: string }) => choice.id)).size).toBe(choices.body.length);
    expect((await checked(sandbox, "GET", "/_sandbox/openapi.json")).body).toEqual(controlDocument);
  });

  it("answers 404 to a route the control API does not have", async () => {
    const sandbox = newSandbox();
    expect((await control(sandbox, "GET", "/_sandbox/nothing")).status).toBe(404);
    expect((await control(sandbox, "POST", "/_sandbox/clock")).status).toBe(404);
  });

  it("requires the bearer token on every route when one is set", async () => {
    const sandbox = newSandbox({ controlToken: "t0ken" });
    for (const path of ["/_sandbox/clock", "/_sandbox/state", "/_sandbox/choices", "/_sandbox/accounts/k1"]) {
      const refused = await checked(sandbox, "GET", path);
      expect([path, refused.status]).toEqual([path, 401]);
      const wrong = await control(sandbox, "GET", path, undefined, { authorization: "Bearer nope" });
      expect(wrong.status).toBe(401);
    }
    const allowed = await control(sandbox, "GET", "/_sandbox/clock", undefined, { authorization: "Bearer t0ken" });
    expect(allowed.status).toBe(200);
  });
});
