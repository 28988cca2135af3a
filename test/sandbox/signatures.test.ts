// Request signing in the sandbox (choices.ts, "signing"): an account with an API secret needs requests signed as the
// package's client signs them (x-api-timestamp, x-api-signature over METHOD + PATH + TIMESTAMP) with a timestamp
// within 300 s of the client's wall clock or of the sandbox clock, over the query as sent or as the later official
// client encodes it, else 401; without a secret only the form of the signing headers is checked.
import { describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { createSigner, signingString } from "../../src/client/signing.js";
import { REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { BASE_PATH, SIGNING_HEADERS } from "../support/spec.js";
import { api, newSandbox, ORIGIN } from "./support/sandbox.js";

const SECRET = "s3cret";
/** This machine's time as the tests give it to the sandbox (signatureClock): 2027-01-15T08:00:00.000Z. */
const WALL = 1_800_000_000_000;

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
    const sandbox = newSandbox({ accounts: { "key-a": { apiSecret: SECRET } }, signatureClock: () => WALL });
    const now = sandbox.clock.now();
    const good = await signed(SECRET, "GET", "/wallets/me", now);
    /** Signing headers with a timestamp of another form, signed (HMAC) as the sandbox would check them. */
    const withTimestamp = (timestamp: string) => ({
      [SIGNING_HEADERS.timestamp]: timestamp,
      [SIGNING_HEADERS.signature]: createHmac("sha256", SECRET)
        .update(signingString("GET", `${ORIGIN}${BASE_PATH}/wallets/me`, timestamp))
        .digest("hex"),
    });
    const { timestamp: TIMESTAMP, signature: SIGNATURE } = SIGNING_HEADERS;
    const required = `this API key signs its requests: ${TIMESTAMP} and ${SIGNATURE} are required`;
    const notMatching = `${SIGNATURE} does not match the request`;
    const outOfTime = `${TIMESTAMP} must be within 300 s of the time (1800000000000) or of the sandbox clock (${now})`;
    const cases: Array<[string, Record<string, string>, string]> = [
      ["unsigned", {}, required],
      ["timestamp only", { [TIMESTAMP]: good[TIMESTAMP]! }, required],
      ["signature only", { [SIGNATURE]: good[SIGNATURE]! }, required],
      ["other secret", await signed("other", "GET", "/wallets/me", now), notMatching],
      ["other path", await signed(SECRET, "GET", "/wallets/USDT", now), notMatching],
      ["stale", await signed(SECRET, "GET", "/wallets/me", now - 300_001), outOfTime],
      ["future", await signed(SECRET, "GET", "/wallets/me", now + 300_001), outOfTime],
      ["stale by the wall clock", await signed(SECRET, "GET", "/wallets/me", WALL - 300_001), outOfTime],
      ["ahead of the wall clock", await signed(SECRET, "GET", "/wallets/me", WALL + 300_001), outOfTime],
      ["a timestamp with a leading letter", withTimestamp(`x${now}`), outOfTime],
      ["a timestamp with a trailing letter", withTimestamp(`${now}x`), outOfTime],
    ];
    for (const [name, headers, message] of cases) {
      const answer = await api(sandbox, "GET", "/wallets/me", undefined, { headers });
      expect([name, answer.status]).toEqual([name, REFUSAL_STATUS.badSignature]);
      expect(answer.body.message, name).toBe(message);
      expect(answer.violations).toEqual([]);
    }
    for (const at of [now - 300_000, now + 300_000, WALL - 300_000, WALL + 300_000]) {
      const edge = await signed(SECRET, "GET", "/wallets/me", at);
      expect([at, (await api(sandbox, "GET", "/wallets/me", undefined, { headers: edge })).status]).toEqual([at, 200]);
    }
  });

  it("takes a client's wall-clock timestamp whatever the sandbox clock shows: fixed, then 10 minutes on", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { apiSecret: SECRET } }, signatureClock: () => WALL });
    expect(Math.abs(sandbox.clock.now() - WALL)).toBeGreaterThan(300_000); // the fixed start is 2026-11-26
    const before = await signed(SECRET, "GET", "/wallets/me", WALL);
    expect((await api(sandbox, "GET", "/wallets/me", undefined, { headers: before })).status).toBe(200);
    sandbox.clock.advance(600_000);
    const after = await signed(SECRET, "GET", "/wallets/me", WALL);
    expect((await api(sandbox, "GET", "/wallets/me", undefined, { headers: after })).status).toBe(200);
  });

  it("takes a query signed as the later official client encodes it (: as %3A) and as sent, nothing else", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { apiSecret: SECRET } }, signatureClock: () => WALL });
    const sent = "/transactions/deposits/me?page=1&startDate=2025-01-01T00:00:00Z";
    const hmac = (target: string) => ({
      [SIGNING_HEADERS.timestamp]: String(WALL),
      [SIGNING_HEADERS.signature]: createHmac("sha256", SECRET).update(`GET${BASE_PATH}${target}${WALL}`).digest("hex"),
    });
    const cases: Array<[string, string, number]> = [
      ["as sent", sent, 200],
      ["as C2 encodes it", "/transactions/deposits/me?page=1&startDate=2025-01-01T00%3A00%3A00Z", 200],
      ["another value", "/transactions/deposits/me?page=2&startDate=2025-01-01T00%3A00%3A00Z", 401],
      ["without the query", "/transactions/deposits/me", 401],
    ];
    for (const [name, target, status] of cases) {
      const answer = await api(sandbox, "GET", sent, undefined, { headers: hmac(target) });
      expect([name, answer.status]).toEqual([name, status]);
    }
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
