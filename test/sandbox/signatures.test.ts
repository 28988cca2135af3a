// Request signing in the sandbox: an account with an API secret needs requests signed as the package's client
// signs them (x-api-timestamp, x-api-signature over METHOD + PATH + TIMESTAMP) with a timestamp near the sandbox
// clock, else 401; without a secret only the form of the signing headers is checked.
import { describe, expect, it } from "vitest";
import { createSigner } from "../../src/client/signing.js";
import { REFUSAL_STATUS, SIGNATURE_WINDOW_MS } from "../../src/sandbox/choices.js";
import { BASE_PATH, SIGNING_HEADERS } from "../support/spec.js";
import { api, newSandbox, ORIGIN } from "./support/sandbox.js";

const SECRET = "s3cret";

/** The signing headers of a request, signed with `secret` at the sandbox's `now`. */
async function signed(secret: string, method: string, path: string, now: number) {
  const signature = await createSigner(secret, () => now)(method, `${ORIGIN}${BASE_PATH}${path}`);
  return { [SIGNING_HEADERS.timestamp]: signature.timestamp, [SIGNING_HEADERS.signature]: signature.signature };
}

describe("signatures", () => {
  it("answers a request signed with the account's secret at the sandbox's time", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { apiSecret: SECRET } } });
    const path = "/transactions/me?page=1&pageSize=5";
    const headers = await signed(SECRET, "GET", path, sandbox.clock.now());
    const answer = await api(sandbox, "GET", path, undefined, { headers });
    expect(answer.status).toBe(200);
    expect(sandbox.getAccount("key-a")?.hasApiSecret).toBe(true);
  });

  it("refuses an unsigned request, another secret's signature, another path's, and a stale timestamp", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { apiSecret: SECRET } } });
    const now = sandbox.clock.now();
    const cases = {
      unsigned: {},
      otherSecret: await signed("other", "GET", "/wallets/me", now),
      otherPath: await signed(SECRET, "GET", "/wallets/USDT", now),
      stale: await signed(SECRET, "GET", "/wallets/me", now - SIGNATURE_WINDOW_MS - 1),
      future: await signed(SECRET, "GET", "/wallets/me", now + SIGNATURE_WINDOW_MS + 1),
    };
    for (const [name, headers] of Object.entries(cases)) {
      const answer = await api(sandbox, "GET", "/wallets/me", undefined, { headers });
      expect([name, answer.status]).toEqual([name, REFUSAL_STATUS.badSignature]);
      expect(answer.body.message).toMatch(/x-api-(timestamp|signature)/);
      expect(answer.violations).toEqual([]);
    }
    const edge = await signed(SECRET, "GET", "/wallets/me", now - SIGNATURE_WINDOW_MS);
    expect((await api(sandbox, "GET", "/wallets/me", undefined, { headers: edge })).status).toBe(200);
  });

  it("without a secret, takes any well-formed signature, refuses a malformed one (the contract's form)", async () => {
    const sandbox = newSandbox();
    const wellFormed = { [SIGNING_HEADERS.timestamp]: "1", [SIGNING_HEADERS.signature]: "a".repeat(64) };
    expect((await api(sandbox, "GET", "/wallets/me", undefined, { headers: wellFormed })).status).toBe(200);
    const malformed = { ...wellFormed, [SIGNING_HEADERS.signature]: "not-hex" };
    const refused = await api(sandbox, "GET", "/wallets/me", undefined, { headers: malformed });
    expect(refused.status).toBe(422);
    expect(refused.violations).toEqual([]);
  });

  it("signs a POST's path as sent, its body aside", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { apiSecret: SECRET } } });
    const body = { sourceId: "USDT", targetId: "NGNX", amount: 1, side: "SELL" };
    const headers = await signed(SECRET, "POST", "/trades/quote", sandbox.clock.now());
    expect((await api(sandbox, "POST", "/trades/quote", body, { headers })).status).toBe(200);
  });
});
