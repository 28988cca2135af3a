// How the --state journal starts (Journal.resume), on real files and real sockets on 127.0.0.1: the state file is
// read and restored, and not written again; the journal that follows it goes on (a torn last line cut off first, a
// `.journal.next` left by a compaction cut short taken as the journal), or a new journal starts following it. Each
// test copies the files while a sandbox runs, as a crash would leave them, and starts the next sandbox on the copy.
import { createHash } from "node:crypto";
import { access, appendFile, copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createSandbox } from "../../src/sandbox/index.js";
import { journalPathOf } from "../../src/sandbox/journal.js";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";

const START = Date.UTC(2026, 0, 1); // 2026-01-01T00:00:00.000Z
let dir: string;
const started: StartedSandbox[] = [];
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "sandbox-resume-"));
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()));
  await rm(dir, { recursive: true, force: true });
});

async function start(statePath: string, log?: (line: string) => void): Promise<StartedSandbox> {
  const config = { clock: { start: START }, accounts: { alice: { balances: { USDT: 100 } } } };
  const server = await startSandbox({ port: 0, quiet: true, statePath, config, log });
  started.push(server);
  return server;
}

/** A quote of `amount` USDT for alice; resolves once its answer arrived. */
async function quote(server: StartedSandbox, amount: number): Promise<void> {
  const body = JSON.stringify({ sourceId: "USDT", targetId: "NGNX", amount, side: "SELL" });
  const headers = { "x-api-key": "alice", "content-type": "application/json" };
  const answer = await fetch(`${server.baseUrl}/trades/quote`, { method: "POST", headers, body });
  expect(answer.status).toBe(200);
}

/** The files of `statePath` as a crash now would leave them, copied to `name` in the same folder. */
async function crashCopy(statePath: string, name: string): Promise<string> {
  const copy = path.join(dir, name);
  await copyFile(statePath, copy);
  await copyFile(journalPathOf(statePath), journalPathOf(copy));
  return copy;
}

const quoteAmounts = (server: StartedSandbox) => server.sandbox.accountState("alice")!.quotes.map((q) => q.amount);
const journalLines = async (statePath: string) =>
  (await readFile(journalPathOf(statePath), "utf8")).split("\n").slice(1, -1);

it("starts on a state file without writing it again: a new journal follows its bytes, kept as they were", async () => {
  const statePath = path.join(dir, "state.json");
  const sandbox = createSandbox({ clock: { start: START }, accounts: { alice: { balances: { USDT: 100 } } } });
  const text = `${JSON.stringify(sandbox.snapshot(), null, 2)}\n`; // indented by hand: a rewrite would not keep it
  await writeFile(statePath, text);
  const server = await start(statePath);
  await quote(server, 3);
  expect(await readFile(statePath, "utf8")).toBe(text);
  const digest = createHash("sha256").update(text).digest("hex");
  expect((await readFile(journalPathOf(statePath), "utf8")).split("\n")[0]).toBe(`{"follows":"${digest}"}`);
  expect(await journalLines(statePath)).toHaveLength(1);
  const restarted = await start(await crashCopy(statePath, "copy.json"));
  expect(quoteAmounts(restarted)).toEqual([3]);
});

it("goes on with the journal it replayed: the changes before and after a crash are there after the next", async () => {
  const first = await start(path.join(dir, "state.json"));
  await quote(first, 2);
  const copy = await crashCopy(path.join(dir, "state.json"), "copy.json");
  const stateText = await readFile(copy, "utf8");
  const second = await start(copy);
  await quote(second, 5);
  expect(await readFile(copy, "utf8")).toBe(stateText);
  const log: string[] = [];
  const third = await start(await crashCopy(copy, "again.json"), (line) => log.push(line));
  expect(quoteAmounts(third)).toEqual([2, 5]);
  expect(log[0]).toMatch(/ and 2 journaled change\(s\): 1 account\(s\)/);
});

it("cuts off a last line a crash left torn before it goes on, so the next line is whole", async () => {
  const first = await start(path.join(dir, "state.json"));
  await quote(first, 2);
  const copy = await crashCopy(path.join(dir, "state.json"), "copy.json");
  await appendFile(journalPathOf(copy), '{"ids":{"coun');
  const second = await start(copy);
  await quote(second, 7);
  expect(await journalLines(copy)).toHaveLength(2);
  const third = await start(await crashCopy(copy, "again.json"));
  expect(quoteAmounts(third)).toEqual([2, 7]);
});

it("takes a `.journal.next` that follows the state file as its journal, over an older `.journal`", async () => {
  const first = await start(path.join(dir, "state.json"));
  await quote(first, 4);
  const copy = path.join(dir, "copy.json");
  await copyFile(path.join(dir, "state.json"), copy);
  // A compaction cut short after it renamed the state file: the new journal is still `.journal.next`.
  await copyFile(journalPathOf(path.join(dir, "state.json")), `${journalPathOf(copy)}.next`);
  await writeFile(journalPathOf(copy), `{"follows":"${"0".repeat(64)}"}\n`);
  const second = await start(copy);
  expect(quoteAmounts(second)).toEqual([4]);
  await expect(access(`${journalPathOf(copy)}.next`)).rejects.toThrow(/ENOENT/);
  await quote(second, 6);
  const third = await start(await crashCopy(copy, "again.json"));
  expect(quoteAmounts(third)).toEqual([4, 6]);
});
