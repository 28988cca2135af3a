// pins: ids
// Replay: the sandbox is deterministic (DESIGN.md, "Determinism"; biome.json's rule over src/sandbox/). One
// snapshot restored into two fresh sandboxes, both driven by the same long generated sequence of requests (quotes,
// accepts, deposits, deposit addresses, crypto and bank withdrawals, settlements, webhook resends, account puts,
// clock advances, reads), gives byte-identical answers at every step (status, headers, body text), the same
// webhooks handed to the in-process callback at every step (ids, bodies, signatures, attempts), and byte-identical
// snapshots and outboxes at the end. A value drawn from anything but the state's generator (Math.random, Web
// Crypto) or time read from the wall clock shows here as a difference between the two.
// The seed is fixed: each run replays the same sequences, so a red run is a real difference, never the draw.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { WebhookDelivery } from "../../src/sandbox/index.js";
import { type Answer, api, control, headersOf, newSandbox } from "./support/sandbox.js";

const KEYS = ["key-a", "key-b", "key-c"] as const;
type Key = (typeof KEYS)[number];
const SECRET = "whsec-replay";
/** Retries (ms on the sandbox clock) short enough that the sequence's clock advances reach them. */
const RETRY = [1_000, 20_000];
const TRX_ADDRESS = `T${"A".repeat(33)}`;
const BANK = { accountNumber: "0123456789", accountName: "Jane Doe", bankName: "OPAY", bankCode: "999992" };
const HASH = `0x${"ab".repeat(32)}`;

type Command =
  | { kind: "quote"; key: Key; side: "SELL" | "BUY"; cents: number }
  | { kind: "accept"; key: Key; pick: number }
  | { kind: "deposit"; key: Key; cents: number; toAddress: boolean; pick: number; hash: boolean }
  | { kind: "address"; key: Key; network: "TRX" | "ETH"; customer: string | null }
  | { kind: "withdraw"; key: Key; bank: boolean; cents: number; pick: number }
  | { kind: "settle"; pick: number; failed: boolean }
  | { kind: "resend"; key: Key; picks: number[] }
  | { kind: "put"; key: Key; usdtCents: number; ngnxKobo: number; secret: boolean }
  | { kind: "advance"; ms: number }
  | { kind: "read"; key: Key; what: "/wallets/me" | "/transactions/me" | "/trades/me" | "/addresses/me/broker" }
  | { kind: "outbox"; key: Key };

const key = fc.constantFrom(...KEYS);
const cents = fc.oneof(fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1_000, max: 3_000_000 }));
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("quote"), key, side: fc.constantFrom("SELL", "BUY"), cents }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("accept"), key, pick: fc.nat() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("deposit"),
      key,
      cents,
      toAddress: fc.boolean(),
      pick: fc.nat(),
      hash: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("address"),
      key,
      network: fc.constantFrom("TRX", "ETH"),
      customer: fc.constantFrom(null, "cust-1", "cust-2", "cust-3"),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("withdraw"), key, bank: fc.boolean(), cents, pick: fc.nat() }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("settle"), pick: fc.nat(), failed: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("resend"),
      key,
      picks: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("put"),
      key,
      usdtCents: fc.integer({ min: 0, max: 10_000_000 }),
      ngnxKobo: fc.integer({ min: 0, max: 1_000_000_000 }),
      secret: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("advance"),
      ms: fc.oneof(fc.integer({ min: 0, max: 40_000 }), fc.constantFrom(...RETRY), fc.constant(3_600_000)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("read"),
      key,
      what: fc.constantFrom("/wallets/me", "/transactions/me", "/trades/me", "/addresses/me/broker"),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("outbox"), key }) },
);

/** What the sequence has made so far, as the first sandbox answered it (the second must answer the same). */
interface Made {
  quotes: string[];
  transactions: string[];
  withdrawals: string[];
  addresses: string[];
}

/** One request of a step: an API request as a key, or a control request. */
type Request = { api: true; method: string; path: string; body?: unknown; key: Key } | ControlRequest;
interface ControlRequest {
  api: false;
  method: string;
  path: string;
  body?: unknown;
}

const picked = (list: string[], pick: number, none: string) => list[pick % (list.length + 1)] ?? none;

/** The request a command sends, given what the sequence has made. */
function requestOf(command: Command, made: Made): Request {
  const as = (method: string, path: string, body?: unknown): Request => ({
    api: true,
    method,
    path,
    body,
    key: (command as { key: Key }).key,
  });
  switch (command.kind) {
    case "quote":
      return as("POST", "/trades/quote", {
        sourceId: "USDT",
        targetId: "NGNX",
        amount: command.cents / 100,
        side: command.side,
      });
    case "accept":
      return as("POST", `/trades/quote/${picked(made.quotes, command.pick, "qt_unknown00000000")}`, {});
    case "deposit": {
      const to = command.toAddress
        ? { address: picked(made.addresses, command.pick, TRX_ADDRESS) }
        : { currency: "USDT", network: "TRX" };
      const hash = command.hash ? { hash: HASH } : {};
      const body = { apiKey: command.key, ...to, amount: command.cents / 100, ...hash };
      return { api: false, method: "POST", path: "/_sandbox/deposits", body };
    }
    case "address": {
      const customer = command.customer === null ? {} : { uniqueUserIdentifier: command.customer };
      return as("POST", "/addresses/broker", { currency: "USDT", network: command.network, ...customer });
    }
    case "withdraw":
      return command.bank
        ? as("POST", "/wallets/ext/debit/fiat", { amount: command.cents, currency: "NGNX", destination: BANK })
        : as("POST", "/wallets/ext/debit/crypto", {
            amount: command.cents / 100,
            currency: "USDT",
            destination: { address: picked(made.addresses, command.pick, TRX_ADDRESS), network: "TRX" },
            narration: "replay",
          });
    case "settle": {
      const id = picked(made.withdrawals, command.pick, "no-such-withdrawal");
      const body = { status: command.failed ? "FAILED" : "SUCCESSFUL" };
      return { api: false, method: "POST", path: `/_sandbox/withdrawals/${id}/settle`, body };
    }
    case "resend": {
      const ids = command.picks.map((pick) => picked(made.transactions, pick, "no-such-transaction"));
      return as("POST", "/transactions/resendWebhooks", { ids });
    }
    case "put": {
      const balances = { USDT: command.usdtCents / 100, NGNX: command.ngnxKobo / 100 };
      const body = command.secret ? { balances, webhookSecret: SECRET } : { balances };
      return { api: false, method: "PUT", path: `/_sandbox/accounts/${command.key}`, body };
    }
    case "advance":
      return { api: false, method: "POST", path: "/_sandbox/clock/advance", body: { ms: command.ms } };
    case "read":
      return as("GET", command.what);
    case "outbox":
      return { api: false, method: "GET", path: `/_sandbox/webhooks?apiKey=${command.key}` };
  }
}

/** Records what a successful answer made, so later commands can name it. */
function remember(command: Command, answer: Answer, made: Made): void {
  if (answer.status >= 300) return;
  if (command.kind === "quote") made.quotes.push(answer.body.data.id);
  else if (command.kind === "deposit") made.transactions.push(answer.body.id);
  else if (command.kind === "address") made.addresses.push(answer.body.data.value);
  else if (command.kind === "withdraw") {
    made.transactions.push(answer.body.data.id);
    made.withdrawals.push(answer.body.data.id);
  }
}

/** A sandbox restored from `saved`, its webhooks handed to a callback that records them. */
function replayer(saved: string) {
  const deliveries: WebhookDelivery[] = [];
  const sandbox = newSandbox({
    clock: { start: Date.UTC(2027, 0, 1) },
    webhooks: {
      retry: RETRY,
      // The receiver's answer follows from what it gets: some first attempts fail, to be retried.
      onWebhook: (delivery) => {
        deliveries.push(delivery);
        return delivery.attempt === 1 && delivery.signature.endsWith("0") ? 503 : 200;
      },
      startTimeout: () => () => undefined, // the callback always answers: no wait ever expires
    },
  });
  sandbox.restore(JSON.parse(saved));
  return { sandbox, deliveries };
}

type Replayer = ReturnType<typeof replayer>;

/** Sends `request` to `sandbox`, then lets its webhooks go out: the answer as bytes and what was delivered. */
async function send({ sandbox, deliveries }: Replayer, request: Request) {
  const answer = request.api
    ? await api(sandbox, request.method, request.path, request.body, { key: request.key })
    : await control(sandbox, request.method, request.path, request.body);
  await sandbox.webhooks.settled();
  const delivered = deliveries.splice(0);
  return {
    answer,
    bytes: { status: answer.status, headers: Object.entries(headersOf(answer)), text: answer.text },
    delivered,
  };
}

/** The one snapshot both sandboxes start from: accounts with webhooks, and webhooks still pending retries. */
async function savedState(): Promise<string> {
  const origin = newSandbox({ clock: { start: Date.UTC(2026, 5, 1) }, webhooks: { onWebhook: () => 500 } });
  for (const apiKey of KEYS)
    origin.putAccount(apiKey, {
      balances: { USDT: 5_000, NGNX: 2_000_000 },
      ...(apiKey === "key-c" ? {} : { webhookSecret: SECRET }),
    });
  await control(origin, "POST", "/_sandbox/deposits", { apiKey: "key-a", currency: "USDT", network: "TRX", amount: 7 });
  const body = { amount: 12, currency: "USDT", destination: { address: TRX_ADDRESS, network: "TRX" } };
  await api(origin, "POST", "/wallets/ext/debit/crypto", body, { key: "key-b" });
  await api(origin, "POST", "/trades/quote", { sourceId: "USDT", targetId: "NGNX", amount: 3, side: "SELL" });
  await origin.webhooks.settled();
  origin.clock.advance(500);
  return JSON.stringify(origin.snapshot());
}

/** Runs `commands` against both sandboxes in step, failing at the first step where they differ. */
async function replay(saved: string, commands: Command[]) {
  const [first, second] = [replayer(saved), replayer(saved)];
  expect(JSON.stringify(second.sandbox.snapshot())).toBe(JSON.stringify(first.sandbox.snapshot()));
  const made: Made = { quotes: [], transactions: [], withdrawals: [], addresses: [] };
  const seen = { deliveries: 0, retries: 0 };
  for (const [index, command] of commands.entries()) {
    const request = requestOf(command, made);
    const one = await send(first, request);
    const other = await send(second, request);
    expect({ step: index, command, ...other.bytes }).toEqual({ step: index, command, ...one.bytes });
    expect({ step: index, command, delivered: other.delivered }).toEqual({
      step: index,
      command,
      delivered: one.delivered,
    });
    remember(command, one.answer, made);
    seen.deliveries += one.delivered.length;
    seen.retries += one.delivered.filter((delivery) => delivery.attempt > 1).length;
  }
  expect(JSON.stringify(second.sandbox.snapshot())).toBe(JSON.stringify(first.sandbox.snapshot()));
  for (const apiKey of KEYS)
    expect(JSON.stringify(await second.sandbox.webhooks.list(apiKey))).toBe(
      JSON.stringify(await first.sandbox.webhooks.list(apiKey)),
    );
  expect([...first.sandbox.bugs, ...second.sandbox.bugs]).toEqual([]);
  return { ...seen, ...Object.fromEntries(Object.entries(made).map(([what, list]) => [what, list.length])) };
}

describe("replay", () => {
  it("answers two sandboxes restored from one snapshot the same, byte for byte, over 200 generated steps", async () => {
    const saved = await savedState();
    const totals: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 200, maxLength: 200 }), async (commands) => {
        for (const [what, count] of Object.entries(await replay(saved, commands)))
          totals[what] = (totals[what] ?? 0) + count;
      }),
      { seed: 20_270_101, numRuns: 10, endOnFailure: true },
    );
    // The sequences did what they are for: made quotes, transactions, addresses, webhooks and their retries.
    expect(Object.entries(totals).filter(([, count]) => count === 0)).toEqual([]);
    expect(Object.keys(totals)).toHaveLength(6);
  }, 120_000);
});
