// pins: limits.counting
// The rate limits the sandbox enforces per API key on its clock: every answer's X-RateLimit headers come from
// the real counters; a spent limit answers 429 with the published error body until its window ends; Create
// Quote also counts against its hourly limit; a key's window opens at its first counted request; keys do not share
// windows.
import { describe, expect, it } from "vitest";
import { durationMs } from "../../src/pipeline/rate-limit.js";
import { listSpecOperations, loadSpec, RATE_LIMIT_HEADERS } from "../support/spec.js";
import { api, newSandbox, SELL_100, START } from "./support/sandbox.js";

type RateLimitEntry = { requests: number; window: string; appliesTo: string };
/** A limit of the contract's x-rate-limits (the first, or the one that applies to `appliesTo`): max and window. */
function limitOf(holder: unknown, appliesTo?: string): { max: number; windowMs: number } {
  const entries = (holder as { "x-rate-limits": RateLimitEntry[] })["x-rate-limits"];
  const entry = appliesTo === undefined ? entries[0] : entries.find((candidate) => candidate.appliesTo === appliesTo);
  return { max: entry!.requests, windowMs: durationMs(entry!.window)! };
}
const spec = loadSpec();
const createQuote = listSpecOperations(spec).find((op) => op.operationId === "createQuote")!;
/** The general limit (200 a minute) and Create Quote's own (100 an hour), as the contract gives them. */
const GENERAL = limitOf(spec.info);
const QUOTES = limitOf(createQuote.operation, createQuote.key);

const limitsOf = (headers: Headers) => ({
  limit: Number(headers.get(RATE_LIMIT_HEADERS.limit)),
  remaining: Number(headers.get(RATE_LIMIT_HEADERS.remaining)),
  reset: Number(headers.get(RATE_LIMIT_HEADERS.reset)),
});

/** START (2026-11-26T10:00:00Z) in Unix seconds, and the ends of a minute's and an hour's window opened then. */
const MINUTE_END = 1_795_687_260; // 1 795 687 200 + 60
const HOUR_END = 1_795_690_800; // 1 795 687 200 + 3600

describe("rate limits", () => {
  it("counts down X-RateLimit-Remaining from the description's 200, Reset a minute after the first", async () => {
    const sandbox = newSandbox();
    const first = await api(sandbox, "GET", "/wallets/me");
    const second = await api(sandbox, "GET", "/currencies/fiat-rates");
    expect(limitsOf(first.headers)).toEqual({
      limit: 200,
      remaining: 199,
      reset: MINUTE_END,
    });
    expect(limitsOf(second.headers).remaining).toBe(198);
  });

  it("answers 429 with the published error body once the limit is spent, and again after the window", async () => {
    const sandbox = newSandbox({ limits: { requestsPerMinute: 3 } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await api(sandbox, "GET", "/wallets/me"));
    expect(statuses.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    const spent = statuses[3]!;
    expect(spent.violations).toEqual([]);
    const resets = new Date(START + GENERAL.windowMs).toISOString();
    expect(spent.body.message).toBe(
      `rate limit spent: 3 requests per minute for this API key; the window resets at ${resets}`,
    );
    expect(limitsOf(spent.headers)).toEqual({ limit: 3, remaining: 0, reset: MINUTE_END });
    sandbox.clock.advance(GENERAL.windowMs);
    const next = await api(sandbox, "GET", "/wallets/me");
    expect(next.status).toBe(200);
    expect(limitsOf(next.headers).remaining).toBe(2);
  });

  it("counts a refused request too (a 404 or a 422), but not a 429", async () => {
    const sandbox = newSandbox({ limits: { requestsPerMinute: 2 } });
    expect((await api(sandbox, "GET", "/no/such/path")).status).toBe(404);
    expect((await api(sandbox, "GET", "/transactions/me?page=x")).status).toBe(422);
    expect((await api(sandbox, "GET", "/wallets/me")).status).toBe(429);
    expect((await api(sandbox, "GET", "/wallets/me")).status).toBe(429);
    sandbox.clock.advance(GENERAL.windowMs);
    expect((await api(sandbox, "GET", "/wallets/me")).status).toBe(200);
  });

  it("limits Create Quote per hour, and its headers then describe the hourly limit", async () => {
    const sandbox = newSandbox({ limits: { quotesPerHour: 2 } });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await api(sandbox, "POST", "/trades/quote", SELL_100));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(limitsOf(answers[1]!.headers)).toEqual({ limit: 2, remaining: 0, reset: HOUR_END });
    expect(answers[2]!.body.message).toMatch(/2 createQuote requests per hour/);
    expect((await api(sandbox, "GET", "/wallets/me")).status).toBe(200);
    sandbox.clock.advance(QUOTES.windowMs);
    expect((await api(sandbox, "POST", "/trades/quote", SELL_100)).status).toBe(200);
  });

  it("opens a window at the key's first counted request, not at the clock's minute or hour", async () => {
    const lastSecondOfTheHour = START + QUOTES.windowMs - 1_000;
    const sandbox = newSandbox({ clock: { start: lastSecondOfTheHour }, limits: { quotesPerHour: 2 } });
    const first = await api(sandbox, "POST", "/trades/quote", SELL_100);
    sandbox.clock.advance(2_000); // past the hour and the minute on the clock, 2 s into the key's windows
    const second = await api(sandbox, "POST", "/trades/quote", SELL_100);
    const third = await api(sandbox, "POST", "/trades/quote", SELL_100);
    expect([first.status, second.status, third.status]).toEqual([200, 200, 429]);
    expect(limitsOf(second.headers)).toEqual({
      limit: 2,
      remaining: 0,
      reset: 1_795_694_399, // opened at 1 795 690 799 (START + 3599 s), + 3600
    });
    const rates = await api(sandbox, "GET", "/currencies/fiat-rates");
    expect(limitsOf(rates.headers)).toEqual({
      limit: 200,
      remaining: 197, // two quotes and this request; the 429 is not counted
      reset: 1_795_690_859, // opened at 1 795 690 799, + 60
    });
    sandbox.clock.advance(QUOTES.windowMs - 2_000); // the hour since the first quote has passed
    expect((await api(sandbox, "POST", "/trades/quote", SELL_100)).status).toBe(200);
  });

  it("keeps one window per key", async () => {
    const sandbox = newSandbox({ limits: { requestsPerMinute: 1 } });
    expect((await api(sandbox, "GET", "/wallets/me")).status).toBe(200);
    expect((await api(sandbox, "GET", "/wallets/me")).status).toBe(429);
    expect((await api(sandbox, "GET", "/wallets/me", undefined, { key: "key-b" })).status).toBe(200);
  });

  it("describes the general limit when Create Quote's is no tighter (the first on a tie)", async () => {
    const sandbox = newSandbox({ limits: { requestsPerMinute: 5, quotesPerHour: 5 } });
    const tie = await api(sandbox, "POST", "/trades/quote", SELL_100);
    expect(limitsOf(tie.headers)).toEqual({ limit: 5, remaining: 4, reset: MINUTE_END });
    await api(sandbox, "GET", "/wallets/me");
    const minuteTighter = await api(sandbox, "POST", "/trades/quote", SELL_100);
    expect(limitsOf(minuteTighter.headers)).toEqual({
      limit: 5,
      remaining: 2,
      reset: MINUTE_END,
    });
  });

  it("gives a request refused before the limits (bad signature) the key's counters, uncounted", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { apiSecret: "s3cret" } }, limits: { requestsPerMinute: 7 } });
    const withoutKey = await api(sandbox, "GET", "/currencies/fiat-rates", undefined, { key: null });
    expect(limitsOf(withoutKey.headers).remaining).toBe(6);
    const unsigned = [];
    for (let i = 0; i < 2; i++) unsigned.push(await api(sandbox, "GET", "/wallets/me"));
    expect(unsigned.map((answer) => answer.status)).toEqual([401, 401]);
    for (const answer of unsigned)
      expect(limitsOf(answer.headers)).toEqual({ limit: 7, remaining: 7, reset: MINUTE_END });
  });

  it("refuses limits that are not whole numbers above 0, naming the setting; undefined is the default", async () => {
    for (const name of ["requestsPerMinute", "quotesPerHour"])
      for (const value of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])
        expect(() => newSandbox({ limits: { [name]: value } }), `${name}: ${value}`).toThrow(
          new RangeError(`sandbox limits: ${name} must be a whole number above 0`),
        );
    expect(newSandbox({ limits: { requestsPerMinute: 1, quotesPerHour: 1 } }).clock.now()).toBe(START);
    const defaults = newSandbox({ limits: { requestsPerMinute: undefined, quotesPerHour: undefined } });
    expect(limitsOf((await api(defaults, "GET", "/wallets/me")).headers).limit).toBe(GENERAL.max);
  });

  it("starts a key's windows afresh when its account is deleted", async () => {
    const sandbox = newSandbox({ limits: { requestsPerMinute: 1 } });
    await api(sandbox, "GET", "/wallets/me");
    sandbox.deleteAccount("key-a");
    expect((await api(sandbox, "GET", "/wallets/me")).status).toBe(200);
  });
});
