// A compaction of the --state journal writes the state file from the state's chunks (state-export.ts): while it
// waits between two chunks, commits are answered (their lines written), and the files it leaves rebuild the state
// whatever changed meanwhile: a store written before the change holds the old value, which the journal's line
// mends; one changed before its turn holds the new; one deleted before its turn is left out, one added after the
// compaction began is not in the file; the id generator is read after the last store. Ordering only, no timing.
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Engine } from "../../src/sandbox/engine.js";
import { Journal, journalPathOf, readJournaled, savedTextOf } from "../../src/sandbox/journal.js";

let dir: string;
let statePath: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "sandbox-compaction-"));
  statePath = path.join(dir, "state.json");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A store of 100,000 characters of `letter` (and empty growing lists): three make a chunk of 256 KiB and more. */
const store = (letter: string) => ({
  quotes: [],
  trades: [],
  transactions: [],
  addresses: [],
  note: letter.repeat(1e5),
});

it("answers commits while its state file waits between chunks, and its files rebuild the state", async () => {
  const accounts: Record<string, ReturnType<typeof store>> = {};
  for (const key of ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"]) accounts[key] = store("a");
  const state = { ids: { seed: 1, counter: 10 }, rates: {}, keylessWindows: {}, accounts };
  const engine = { state, clock: { state: () => ({ kind: "fixed", nowMs: 0 }) } } as unknown as Engine;
  // The second state file's write takes its first chunk (s0 to s2), then waits for the test's word.
  let firstTaken = () => {};
  const taken = new Promise<void>((resolve) => {
    firstTaken = resolve;
  });
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  async function* pausedAfterFirst(chunks: AsyncIterable<string>) {
    let count = 0;
    for await (const chunk of chunks) {
      yield chunk;
      if (++count > 1) continue;
      firstTaken();
      await released;
    }
  }
  let writes = 0;
  const writeSynced = (file: string, chunks: AsyncIterable<string>) =>
    writeFile(file, ++writes === 1 ? chunks : pausedAfterFirst(chunks));
  const journal = new Journal(statePath, engine, { compactBytes: 1_000, writeSynced });
  await journal.compact();
  // Lines of s0 (100 KB each) until the journal is past the state file (800 KB); the next commit compacts.
  const size = async (file: string) => (await stat(file)).size;
  while ((await size(journalPathOf(statePath))) <= (await size(statePath))) await journal.commit({ keys: ["s0"] });
  await journal.commit({ keys: ["s0"] });
  await taken;
  // Meanwhile: s0 (written) and s7 (not yet) change, s6 goes, s8 comes, the id generator moves; each committed.
  accounts.s0!.note = "b".repeat(1e5);
  accounts.s7!.note = "c".repeat(1e5);
  delete accounts.s6;
  accounts.s8 = store("d");
  state.ids.counter = 11;
  await journal.commit({ keys: ["s0", "s6", "s7", "s8"] });
  expect(writes).toBe(2); // answered with the state file half-written
  release();
  await journal.settled();
  const text = await readFile(statePath, "utf8");
  const written = JSON.parse(text) as { ids: unknown; accounts: Record<string, { note: string }> };
  const notes = Object.entries(written.accounts).map(([key, { note }]) => `${key}:${note[0]}`);
  expect(notes).toEqual(["s0:a", "s1:a", "s2:a", "s3:a", "s4:a", "s5:a", "s7:c"]);
  expect(written.ids).toEqual({ seed: 1, counter: 11 });
  // The journal's last line: s0 and s7 as changes, s6 removed, s8 whole (new to the journal).
  const last = JSON.parse((await readFile(journalPathOf(statePath), "utf8")).trimEnd().split("\n").at(-1)!);
  const lines = Object.entries(last.accounts as Record<string, object | null>).map(
    ([key, line]) => `${key}:${line === null ? "null" : Object.keys(line)[0]}`,
  );
  expect(lines).toEqual(["s0:parts", "s6:null", "s7:parts", "s8:whole"]);
  const { state: rebuilt } = await readJournaled(statePath, savedTextOf(text), () => {
    throw new Error("the state file is there");
  });
  expect(rebuilt!.accounts).toEqual(accounts);
  await journal.close();
});
