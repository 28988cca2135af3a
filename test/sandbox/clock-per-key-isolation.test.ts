// pins: clock.per-key
// A property of the per-key clocks over generated sequences (choices.ts, "clock.per-key"): key-b's answers do not
// depend on key-a's clock. Each sequence interleaves both keys' requests (quotes, accepts, withdrawals, deposits,
// reads), their own clock advances and sandbox-wide advances; it runs twice, on two sandboxes started alike, the
// second time without key-a's own advances. key-b's answers (status, body, rate-limit headers) must be the same
// in both runs, but for the ids drawn from the sandbox-wide generator, which key-a's different outcomes shift:
// those may differ by a consistent one-to-one renaming, and nothing else may (a moment, an amount, a status).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { differenceBeyondIds } from "./support/renaming.js";
import { api, newSandbox, TRX_DESTINATION } from "./support/sandbox.js";

const KEYS = ["key-a", "key-b"] as const;
type Key = (typeof KEYS)[number];

type Command =
  | { kind: "quote" | "accept" | "withdraw" | "deposit" | "read"; key: Key }
  | { kind: "advance"; key: Key | "sandbox"; ms: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constantFrom("quote", "accept", "withdraw", "deposit", "read" as const),
    key: fc.constantFrom(...KEYS),
  }),
  fc.record({
    kind: fc.constant("advance" as const),
    key: fc.constantFrom<Key | "sandbox">(...KEYS, "sandbox"),
    // Around the rules' moments: a quote's 30 s, a window's minute, a settlement's and a first retry's minute.
    ms: fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 25_000, max: 65_000 })),
  }),
);

/** What a key's answer is compared by: its status, its body, its rate-limit headers. */
type Seen = [status: number, body: unknown, limit: string | null, remaining: string | null, reset: string | null];

/** Runs `commands` on a new sandbox; answers what key-b saw, in order. */
async function run(commands: readonly Command[]): Promise<Seen[]> {
  const sandbox: Sandbox = newSandbox({
    accounts: {
      "key-a": { balances: { USDT: 500, NGNX: 50_000 } },
      "key-b": { balances: { USDT: 500, NGNX: 50_000 } },
    },
    limits: { requestsPerMinute: 12, quotesPerHour: 4 },
  });
  const lastQuote: Partial<Record<Key, string>> = {};
  const seen: Seen[] = [];
  for (const step of commands) {
    if (step.kind === "advance") {
      if (step.key === "sandbox") sandbox.clock.advance(step.ms);
      else sandbox.accountClock(step.key).advance(step.ms);
      continue;
    }
    const answer = await send(sandbox, step.kind, step.key, lastQuote);
    if (step.kind === "quote" && answer.status === 200) lastQuote[step.key] = answer.body.data.id;
    const header = (name: string) => answer.headers.get(name);
    if (step.key === "key-b")
      seen.push([
        answer.status,
        answer.body,
        header("x-ratelimit-limit"),
        header("x-ratelimit-remaining"),
        header("x-ratelimit-reset"),
      ]);
  }
  await sandbox.webhooks.settled();
  return seen;
}

/** One request of `key`; a deposit is the control API's (its answer is the transaction). */
function send(
  sandbox: Sandbox,
  kind: Exclude<Command["kind"], "advance">,
  key: Key,
  lastQuote: Partial<Record<Key, string>>,
) {
  const quote = { sourceId: "USDT", targetId: "NGNX", amount: 1, side: "SELL" };
  if (kind === "quote") return api(sandbox, "POST", "/trades/quote", quote, { key });
  if (kind === "accept") return api(sandbox, "POST", `/trades/quote/${lastQuote[key] ?? "none"}`, {}, { key });
  if (kind === "withdraw") {
    const body = { amount: 1, currency: "USDT", destination: TRX_DESTINATION };
    return api(sandbox, "POST", "/wallets/ext/debit/crypto", body, { key });
  }
  if (kind === "read") return api(sandbox, "GET", "/transactions/me?pageSize=50", undefined, { key });
  const deposit = new Request("http://sandbox.test/_sandbox/deposits", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ apiKey: key, currency: "USDT", network: "TRX", amount: 2 }),
  });
  return sandbox.fetch(deposit).then(async (response) => ({
    status: response.status,
    headers: new Headers(),
    body: await response.json(),
  }));
}

describe("a clock per key, over generated sequences", () => {
  it("key-a's own advances change none of key-b's answers (ids drawn aside)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 10, maxLength: 50 }), async (commands) => {
        const withA = await run(commands);
        const withoutA = await run(commands.filter((step) => !(step.kind === "advance" && step.key === "key-a")));
        expect(withA).toHaveLength(withoutA.length);
        expect(differenceBeyondIds(withA, withoutA)).toBeUndefined();
      }),
      { numRuns: 60, seed: 20_261_128 }, // fixed: a red run is a real difference, never the draw
    );
  });

  it("the comparison tells a moved moment from a renamed id (the property can fail)", () => {
    const quote = (id: string, expiryDate: string, remaining = "11") => [
      200,
      { data: { id, expiryDate }, message: `quote ${id} made` },
      "12",
      remaining,
      "1795687260",
    ];
    const at30 = "2026-11-26T10:00:30.000Z";
    expect(differenceBeyondIds([quote("q-1", at30)], [quote("q-9", at30)])).toBeUndefined();
    expect(differenceBeyondIds([quote("q-1", at30)], [quote("q-1", "2026-11-26T10:00:31.000Z")])).toBe(
      "/0/1/data/expiryDate: 2026-11-26T10:00:30.000Z ≠ 2026-11-26T10:00:31.000Z",
    );
    expect(
      differenceBeyondIds([quote("q-1", at30), quote("q-1", at30)], [quote("q-2", at30), quote("q-3", at30)]),
    ).toBe("/1/1/data/id: q-1 is q-2 and q-3");
    expect(differenceBeyondIds([quote("q-1", at30)], [quote("q-1", at30, "10")])).toBe("/0/3: 11 ≠ 10");
  });
});
