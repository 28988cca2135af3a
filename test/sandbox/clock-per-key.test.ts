// pins: clock.per-key
// One clock per API key (choices.ts, "clock.per-key"): the sandbox clock plus that key's own advances. Advancing
// key-a's clock expires key-a's quotes, reopens its limit windows, settles its withdrawals and sends its due webhook
// retries, and leaves key-b's X-RateLimit-Reset, quote expiry, settlements and retry schedule as they were; the
// sandbox-wide advance moves both. Values are by hand: the sandbox starts at 2026-11-26T10:00:00Z (1795687200000
// ms), a window of a minute opened then resets at 1795687260 s, a quote lives 30 s, a withdrawal settles after 60 s,
// a failed webhook is tried again after 60 s.
import { describe, expect, it } from "vitest";
import { createSigner } from "../../src/client/signing.js";
import { SIGNING_HEADERS } from "../support/spec.js";
import { callbackSandbox } from "./support/receiver.js";
import {
  api,
  control,
  newSandbox,
  ORIGIN,
  quoteId,
  SELL_100,
  stateOf,
  thrownBy,
  TRX_DESTINATION,
} from "./support/sandbox.js";

const BALANCES = { balances: { USDT: 1000, NGNX: 1000 } };

/** A sandbox at 10:00:00 with key-a and key-b, each holding 1000 USDT and 1000 NGNX. */
const twoKeys = () => newSandbox({ accounts: { "key-a": BALANCES, "key-b": BALANCES } });

const resetOf = async (sandbox: ReturnType<typeof newSandbox>, key: string) =>
  (await api(sandbox, "GET", "/currencies", undefined, { key })).headers.get("x-ratelimit-reset");

const accept = (sandbox: ReturnType<typeof newSandbox>, id: string, key: string) =>
  api(sandbox, "POST", `/trades/quote/${encodeURIComponent(id)}`, {}, { key });

describe("a clock per key", () => {
  it("starts at the sandbox clock, and moves alone: key-a 45 s ahead, key-b and the sandbox where they were", () => {
    const sandbox = twoKeys();
    expect(sandbox.accountClock("key-a").now()).toBe(1795687200000);
    expect(sandbox.accountClock("key-a").advance(45_000)).toBe(1795687245000);
    expect([sandbox.clock.now(), sandbox.accountClock("key-b").now()]).toEqual([1795687200000, 1795687200000]);
    expect(sandbox.clock.advance(1_000)).toBe(1795687201000);
    expect([sandbox.accountClock("key-a").now(), sandbox.accountClock("key-b").now()]).toEqual([
      1795687246000, 1795687201000,
    ]);
  });

  it("expires the advanced key's quote; the other key's quote of the same moment is still accepted", async () => {
    const sandbox = twoKeys();
    const [ofA, ofB] = [await quoteId(sandbox, undefined, "key-a"), await quoteId(sandbox, undefined, "key-b")];
    sandbox.accountClock("key-a").advance(45_000);
    const [refused, accepted] = [await accept(sandbox, ofA, "key-a"), await accept(sandbox, ofB, "key-b")];
    expect([refused.status, refused.body.message]).toEqual([
      400,
      `quote ${ofA} expired at 2026-11-26T10:00:30.000Z: request a new quote`,
    ]);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.createdAt).toBe("2026-11-26T10:00:00.000Z");
  });

  it("dates the advanced key's new quote and trade on its clock, the other key's on the sandbox's", async () => {
    const sandbox = twoKeys();
    sandbox.accountClock("key-a").advance(45_000);
    const quoted = async (key: string) => (await api(sandbox, "POST", "/trades/quote", SELL_100, { key })).body.data;
    const [ofA, ofB] = [await quoted("key-a"), await quoted("key-b")];
    expect([ofA.expiryDate, ofB.expiryDate]).toEqual(["2026-11-26T10:01:15.000Z", "2026-11-26T10:00:30.000Z"]);
    const [tradeA, tradeB] = [
      (await accept(sandbox, ofA.id, "key-a")).body,
      (await accept(sandbox, ofB.id, "key-b")).body,
    ];
    expect([tradeA.data.createdAt, tradeB.data.createdAt]).toEqual([
      "2026-11-26T10:00:45.000Z",
      "2026-11-26T10:00:00.000Z",
    ]);
  });

  it("reopens the advanced key's limit window; the other key's X-RateLimit-Reset is unchanged", async () => {
    const sandbox = twoKeys();
    expect([await resetOf(sandbox, "key-a"), await resetOf(sandbox, "key-b")]).toEqual(["1795687260", "1795687260"]);
    sandbox.accountClock("key-a").advance(61_500);
    const afterA = await api(sandbox, "GET", "/currencies", undefined, { key: "key-a" });
    const afterB = await api(sandbox, "GET", "/currencies", undefined, { key: "key-b" });
    // key-a's new window opened at 10:01:01.5: it ends at 10:02:01.5, rounded up to the second.
    expect([afterA.headers.get("x-ratelimit-reset"), afterA.headers.get("x-ratelimit-remaining")]).toEqual([
      "1795687322",
      "199",
    ]);
    expect([afterB.headers.get("x-ratelimit-reset"), afterB.headers.get("x-ratelimit-remaining")]).toEqual([
      "1795687260",
      "198",
    ]);
  });

  it("settles the advanced key's due withdrawal at its moment; the other key's stays PENDING", async () => {
    const sandbox = twoKeys();
    const body = { amount: 10, currency: "USDT", destination: TRX_DESTINATION };
    for (const key of ["key-a", "key-b"])
      expect((await api(sandbox, "POST", "/wallets/ext/debit/crypto", body, { key })).status).toBe(200);
    sandbox.accountClock("key-a").advance(60_000);
    const withdrawalOf = (key: string) => stateOf(sandbox).accounts[key]!.transactions[0]!;
    expect([withdrawalOf("key-a").withdrawal?.status, withdrawalOf("key-a").updatedAt]).toEqual([
      "SUCCESSFUL",
      1795687260000,
    ]);
    expect([withdrawalOf("key-b").withdrawal?.status, stateOf(sandbox).accounts["key-b"]!.settlements]).toEqual([
      "PENDING",
      [{ at: 1795687260000, transactionId: withdrawalOf("key-b").id }],
    ]);
  });

  it("sends the advanced key's due webhook retry; the other key's schedule stays byte for byte", async () => {
    const { sandbox } = callbackSandbox(() => 500, { startTimeout: () => () => {} });
    sandbox.putAccount("key-b", { webhookSecret: "whsec-b" });
    for (const apiKey of ["key-a", "key-b"]) sandbox.deposit({ apiKey, currency: "USDT", network: "TRX", amount: 5 });
    await sandbox.webhooks.settled();
    const outboxOf = (key: string) => JSON.stringify(stateOf(sandbox).accounts[key]!.outbox);
    const before = outboxOf("key-b");
    expect(stateOf(sandbox).accounts["key-b"]!.outbox[0]!.nextAttemptAt).toBe(1795687260000);
    sandbox.accountClock("key-a").advance(60_000);
    await sandbox.webhooks.settled();
    expect(outboxOf("key-b")).toBe(before);
    const triedA = stateOf(sandbox).accounts["key-a"]!.outbox[0]!;
    expect([triedA.attempts.map((attempt) => [attempt.at, attempt.status]), triedA.nextAttemptAt]).toEqual([
      [
        [1795687200000, 500],
        [1795687260000, 500],
      ],
      1795687560000,
    ]);
    sandbox.accountClock("key-b").advance(60_000);
    await sandbox.webhooks.settled();
    expect(stateOf(sandbox).accounts["key-b"]!.outbox[0]!.attempts.map((attempt) => attempt.at)).toEqual([
      1795687200000, 1795687260000,
    ]);
  });

  it("takes a signature dated on the key's clock (10 min ahead); refuses one dated on the sandbox's", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { apiSecret: "s3cret" } } });
    sandbox.accountClock("key-a").advance(600_000);
    const signedAt = async (ms: number) => {
      const { timestamp, signature } = await createSigner("s3cret", () => ms)("GET", `${ORIGIN}/v1/wallets/me`);
      const headers = { [SIGNING_HEADERS.timestamp]: timestamp, [SIGNING_HEADERS.signature]: signature };
      return (await api(sandbox, "GET", "/wallets/me", undefined, { key: "key-a", headers })).status;
    };
    // Both moments are months before this machine's time: only the key's clock can take them.
    expect([await signedAt(1795687800000), await signedAt(1795687200000)]).toEqual([200, 401]);
  });

  it("keeps its offset through a snapshot and a restore; putting the account again starts it at the sandbox's", () => {
    const sandbox = twoKeys();
    sandbox.accountClock("key-a").advance(45_000);
    const saved = sandbox.snapshot();
    expect(saved.accounts["key-a"]!.clockOffsetMs).toBe(45_000);
    const copy = newSandbox();
    copy.restore(saved);
    expect(copy.accountClock("key-a").now()).toBe(1795687245000);
    copy.putAccount("key-a", {});
    expect(copy.accountClock("key-a").now()).toBe(1795687200000);
  });

  it("refuses a key without an account (404), a move back or a fraction (400), and a move past the last moment", () => {
    const sandbox = twoKeys();
    const refusal = (run: () => unknown) => {
      const thrown = thrownBy(run) as (Error & { status?: number }) | undefined;
      return [thrown?.status, thrown?.message];
    };
    expect(refusal(() => sandbox.accountClock("nobody").now())).toEqual([
      404,
      "No sandbox account for the API key nobody",
    ]);
    expect(refusal(() => sandbox.accountClock("key-a").advance(-1))).toEqual([
      400,
      "the clock of API key key-a: ms must be 0 or more: the clock never moves back",
    ]);
    expect(refusal(() => sandbox.accountClock("key-a").advance(0.5))).toEqual([
      400,
      "the clock of API key key-a: ms must be a whole number of milliseconds",
    ]);
    // 9999-12-30T23:59:59.999Z is 253402214399999 ms: key-a 1 ms short of it, then the sandbox 1 ms on.
    sandbox.accountClock("key-a").advance(253402214399999 - 1795687200000 - 1);
    expect(refusal(() => sandbox.clock.advance(2))).toEqual([
      400,
      "the clock of API key key-a: ms takes the clock past 9999-12-30T23:59:59.999Z, the last moment it shows",
    ]);
    expect(sandbox.clock.now()).toBe(1795687200000);
  });
});

describe("a clock per key over the control API", () => {
  it("reads and advances one key's clock, answering its moment; 404 for a key without an account", async () => {
    const sandbox = twoKeys();
    const advanced = await control(sandbox, "POST", "/_sandbox/accounts/key-a/clock/advance", { ms: 31_000 });
    expect([advanced.status, advanced.body]).toEqual([200, { now: 1795687231000, iso: "2026-11-26T10:00:31.000Z" }]);
    const read = await control(sandbox, "GET", "/_sandbox/accounts/key-b/clock");
    expect([read.status, read.body]).toEqual([200, { now: 1795687200000, iso: "2026-11-26T10:00:00.000Z" }]);
    const nobody = await control(sandbox, "POST", "/_sandbox/accounts/nobody/clock/advance", { ms: 1 });
    expect([nobody.status, nobody.body]).toEqual([404, { message: "No sandbox account for the API key nobody" }]);
    const back = await control(sandbox, "POST", "/_sandbox/accounts/key-a/clock/advance", { ms: -1 });
    expect(back.status).toBe(400);
  });

  it("restores no state whose key clock is before a moment its store records", () => {
    const sandbox = twoKeys();
    sandbox.accountClock("key-a").advance(45_000);
    sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 5 });
    const saved = sandbox.snapshot();
    saved.accounts["key-a"]!.clockOffsetMs = 44_999;
    expect(thrownBy(() => newSandbox().restore(saved))?.message).toBe(
      "sandbox state: /clock/nowMs + /accounts/key-a/clockOffsetMs is before /accounts/key-a/wallets/0/updatedAt: " +
        "the clock is never set back",
    );
  });
});
