// What a signature check must not take (choices.ts, "signing"): a timestamp that is a number near the clock but
// not written in plain digits (`+T`, `T.0`), and, for a target without a query, a signature over anything but the
// target itself: not over the "client-encoded" form of a query it does not have, nor over no target at all.
import { describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { signingString } from "../../src/client/signing.js";
import { BASE_PATH, SIGNING_HEADERS } from "../support/spec.js";
import { api, newSandbox } from "./support/sandbox.js";

const SECRET = "s3cret";
const TARGET = `${BASE_PATH}/wallets/me`;

/** Signing headers for `timestamp`, HMAC-signed over `signedTarget` in place of the request's target. */
const signedOver = (signedTarget: string, timestamp: string) => ({
  [SIGNING_HEADERS.timestamp]: timestamp,
  [SIGNING_HEADERS.signature]: createHmac("sha256", SECRET)
    .update(signingString("GET", signedTarget, timestamp))
    .digest("hex"),
});

describe("signature strictness", () => {
  it("refuses a timestamp with a sign or a fraction, though its number is the sandbox's time", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { apiSecret: SECRET } }, signatureClock: () => 0 });
    const now = sandbox.clock.now();
    const seen = [];
    for (const timestamp of [`+${now}`, `${now}.0`, `${now}`]) {
      const answer = await api(sandbox, "GET", "/wallets/me", undefined, { headers: signedOver(TARGET, timestamp) });
      seen.push([timestamp, answer.status]);
    }
    expect(seen).toEqual([
      [`+${now}`, 401],
      [`${now}.0`, 401],
      [`${now}`, 200],
    ]);
  });

  it("refuses, for a target without a query, a signature over a made-up query or over no target", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { apiSecret: SECRET } }, signatureClock: () => 0 });
    const timestamp = String(sandbox.clock.now());
    // The path read as if it were a query: its last character dropped, then "?" and the whole path encoded.
    const madeUpQuery = `${BASE_PATH}/wallets/m?${encodeURIComponent(TARGET)}=`;
    const seen = [];
    for (const signedTarget of [madeUpQuery, "undefined"]) {
      const headers = signedOver(signedTarget, timestamp);
      const answer = await api(sandbox, "GET", "/wallets/me", undefined, { headers });
      seen.push([signedTarget, answer.status, answer.body.message]);
    }
    const notMatching = `${SIGNING_HEADERS.signature} does not match the request`;
    expect(seen).toEqual([
      [madeUpQuery, 401, notMatching],
      ["undefined", 401, notMatching],
    ]);
  });
});
