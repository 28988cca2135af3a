// pins: limits.counting
// Which requests the rate limits count: every request that passes the key and signature checks, whatever it
// answers (a 401 for a keyless account read, a 404), except one refused with 429; requests without a key share one
// window. A key refused before the limits (an unknown key when the sandbox requires known ones) is not counted.
import { describe, expect, it } from "vitest";
import { RATE_LIMIT_HEADERS } from "../support/spec.js";
import { api, newSandbox } from "./support/sandbox.js";

/** status and X-RateLimit-Remaining of a GET of `path` with `key` (null: none). */
async function seen(sandbox: ReturnType<typeof newSandbox>, path: string, key: string | null) {
  const answer = await api(sandbox, "GET", path, undefined, { key });
  return [answer.status, answer.headers.get(RATE_LIMIT_HEADERS.remaining)];
}

describe("what the rate limits count", () => {
  it("counts requests without a key in one window they share, whatever they answer", async () => {
    const sandbox = newSandbox({ limits: { requestsPerMinute: 5 } });
    expect([
      await seen(sandbox, "/currencies/fiat-rates", null),
      await seen(sandbox, "/trades/pairs", null),
      await seen(sandbox, "/wallets/me", null), // refused (no key, no account), and counted
      await seen(sandbox, "/wallets/me", "key-a"), // a window of its own
      await seen(sandbox, "/no/such/path", null),
      await seen(sandbox, "/currencies", null),
      await seen(sandbox, "/currencies", null), // the keyless window is spent
    ]).toEqual([
      [200, "4"],
      [200, "3"],
      [401, "2"],
      [200, "4"],
      [404, "1"],
      [200, "0"],
      [429, "0"],
    ]);
  });

  it("does not count a key refused before the limits (an unknown key when known keys are required)", async () => {
    const sandbox = newSandbox({ requireKnownKeys: true, accounts: { known: {} }, limits: { requestsPerMinute: 5 } });
    expect([
      await seen(sandbox, "/wallets/me", "stranger"),
      await seen(sandbox, "/wallets/me", "stranger"),
      await seen(sandbox, "/wallets/me", "known"),
      await seen(sandbox, "/wallets/me", "known"),
    ]).toEqual([
      [401, "5"],
      [401, "5"],
      [200, "4"],
      [200, "3"],
    ]);
  });
});
