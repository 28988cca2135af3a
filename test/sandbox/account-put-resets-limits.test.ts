// pins: accounts.replace, limits.windows
// Putting an account (sandbox.putAccount, PUT /_sandbox/accounts/{apiKey}) replaces it whole and starts its key's
// limit windows afresh; another key's windows go on.
import { describe, expect, it } from "vitest";
import { RATE_LIMIT_HEADERS } from "../support/spec.js";
import { api, control, newSandbox } from "./support/sandbox.js";

const remainingOf = async (sandbox: ReturnType<typeof newSandbox>, key: string) =>
  (await api(sandbox, "GET", "/wallets/me", undefined, { key })).headers.get(RATE_LIMIT_HEADERS.remaining);

/** A sandbox of 5 requests a minute where key-a has spent 3 and key-b 2 (so 2 and 3 left). */
async function spent() {
  const sandbox = newSandbox({ limits: { requestsPerMinute: 5 } });
  const left = [];
  for (const key of ["key-a", "key-a", "key-a", "key-b", "key-b"]) left.push(await remainingOf(sandbox, key));
  expect(left).toEqual(["4", "3", "2", "4", "3"]);
  return sandbox;
}

describe("putting an account starts its limit windows afresh", () => {
  it("sandbox.putAccount: 3 of 5 spent, put, and the next request leaves 4 (5 − 1)", async () => {
    const sandbox = await spent();
    sandbox.putAccount("key-a", { balances: { USDT: 10 } });
    expect(await remainingOf(sandbox, "key-a")).toBe("4");
    // key-b's window goes on: 2 spent, this is its third, 5 − 3 = 2 left.
    expect(await remainingOf(sandbox, "key-b")).toBe("2");
  });

  it("PUT /_sandbox/accounts/{apiKey}: the same", async () => {
    const sandbox = await spent();
    const put = await control(sandbox, "PUT", "/_sandbox/accounts/key-a", { balances: { USDT: 10 } });
    expect(put.status).toBe(200);
    expect(await remainingOf(sandbox, "key-a")).toBe("4");
    expect(await remainingOf(sandbox, "key-b")).toBe("2");
  });
});
