// pins: limits.headers, limits.windows
// X-RateLimit-Reset is the end of the key's window in Unix seconds, rounded up: a client that waits until the
// second the header names must find the window over, even when the window opened off a whole second.
import { describe, expect, it } from "vitest";
import { RATE_LIMIT_HEADERS } from "../support/spec.js";
import { api, newSandbox, SELL_100 } from "./support/sandbox.js";

/** 2026-11-26T10:00:00.500Z: half a second past a whole second. */
const HALF_PAST = Date.UTC(2026, 10, 26, 10, 0, 0, 500);

const resetOf = (answer: { headers: Headers }) => answer.headers.get(RATE_LIMIT_HEADERS.reset);

describe("X-RateLimit-Reset", () => {
  it("is the window's end rounded up to a second: 1795687200.5 s + 60 s = 1795687260.5 → 1795687261", async () => {
    expect(HALF_PAST).toBe(1_795_687_200_500);
    const sandbox = newSandbox({ clock: { start: HALF_PAST }, limits: { requestsPerMinute: 5 } });
    const first = await api(sandbox, "GET", "/wallets/me");
    expect(resetOf(first)).toBe("1795687261");
  });

  it("names the hourly window's end, rounded up, on Create Quote: 1795687200.5 + 3600 → 1795690801", async () => {
    const sandbox = newSandbox({ clock: { start: HALF_PAST }, limits: { quotesPerHour: 1 } });
    const quoted = await api(sandbox, "POST", "/trades/quote", SELL_100);
    expect([quoted.status, quoted.headers.get(RATE_LIMIT_HEADERS.remaining), resetOf(quoted)]).toEqual([
      200,
      "0",
      "1795690801",
    ]);
  });

  it("a client that waits until the reset second is answered, not refused again", async () => {
    const spentAtHalfPast = async () => {
      const sandbox = newSandbox({ clock: { start: HALF_PAST }, limits: { requestsPerMinute: 1 } });
      expect((await api(sandbox, "GET", "/wallets/me")).status).toBe(200);
      const refused = await api(sandbox, "GET", "/wallets/me");
      expect(refused.status).toBe(429);
      return { sandbox, reset: Number(resetOf(refused)) };
    };
    // Waiting as the header says: the clock at the reset second × 1000 (whatever the header says).
    const waiting = await spentAtHalfPast();
    waiting.sandbox.clock.advance(waiting.reset * 1000 - HALF_PAST);
    const after = await api(waiting.sandbox, "GET", "/wallets/me");
    expect([after.status, after.headers.get(RATE_LIMIT_HEADERS.remaining)]).toEqual([200, "0"]);
    // The window ends at 1795687260.5 s: a millisecond before, it is still spent.
    const early = await spentAtHalfPast();
    early.sandbox.clock.advance(1_795_687_260_499 - HALF_PAST);
    expect((await api(early.sandbox, "GET", "/wallets/me")).status).toBe(429);
  });
});
