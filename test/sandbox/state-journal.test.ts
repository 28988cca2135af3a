// The journal of --state (journal.ts), on real files and real sockets on 127.0.0.1: what an answer shows is on disk
// before the answer arrives (read back from the files while the sandbox still runs, as a restart after a crash would
// read them): an API request's change of its key's store, a simulated deposit's, a settlement's, one key's clock
// moved; the sandbox clock moved writes the whole state and starts the journal afresh; a line a crash cut short and a
// journal that follows another state file are left out; a stop leaves the state file alone.
import { createHash } from "node:crypto";
import { mkdtemp, open, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SandboxState } from "../../src/sandbox/index.js";
import type { Engine } from "../../src/sandbox/engine.js";
import { Journal, journalPathOf, readJournaled, savedTextOf } from "../../src/sandbox/journal.js";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";
import { TRX_DESTINATION } from "./support/sandbox.js";

const START = Date.UTC(2026, 0, 1); // 1767225600000
let dir: string;
let statePath: string;
const started: StartedSandbox[] = [];
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "sandbox-journal-"));
  statePath = path.join(dir, "state.json");
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()));
  await rm(dir, { recursive: true, force: true });
});

async function start(): Promise<StartedSandbox> {
  const config = { clock: { start: START }, accounts: { alice: { balances: { USDT: 100 } }, bob: {} } };
  const server = await startSandbox({ port: 0, quiet: true, statePath, config });
  started.push(server);
  return server;
}

/** What a restart would restore now: the state file with the journal's whole lines applied. */
async function onDisk(): Promise<SandboxState> {
  const text = await readFile(statePath, "utf8").catch(() => undefined);
  const { state } = await readJournaled(statePath, text === undefined ? undefined : savedTextOf(text), () => {
    throw new Error("the state file is written at start");
  });
  return state!;
}

/** The growing lists of a store (empty), for a stand-in engine's store. */
const LISTS = { quotes: [], trades: [], transactions: [], addresses: [] };

const readState = async () =>
  JSON.parse(await readFile(statePath, "utf8")) as { accounts: Record<string, { note?: string }> };
const journalLines = async () => (await readFile(journalPathOf(statePath), "utf8")).split("\n").slice(1, -1);

function send(server: StartedSandbox, method: string, target: string, body?: unknown, key = "alice") {
  const headers: Record<string, string> = { "x-api-key": key };
  if (body !== undefined) headers["content-type"] = "application/json";
  const text = body === undefined ? undefined : JSON.stringify(body);
  return fetch(`${server.origin}${target}`, { method, headers, body: text });
}

describe("the --state journal", () => {
  it("holds an API request's change before its answer arrives: the quote on disk, one line", async () => {
    const server = await start();
    const quote = await send(server, "POST", "/v1/trades/quote", {
      sourceId: "USDT",
      targetId: "NGNX",
      amount: 1,
      side: "SELL",
    });
    const { data } = (await quote.json()) as { data: { id: string } };
    expect((await onDisk()).accounts.alice!.quotes.map(({ id }) => id)).toEqual([data.id]);
    expect(await journalLines()).toHaveLength(1);
  });

  it("holds a simulated deposit, a settlement and one key's clock moved, each before its answer", async () => {
    const server = await start();
    const deposit = { apiKey: "alice", currency: "USDT", network: "TRX", amount: 5 };
    expect((await send(server, "POST", "/_sandbox/deposits", deposit)).status).toBe(201);
    expect((await onDisk()).accounts.alice!.wallets.find((w) => w.code === "USDT")!.balanceMinor).toBe(105_000_000);
    const body = { amount: 10, currency: "USDT", destination: TRX_DESTINATION };
    const withdrawal = (await (await send(server, "POST", "/v1/wallets/ext/debit/crypto", body)).json()) as any;
    const settled = await send(server, "POST", `/_sandbox/withdrawals/${withdrawal.data.id}/settle`, {
      status: "FAILED",
    });
    expect(settled.status).toBe(200);
    const transactions = (await onDisk()).accounts.alice!.transactions;
    expect(transactions.find((t) => t.id === withdrawal.data.id)!.withdrawal!.status).toBe("FAILED");
    expect((await send(server, "POST", "/_sandbox/accounts/alice/clock/advance", { ms: 5_000 })).status).toBe(200);
    expect((await onDisk()).accounts.alice!.clockOffsetMs).toBe(5_000);
    expect(await journalLines()).toHaveLength(4);
  });

  it("writes the whole state when the sandbox clock moves, and starts the journal afresh", async () => {
    const server = await start();
    await send(server, "GET", "/v1/wallets/me");
    expect(await journalLines()).toHaveLength(1);
    expect((await send(server, "POST", "/_sandbox/clock/advance", { ms: 60_000 })).status).toBe(200);
    expect(await journalLines()).toEqual([]);
    const whole = JSON.parse(await readFile(statePath, "utf8")) as SandboxState;
    expect(whole.clock).toEqual({ kind: "fixed", nowMs: 1767225660000 });
  });

  it("writes no whole state for a change of the settings, which are not in the state", async () => {
    const server = await start();
    await send(server, "GET", "/v1/wallets/me");
    const before = await readFile(statePath, "utf8");
    expect(await journalLines()).toHaveLength(1);
    expect((await send(server, "PUT", "/_sandbox/settings", { requireKnownKeys: true })).status).toBe(200);
    expect(await journalLines()).toHaveLength(2);
    expect(await readFile(statePath, "utf8")).toBe(before);
  });

  it("restarts with every acknowledged change, and a stop leaves the state file alone", async () => {
    const first = await start();
    await send(first, "POST", "/v1/trades/quote", { sourceId: "USDT", targetId: "NGNX", amount: 2, side: "SELL" });
    // As after a crash: the files as they are now, in another folder, where a second sandbox starts.
    const copy = path.join(dir, "copy.json");
    await writeFile(copy, await readFile(statePath));
    await writeFile(journalPathOf(copy), await readFile(journalPathOf(statePath)));
    const lines: string[] = [];
    const second = await startSandbox({ port: 0, quiet: true, statePath: copy, log: (line) => lines.push(line) });
    started.push(second);
    expect(second.sandbox.accountState("alice")!.quotes.map(({ amount }) => amount)).toEqual([2]);
    expect(lines[0]).toBe(
      `sandbox state loaded from ${copy} and 1 journaled change(s): 2 account(s), clock at 2026-01-01T00:00:00.000Z`,
    );
    await second.stop();
    await expect(readFile(journalPathOf(copy))).rejects.toThrow(/ENOENT/);
  });

  it("leaves out a last line a crash cut short, and a journal that follows another state file", async () => {
    const server = await start();
    await send(server, "POST", "/v1/trades/quote", { sourceId: "USDT", targetId: "NGNX", amount: 3, side: "SELL" });
    const text = await readFile(statePath, "utf8");
    const journal = await readFile(journalPathOf(statePath), "utf8");
    const torn = `${journal}{"ids":`;
    await writeFile(journalPathOf(statePath), torn);
    const read = (stateText: string) => readJournaled(statePath, savedTextOf(stateText), () => ({}) as SandboxState);
    expect((await read(text)).applied).toBe(1);
    const other = `${text.trimEnd()} \n`; // another file's text: the journal follows a different one
    const ignored = await read(other);
    expect([ignored.applied, ignored.state!.accounts.alice!.quotes]).toEqual([0, []]);
  });

  it("reads `.journal.next` when a whole write stopped between renaming the state file and the journal", async () => {
    const server = await start();
    await send(server, "POST", "/v1/trades/quote", { sourceId: "USDT", targetId: "NGNX", amount: 3, side: "SELL" });
    const [text, journal] = [await readFile(statePath, "utf8"), await readFile(journalPathOf(statePath), "utf8")];
    const line = journal.split("\n")[1]!;
    // The new state file is in place; the old journal still follows the old one; the new journal follows the new.
    const renamed = `${text.trimEnd()} \n`;
    const follows = createHash("sha256").update(renamed).digest("hex");
    await writeFile(`${statePath}.journal.next`, `{"follows":"${follows}"}\n${line}\n`);
    const read = (stateText: string) => readJournaled(statePath, savedTextOf(stateText), () => ({}) as SandboxState);
    const fromNext = await read(renamed);
    expect([fromNext.applied, fromNext.state!.accounts.alice!.quotes.length]).toEqual([1, 1]);
    // Before the state file's rename, `.journal.next` follows a file that is not there: the old journal is read.
    expect((await read(text)).applied).toBe(1);
  });

  it("writes the whole state once the journal is past 16 MiB (16,777,216 bytes), holding no commit", async () => {
    // A store of about 4 KiB, committed 3,961 times one after another: lines of 4,236 bytes, 16,778,796 in all.
    const state = { ids: {}, rates: {}, keylessWindows: {}, accounts: { k: { ...LISTS, note: "x".repeat(4_096) } } };
    const engine = { state, clock: { state: () => ({ kind: "fixed", nowMs: 0 }) } } as unknown as Engine;
    // The state file's write waits for the test's word once the journal is past its size.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let began = () => {};
    const beginning = new Promise<void>((resolve) => {
      began = resolve;
    });
    let writes = 0;
    const writeSynced = async (file: string, text: AsyncIterable<string>) => {
      if (++writes > 1) {
        began();
        await released;
      }
      await writeFile(file, text);
    };
    const journal = new Journal(statePath, engine, { writeSynced });
    await journal.compact();
    for (let n = 0; n < 3_961; n++) await journal.commit({ keys: ["k"] });
    expect((await stat(journalPathOf(statePath))).size).toBeGreaterThan(16_777_216);
    expect(await journalLines()).toHaveLength(3_961);
    // The next commit starts the whole write; it and the one after are answered while that write waits.
    state.accounts.k.note = "y";
    await journal.commit({ keys: ["k"] });
    await beginning; // the whole write has begun (its file opened), and waits
    state.accounts.k.note = "z";
    await journal.commit({ keys: ["k"] });
    expect([writes, (await journalLines()).length]).toEqual([2, 3_963]);
    release();
    await journal.settled();
    // The state file holds "y" (the state when the write began), the journal the two lines since then.
    const lines = (await journalLines()).map((line) => JSON.parse(line).accounts.k.parts.note);
    expect([(await readState()).accounts.k?.note, lines]).toEqual(["y", ["y", "z"]]);
    expect((await onDisk()).accounts).toEqual(state.accounts);
    await journal.close();
  });

  it("waits for the journal to pass the state file's size too, where that is larger than its limit", async () => {
    // A limit of 1,000 bytes and a state file of about 8 KB (a quote of 3 KB the lines do not repeat): a line is
    // about 5 KB, so the journal passes the limit with its first line and the state file's size with its second;
    // the third commit starts the whole write.
    const store = { ...LISTS, quotes: [{ id: "q".repeat(3_000) }], note: "x".repeat(5_000) };
    const state = { ids: {}, rates: {}, keylessWindows: {}, accounts: { k: store } };
    const engine = { state, clock: { state: () => ({ kind: "fixed", nowMs: 0 }) } } as unknown as Engine;
    const journal = new Journal(statePath, engine, { compactBytes: 1_000 });
    await journal.compact();
    const counts: number[] = [];
    for (let n = 0; n < 3; n++) {
      await journal.commit({ keys: ["k"] });
      await journal.settled();
      counts.push((await journalLines()).length);
    }
    expect(counts).toEqual([1, 2, 1]);
    await journal.close();
  });

  it("syncs the journal to the disk 100 ms after a write, once for every write meanwhile", async () => {
    const state = { ids: {}, rates: {}, keylessWindows: {}, accounts: { k: { ...LISTS } } };
    const engine = { state, clock: { state: () => ({ kind: "fixed", nowMs: 0 }) } } as unknown as Engine;
    const journal = new Journal(statePath, engine);
    await journal.compact();
    const probe = await open(path.join(dir, "probe"), "w");
    const datasync = vi.spyOn(Object.getPrototypeOf(probe) as { datasync(): Promise<void> }, "datasync");
    await probe.close();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      await Promise.all([journal.commit({ keys: ["k"] }), journal.commit({ keys: ["k"] })]);
      await journal.commit({ keys: ["k"] });
      await vi.advanceTimersByTimeAsync(99);
      expect(datasync).toHaveBeenCalledTimes(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(datasync).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
      datasync.mockRestore();
    }
    await journal.close();
  });

  it("rebuilds from its files exactly the state it holds, after any sequence of changes (a property)", async () => {
    const key = fc.constantFrom("alice", "bob");
    const step = fc.oneof(
      fc.record({ kind: fc.constantFrom("quote", "accept", "withdraw", "read" as const), key }),
      fc.record({ kind: fc.constant("deposit" as const), key, amount: fc.integer({ min: 1, max: 50 }) }),
      fc.record({ kind: fc.constant("settle" as const), key, status: fc.constantFrom("SUCCESSFUL", "FAILED") }),
      fc.record({ kind: fc.constant("advance" as const), key: fc.constantFrom("alice", "bob", "sandbox") }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 12, maxLength: 40 }), async (steps) => {
        await rm(statePath, { force: true });
        await rm(journalPathOf(statePath), { force: true });
        const server = await start();
        const last: Record<string, { quote?: string; withdrawal?: string }> = { alice: {}, bob: {} };
        for (const next of steps) await journaledStep(server, next, last[next.key] ?? {});
        expect(await onDisk()).toEqual(server.sandbox.snapshot());
        await server.stop();
        started.splice(started.indexOf(server), 1);
      }),
      { numRuns: 40, seed: 20_261_130 }, // fixed: a red run is a real difference, never the draw
    );
  }, 120_000);

  it("writes the whole state at the next commit after a write failed: no line builds on a lost one", async () => {
    const state = { ids: {}, rates: {}, keylessWindows: {}, accounts: { k: { ...LISTS, note: "a" } } };
    const engine = { state, clock: { state: () => ({ kind: "fixed", nowMs: 0 }) } } as unknown as Engine;
    const journal = new Journal(statePath, engine);
    await journal.compact();
    // The journal's file closed under it: its next write fails.
    await (journal as unknown as { handle: { close(): Promise<void> } }).handle.close();
    await expect(journal.commit({ keys: ["k"] })).rejects.toThrow(/"fd"/);
    state.accounts.k.note = "b";
    await journal.commit({ keys: ["k"] });
    expect([await journalLines(), (await onDisk()).accounts.k]).toEqual([[], { ...LISTS, note: "b" }]);
    await journal.close();
  });
});

type JournaledStep = { kind: string; key: string; amount?: number; status?: string };

/** One change of the property above, over HTTP; `last` keeps the key's last quote and withdrawal. */
async function journaledStep(
  server: StartedSandbox,
  step: JournaledStep,
  last: { quote?: string; withdrawal?: string },
) {
  const { kind, key } = step;
  const quote = { sourceId: "USDT", targetId: "NGNX", amount: 1, side: "SELL" };
  if (kind === "quote")
    last.quote = ((await (await send(server, "POST", "/v1/trades/quote", quote, key)).json()) as any).data?.id;
  if (kind === "accept") await send(server, "POST", `/v1/trades/quote/${last.quote ?? "none"}`, {}, key);
  if (kind === "withdraw") {
    const body = { amount: 1, currency: "USDT", destination: TRX_DESTINATION };
    last.withdrawal = (
      (await (await send(server, "POST", "/v1/wallets/ext/debit/crypto", body, key)).json()) as any
    ).data?.id;
  }
  if (kind === "read") await send(server, "GET", "/v1/transactions/me", undefined, key);
  if (kind === "deposit")
    await send(server, "POST", "/_sandbox/deposits", {
      apiKey: key,
      currency: "USDT",
      network: "TRX",
      amount: step.amount,
    });
  if (kind === "settle" && last.withdrawal)
    await send(server, "POST", `/_sandbox/withdrawals/${last.withdrawal}/settle`, { status: step.status });
  if (kind === "advance" && key === "sandbox") await send(server, "POST", "/_sandbox/clock/advance", { ms: 61_000 });
  else if (kind === "advance") await send(server, "POST", `/_sandbox/accounts/${key}/clock/advance`, { ms: 61_000 });
}
