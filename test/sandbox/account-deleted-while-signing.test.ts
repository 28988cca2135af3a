// A signed request's signature is checked with Web Crypto (a promise): an account deleted meanwhile (here from the
// signature clock, read just before that check) leaves the request answered (refused: it reaches the operation
// without an account) with the limits' full headers, and counted under no key: the store it would count in is gone.
import { describe, expect, it } from "vitest";
import { createSigner } from "../../src/client/signing.js";
import { BASE_PATH, SIGNING_HEADERS } from "../support/spec.js";
import { api, headersOf, newSandbox, ORIGIN, START, stateOf } from "./support/sandbox.js";

const SECRET = "s3cret";

describe("a signed request whose account is deleted during the signature check", () => {
  it("is answered without being counted", async () => {
    let deleteNow = false;
    const sandbox = newSandbox({
      accounts: { "key-a": { apiSecret: SECRET } },
      signatureClock: () => {
        if (deleteNow) sandbox.deleteAccount("key-a");
        return START;
      },
    });
    const signature = await createSigner(SECRET, () => START)("GET", `${ORIGIN}${BASE_PATH}/wallets/me`);
    const headers = {
      [SIGNING_HEADERS.timestamp]: signature.timestamp,
      [SIGNING_HEADERS.signature]: signature.signature,
    };
    deleteNow = true;
    const answer = await api(sandbox, "GET", "/wallets/me", undefined, { headers });
    const { "x-ratelimit-limit": limit, "x-ratelimit-remaining": remaining } = headersOf(answer);
    expect([answer.status, limit, remaining]).toEqual([401, "200", "200"]);
    expect([stateOf(sandbox).accounts, stateOf(sandbox).keylessWindows]).toEqual([{}, {}]);
  });
});
