// pins: clock.per-key
// One sandbox for a parallel CI (choices.ts, "clock.per-key"): 32 workers at once over HTTP on 127.0.0.1, each with
// its own key, account and clock, each moving its own clock by generated amounts and spending its own limits
// (20 requests a minute, 5 quotes an hour). Every worker checks each answer against a model of its own key alone
// (its clock, its two windows, its quote's expiry 30 s after it was made); then a checker replays each worker's
// steps alone on a sandbox of its own and requires the same answers but for ids: no cross-key effect.
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createSandboxControl, createSandbox } from "../../src/sandbox/index.js";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";
import { differenceBeyondIds } from "./support/renaming.js";
import { START } from "./support/sandbox.js";

const started: StartedSandbox[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()));
});

const WORKERS = 32;
const CONFIG = { clock: { start: START }, limits: { requestsPerMinute: 20, quotesPerHour: 5 } };
const QUOTE = { sourceId: "USDT", targetId: "NGNX", amount: 1, side: "SELL" };

type Step = { kind: "read" | "quote" | "accept" } | { kind: "advance"; ms: number };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constantFrom("read", "quote", "accept" as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 70_000 }) }),
  },
);
/** Worker `n`'s steps: drawn from a seed of its own, the same every run. */
const stepsOf = (n: number) =>
  fc.sample(fc.array(step, { minLength: 30, maxLength: 30 }), { seed: 7_000 + n, numRuns: 1 })[0]!;

/** What an answer is compared by: its status, its body, its X-RateLimit-Remaining and -Reset. */
type Seen = [status: number, body: unknown, remaining: string | null, reset: string | null];

/** A window of a limit, on the key's clock. */
interface Window {
  start: number;
  count: number;
}

/** The model of one key: its clock, its windows, its last quote. What each answer must be. */
class KeyModel {
  now = START;
  private minute: Window = { start: START, count: 0 };
  private hour: Window = { start: START, count: 0 };
  private quote: { madeAt: number } | undefined;

  /** The window `window` is at `now`: still open (opened by a counted request), or a new one. */
  private current(window: Window, ms: number): Window {
    return window.count > 0 && this.now < window.start + ms ? window : { start: this.now, count: 0 };
  }

  /** The status the next request of `kind` gets, its windows counted when admitted. */
  expected(kind: "read" | "quote" | "accept"): { status: number; remaining?: number; reset?: number } {
    const minute = this.current(this.minute, 60_000);
    const hour = this.current(this.hour, 3_600_000);
    if (minute.count >= 20 || (kind === "quote" && hour.count >= 5)) return { status: 429 };
    this.minute = { start: minute.start, count: minute.count + 1 };
    const headers = { remaining: 20 - this.minute.count, reset: Math.ceil((this.minute.start + 60_000) / 1000) };
    if (kind === "quote") {
      this.hour = { start: hour.start, count: hour.count + 1 };
      this.quote = { madeAt: this.now };
      return { status: 200 };
    }
    if (kind === "accept") {
      const quote = this.quote;
      this.quote = undefined;
      if (!quote) return { status: 404 };
      return { status: this.now - quote.madeAt < 30_000 ? 200 : 400 };
    }
    return { status: 200, ...headers };
  }
}

/** Runs `steps` as key `key` with `send`, checking each answer against the key's model; answers what it saw. */
async function work(key: string, steps: Step[], send: Sender): Promise<{ seen: Seen[]; wrong: string[] }> {
  const model = new KeyModel();
  const seen: Seen[] = [];
  const wrong: string[] = [];
  let lastQuote = "none";
  for (const [index, next] of steps.entries()) {
    if (next.kind === "advance") {
      model.now = await send.advance(key, next.ms);
      continue;
    }
    const expected = model.expected(next.kind);
    const path =
      next.kind === "read" ? "/currencies" : next.kind === "quote" ? "/trades/quote" : `/trades/quote/${lastQuote}`;
    const answer = await send.api(
      key,
      next.kind === "read" ? "GET" : "POST",
      path,
      next.kind === "quote" ? QUOTE : next.kind === "accept" ? {} : undefined,
    );
    if (next.kind === "quote" && answer[0] === 200) lastQuote = (answer[1] as { data: { id: string } }).data.id;
    if (next.kind === "accept" && answer[0] !== 429) lastQuote = "none"; // refused by a limit: tried again later
    seen.push(answer);
    const [status, , remaining, reset] = answer;
    const headers = expected.remaining === undefined ? [] : [String(expected.remaining), String(expected.reset)];
    const got = expected.remaining === undefined ? [] : [remaining, reset];
    if (status !== expected.status || got.join() !== headers.join())
      wrong.push(
        `${key} step ${index} ${next.kind}: ${status} ${got} where the model says ${expected.status} ${headers}`,
      );
  }
  return { seen, wrong };
}

/** How a worker reaches a sandbox: the API with its key, and its own clock's advance. */
interface Sender {
  api(key: string, method: string, path: string, body?: unknown): Promise<Seen>;
  advance(key: string, ms: number): Promise<number>;
}

async function seenOf(response: Response): Promise<Seen> {
  const header = (name: string) => response.headers.get(name);
  return [response.status, await response.json(), header("x-ratelimit-remaining"), header("x-ratelimit-reset")];
}

const apiRequest = (origin: string, key: string, method: string, path: string, body?: unknown) =>
  new Request(`${origin}/v1${path}`, {
    method,
    headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe("one sandbox shared by 32 parallel workers, each with a key and a clock of its own", () => {
  it("holds every worker's model, and each worker's answers are those it gets alone", async () => {
    const server = await startSandbox({ port: 0, quiet: true, config: CONFIG });
    started.push(server);
    const control = createSandboxControl({ baseUrl: server.baseUrl });
    const overHttp: Sender = {
      api: async (key, method, path, body) => seenOf(await fetch(apiRequest(server.origin, key, method, path, body))),
      advance: async (key, ms) => (await control.advanceAccountClock(key, ms)).now,
    };
    const keys = Array.from({ length: WORKERS }, (_, n) => `worker-${n}`);
    const runs = await Promise.all(
      keys.map(async (key, n) => {
        await control.putAccount(key, { balances: { USDT: 100 } });
        return work(key, stepsOf(n), overHttp);
      }),
    );
    expect(runs.flatMap((run) => run.wrong)).toEqual([]);
    // What the steps reached: every kind of answer the model knows, so the check is not vacuous.
    const statuses = new Set(runs.flatMap((run) => run.seen.map(([status]) => status)));
    expect([...statuses].sort()).toEqual([200, 400, 404, 429]);
    // The checker: each worker's steps again, alone, in-process on a sandbox of its own.
    for (const [n, key] of keys.entries()) {
      const alone = createSandbox(CONFIG);
      alone.putAccount(key, { balances: { USDT: 100 } });
      const inProcess: Sender = {
        api: async (k, method, path, body) =>
          seenOf(await alone.fetch(apiRequest("http://sandbox.test", k, method, path, body))),
        advance: async (k, ms) => alone.accountClock(k).advance(ms),
      };
      const solo = await work(key, stepsOf(n), inProcess);
      expect(differenceBeyondIds(runs[n]!.seen, solo.seen), key).toBeUndefined();
    }
    // And the shared sandbox's own clock never moved: only the workers' did.
    expect((await control.clock()).now).toBe(START);
  }, 120_000);
});
