// The journal of `--state` (server.ts): every change an answer shows is written before the answer is sent, and synced
// to the disk within 100 ms (a killed process loses nothing; a machine that stops, that last moment). Two files:
// the state file (a whole state, as GET /_sandbox/state?secrets=true gives it) and `<file>.journal`, whose first line
// names the state file it follows (the SHA-256 of its text) and each next line holds what one commit changed: of
// each store it names, what changed since its last line (the whole of a store new to the journal; null:
// removed), with the parts every request may move (the id generator, the clock, the rates, the keyless windows).
// Commits that arrive while a write is under way go out together in the next write (one write for all: a group
// commit), and each answer waits for its own. A change of the whole state (a restore, the sandbox clock moved, which
// may settle any key's withdrawals) writes the whole state instead and starts the journal afresh (a compaction), as
// a journal past its size limit does; a stop writes the whole state and removes the journal.
// At start the state file is read, the journal's lines applied when it follows that file (a last line cut short by a
// crash was never acknowledged, and is left out; a journal that follows another file is older than the state file,
// which a compaction wrote before it could start a new journal), and the result restored as a whole, checked; then
// that journal goes on (or a new one follows the file): the state is not written again at start.
import { createHash, type Hash } from "node:crypto";
import { fdatasyncSync, readSync, renameSync, writeSync } from "node:fs";
import { type FileHandle, open, readFile, rm, truncate } from "node:fs/promises";
import path from "node:path";
import type { SandboxState } from "../../generated/sandbox-control.js";
import { isControlPath } from "./control.js";
import type { Engine } from "./engine.js";
import { type AccountRecord, ownEntry, takeChanged } from "./state.js";
import { exportState } from "./state-export.js";

/** What a commit changed: the stores of `keys`, or the whole state. */
type Change = { keys: readonly string[] } | "all";

/** How soon after a write the journal is synced to the disk (a write is safe from a killed process at once). */
const SYNC_EVERY_MS = 100;

/**
 * A journal past this size, and past the size of the state file it follows, is compacted into the state file at the
 * next commit: a compaction writes the whole state, so its cost, spread over the lines since the last, stays that of
 * a line however large the state grows (Create Quote at concurrency 16 went from 0.27× to 0.9× of in memory).
 */
const JOURNAL_COMPACT_BYTES = 16 * 1024 * 1024;

/** `text` percent-decoded, or as it is where it is not valid percent-encoding. */
const decodeURIComponentOr = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** The key an account route names (`/_sandbox/accounts/{apiKey}…`), or undefined. */
function accountRouteKey(path: string): string | undefined {
  const named = /^\/_sandbox\/accounts\/([^/]+)(?:\/|$)/.exec(path)?.[1];
  return named === undefined ? undefined : decodeURIComponentOr(named);
}

/** The key a body names in `apiKey` (a simulated deposit's), or undefined. */
function bodyKey(body: string): string | undefined {
  try {
    const key = (JSON.parse(body) as { apiKey?: unknown } | null)?.apiKey;
    return typeof key === "string" ? key : undefined;
  } catch {
    return undefined;
  }
}

/** The key whose store holds the transaction `id`, if any. */
function ownerOf(engine: Engine, id: string): string | undefined {
  for (const [key, account] of Object.entries(engine.state.accounts))
    if (account.transactions.some((transaction) => transaction.id === id)) return key;
  return undefined;
}

/**
 * What a request may have changed that its answer shows: an API request, its key's store (none without a key: the
 * keyless windows, which every line holds); a control route of one account, that key's; a simulated deposit, the
 * key it names; a settlement, the store of its withdrawal; the rates, nothing more than every line holds; a read,
 * nothing; anything else (a restore, the sandbox clock moved, which settles any key's withdrawals), the whole state.
 */
export function changeOf(
  request: { method: string; path: string; apiKey: string | undefined; body: () => string },
  engine: Engine,
): Change {
  const { method, path, apiKey, body } = request;
  if (!isControlPath(path)) return { keys: apiKey === undefined ? [] : [apiKey] };
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return { keys: [] };
  const routeKey = accountRouteKey(path);
  if (routeKey !== undefined) return { keys: [routeKey] };
  // The rates are on every line; the settings are in no state (a restart takes them from the options).
  if (path === "/_sandbox/rates" || path === "/_sandbox/settings") return { keys: [] };
  // The body's text is made for a deposit alone: that of a restore (a whole state) is long to decode.
  const depositKey = path === "/_sandbox/deposits" ? bodyKey(body()) : undefined;
  if (depositKey !== undefined) return { keys: [depositKey] };
  const settled = /^\/_sandbox\/withdrawals\/([^/]+)\/settle$/.exec(path)?.[1];
  const owner = settled === undefined ? undefined : ownerOf(engine, decodeURIComponentOr(settled));
  if (owner !== undefined) return { keys: [owner] };
  return settled === undefined ? "all" : { keys: [] };
}

/** Writes all of `text` to `fd` (a write may take part of it). */
function writeAllSync(fd: number, text: string | Buffer): void {
  const bytes = typeof text === "string" ? Buffer.from(text) : text;
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
}

/** The lists of a store that only grow (records are added, a few change after: markChanged, state.ts). */
const GROWING = ["quotes", "trades", "transactions", "addresses"] as const;
type Growing = (typeof GROWING)[number];

/**
 * What a line holds of one store: null (removed), the whole store (new to the journal: made, put, restored), or
 * its change since its last line: its other parts whole, the records added to each growing list (from an index),
 * and the older records that changed (by index).
 */
type StoreLine =
  | null
  | { whole: unknown }
  | {
      parts: Record<string, unknown>;
      added: Partial<Record<Growing, { from: number; records: unknown[] }>>;
      changed: Partial<Record<Growing, Array<[number, unknown]>>>;
    };

/** What one line of the journal holds. */
interface Entry {
  ids: unknown;
  clock: unknown;
  rates: unknown;
  keylessWindows: unknown;
  accounts: Record<string, StoreLine>;
}

/** `store` (a store of the state being rebuilt) with the change `line` gives it. */
function changedStore(store: Record<string, unknown> | undefined, line: Exclude<StoreLine, null | { whole: unknown }>) {
  if (!store) throw new Error("the journal changes a store it never wrote: it does not follow its state file");
  const next = { ...line.parts } as Record<string, unknown>;
  for (const part of GROWING) {
    const list = [...((store[part] as unknown[] | undefined) ?? [])];
    const added = line.added[part];
    if (added) list.splice(added.from, list.length - added.from, ...added.records);
    for (const [index, record] of line.changed[part] ?? []) list[index] = record;
    next[part] = list;
  }
  return next;
}

export const journalPathOf = (statePath: string) => `${statePath}.journal`;
/** The journal a compaction writes before it renames it over the old one. */
const journalNextPathOf = (statePath: string) => `${statePath}.journal.next`;
/** Where a compaction writes the state file before it renames it over the old one (one compaction at a time). */
const stateNextPathOf = (statePath: string) => `${statePath}.next`;

/** The journal's first line: the SHA-256 (hex) of the state file's text it follows, or null (none). */
const headerFollowing = (digest: string | null) => `${JSON.stringify({ follows: digest })}\n`;
const headerOf = (stateText: string | undefined) =>
  headerFollowing(stateText === undefined ? null : createHash("sha256").update(stateText).digest("hex"));

/** Sets `key` of `record` as an own entry, whatever the key ("__proto__" included). */
function setEntry(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}

/** `state` with the journal's lines applied in order; a line that is not whole JSON ends it (a torn tail). */
function applied(state: Record<string, unknown>, lines: readonly string[]): { state: unknown; applied: number } {
  const accounts = (state.accounts ?? {}) as Record<string, unknown>;
  let count = 0;
  for (const line of lines) {
    let entry: Entry;
    try {
      entry = JSON.parse(line) as Entry;
    } catch {
      break;
    }
    Object.assign(state, {
      ids: entry.ids,
      clock: entry.clock,
      rates: entry.rates,
      keylessWindows: entry.keylessWindows,
    });
    for (const [key, line] of Object.entries(entry.accounts)) {
      if (line === null) delete accounts[key];
      else if ("whole" in line) setEntry(accounts, key, line.whole);
      else setEntry(accounts, key, changedStore(ownEntry(accounts, key) as Record<string, unknown>, line));
    }
    count++;
  }
  return { state: { ...state, accounts }, applied: count };
}

/** A state file as read at start: its text, and the value it parses to (the restore's alone). */
export interface SavedText {
  text: string;
  value: unknown;
}

/** `text` (a state file's) with the value it parses to; a SyntaxError where it is not JSON. */
export const savedTextOf = (text: string): SavedText => ({ text, value: JSON.parse(text) });

/** Where the journal stands at start (Journal.resume): the state file, and the journal that follows it, if any. */
interface JournalStart {
  /** The state file's size in bytes; undefined: there is none. */
  stateBytes: number | undefined;
  /** The header of a journal that follows the state file. */
  header: string;
  /** The journal that follows it, and the bytes of its lines that were applied (a torn tail is left out). */
  journal?: { file: string; lineBytes: number };
}

/** What the state file and its journal hold at start: the state to restore (undefined: none) and how it was made. */
export async function readJournaled(
  statePath: string,
  saved: SavedText | undefined,
  initial: () => SandboxState,
): Promise<{ state: SandboxState | undefined; applied: number; start: JournalStart }> {
  const header = headerOf(saved?.text);
  const start: JournalStart = { stateBytes: saved && Buffer.byteLength(saved.text), header };
  // A compaction cut short between its renames leaves its journal as `.journal.next`, following the new state file.
  for (const file of [journalNextPathOf(statePath), journalPathOf(statePath)]) {
    const journal = await readFile(file, "utf8").catch(() => undefined);
    const [first, ...lines] = journal === undefined ? [] : journal.split("\n");
    if (first === undefined || `${first}\n` !== header) continue;
    // Only whole lines: the last element after the final newline is "" (or a torn line, never acknowledged).
    const whole = lines.slice(0, -1);
    const following = (lineBytes: number) => ({ ...start, journal: { file, lineBytes } });
    if (whole.length === 0) return { state: saved?.value as SandboxState | undefined, applied: 0, start: following(0) };
    const base = saved === undefined ? initial() : (saved.value as Record<string, unknown>);
    const result = applied(base, whole);
    const lineBytes = whole.slice(0, result.applied).reduce((bytes, line) => bytes + Buffer.byteLength(line) + 1, 0);
    return { state: result.state as SandboxState, applied: result.applied, start: following(lineBytes) };
  }
  return { state: saved?.value as SandboxState | undefined, applied: 0, start };
}

interface Waiting {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * What a compaction covers: the state file it writes (the text of `chunks`, an export begun with it:
 * state-export.ts) follows the journal's lines up to `from` (bytes past its header).
 */
interface Compaction {
  chunks: AsyncIterator<string>;
  from: number;
}

interface JournalOptions {
  /** How large the journal grows (and past the state file's size) before the state is written whole. */
  compactBytes?: number;
  /** Writes a file whole from its chunks, appending each, and syncs it (tests slow it down). */
  writeSynced?: (file: string, chunks: AsyncIterable<string>) => Promise<void>;
}

/** The journal of one running sandbox: commits, compactions, and its end on stop. */
export class Journal {
  private handle: FileHandle | undefined;
  /** The bytes of the journal's header, and of its lines after it. */
  private headerBytes = 0;
  private bytes = 0;
  /** The size of the state file the journal follows: a journal compacts once past it (and past 16 MiB). */
  private stateBytes = 0;
  /** A write failed: the next commit writes the whole state. */
  private broken = false;
  /** The keys of the commits waiting for the next write, and their answers. */
  private pendingKeys = new Set<string>();
  private waiting: Waiting[] = [];
  private flushDue = false;
  /** A compaction under way (its state file being written); commits go on into the journal meanwhile. */
  private compacting: Promise<void> | undefined;
  /** A change of the whole state not yet on disk: commits wait, unwritten, until it is (their lines build on it). */
  private holding: Promise<void> | undefined;
  /** The length of each growing list of each store as the journal last wrote it (none: write it whole). */
  private lengths = new WeakMap<AccountRecord, Record<Growing, number>>();
  /** The journal's syncs, one after another, and the wait before the next. */
  private syncing: Promise<void> = Promise.resolve();
  private syncTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly statePath: string,
    private readonly engine: Pick<Engine, "state" | "clock">,
    private readonly options: JournalOptions = {},
  ) {}

  /**
   * Writes the state as it is now and starts the journal afresh; resolves once both are on disk. Commits meanwhile
   * wait for it (their lines would build on a state the disk may not hold yet).
   */
  compact(): Promise<void> {
    const previous = (this.compacting ?? Promise.resolve()).catch(() => undefined);
    const whole = previous.then(() => this.compactWhole());
    const settled = whole.catch(() => undefined);
    this.holding = settled;
    this.compacting = settled;
    void settled.then(() => {
      if (this.holding === settled) this.holding = undefined;
      if (this.compacting === settled) this.compacting = undefined;
      this.flushSoon();
    });
    return whole;
  }

  /**
   * Starts the journal where `start` (readJournaled) says it stands, once the state it read is restored, without
   * writing that state again: the journal that follows the state file goes on (a torn tail cut off first), or a new
   * one starts following it. With no state file yet, the state is written whole (a compaction).
   */
  async resume(start: JournalStart): Promise<void> {
    if (start.stateBytes === undefined) return this.compact();
    const file = journalPathOf(this.statePath);
    const lineBytes = start.journal?.lineBytes ?? 0;
    if (start.journal) {
      // `.journal.next` follows the state file: the compaction that wrote it was cut short before its last rename.
      if (start.journal.file !== file) renameSync(start.journal.file, file);
      await truncate(file, Buffer.byteLength(start.header) + lineBytes);
    } else {
      const next = journalNextPathOf(this.statePath);
      await writeSynced(next, [start.header]);
      renameSync(next, file);
    }
    const handle = await open(file, "a+"); // appends; a compaction reads its last lines at their positions
    await handle.datasync();
    await syncFolder(path.dirname(this.statePath));
    this.handle = handle;
    this.headerBytes = Buffer.byteLength(start.header);
    this.bytes = lineBytes;
    this.stateBytes = start.stateBytes;
  }

  /**
   * Records what `change` names; resolves once it is in the journal. A journal past its size starts a compaction,
   * which does not hold the commits: the journal goes on, and the lines written meanwhile follow the new state file.
   */
  commit(change: Change): Promise<void> {
    if (change === "all" || this.broken) return this.compact();
    const limit = Math.max(this.options.compactBytes ?? JOURNAL_COMPACT_BYTES, this.stateBytes);
    if (!this.compacting && this.bytes > limit) this.compactInPlace();
    for (const key of change.keys) this.pendingKeys.add(key);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.flushSoon();
    });
  }

  /** Resolves once no compaction is under way. */
  async settled(): Promise<void> {
    while (this.compacting) await this.compacting;
  }

  /** Ends the journal: the state written whole, then the journal (empty, following it) removed. */
  async close(): Promise<void> {
    await this.compact();
    clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    await this.syncing;
    await this.handle?.close();
    this.handle = undefined;
    await rm(journalPathOf(this.statePath), { force: true });
  }

  /** The line of a commit of `keys`: what changed of their stores, and the parts every request may move. */
  private entryOf(keys: Iterable<string>): Entry {
    const { state, clock } = this.engine;
    const accounts: Record<string, StoreLine> = {};
    for (const key of keys) setEntry(accounts, key, this.storeLine(ownEntry(state.accounts, key)));
    return { ids: state.ids, clock: clock.state(), rates: state.rates, keylessWindows: state.keylessWindows, accounts };
  }

  /**
   * What a line says of `store`: the whole of a store the journal has not written since it was made (or since the
   * last compaction), else its change since it last wrote it: a store with thousands of quotes is not written whole
   * for each new one. A change applies as well to the state file a compaction under way writes: its lists hold at
   * least what the journal wrote, and a change replaces them from the index it names.
   */
  private storeLine(store: AccountRecord | undefined): StoreLine {
    if (!store) return null;
    const written = this.lengths.get(store);
    this.lengths.set(store, lengthsOf(store));
    const changed = takeChanged(store);
    if (!written) return { whole: store };
    const { quotes: _q, trades: _t, transactions: _x, addresses: _a, ...parts } = store;
    const line = { parts, added: {}, changed: {} } as Exclude<StoreLine, null | { whole: unknown }>;
    for (const part of GROWING) {
      const list = store[part] as object[];
      if (list.length > written[part]) line.added[part] = { from: written[part], records: list.slice(written[part]) };
      const older = [...changed].map((record) => list.indexOf(record)).filter((at) => at >= 0 && at < written[part]);
      if (older.length) line.changed[part] = older.map((at) => [at, list[at]]);
    }
    return line;
  }

  /** A write of the commits waiting, once the requests that arrived with them have committed too. */
  private flushSoon(): void {
    if (this.flushDue || this.holding || this.waiting.length === 0) return;
    this.flushDue = true;
    setImmediate(() => {
      this.flushDue = false;
      if (!this.holding) this.flush();
    });
  }

  /**
   * Writes one line for every commit waiting (the state as it is now holds what each answer shows), then answers
   * each: once written, a line is the kernel's, which a killed process cannot take back. The sync to the disk (which
   * only a machine that stops loses) follows within SYNC_EVERY_MS, without holding the answers: a sync before every
   * answer cut throughput 15-fold at concurrency 1.
   */
  private flush(): void {
    const batch = this.waiting.splice(0);
    const keys = [...this.pendingKeys];
    this.pendingKeys.clear();
    if (batch.length === 0) return;
    try {
      if (!this.handle) throw new Error("the journal is not open");
      const text = `${JSON.stringify(this.entryOf(keys))}\n`;
      // A synchronous write: an append of a few KiB takes microseconds, the thread pool's round trip far longer.
      writeAllSync(this.handle.fd, text);
      this.bytes += Buffer.byteLength(text);
      for (const waiting of batch) waiting.resolve();
      this.syncSoon(this.handle);
    } catch (error) {
      // The stores' lengths moved on as if the line were written: only a whole state mends that.
      this.broken = true;
      for (const waiting of batch) waiting.reject(error);
    }
  }

  /**
   * Syncs `handle` within SYNC_EVERY_MS: a sync holds the file's writes while it runs, so one per write cost more than
   * the write; every write meanwhile is in the one sync.
   */
  private syncSoon(handle: FileHandle): void {
    if (this.syncTimer !== undefined) return;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = undefined;
      this.syncing = this.syncing.then(() => handle.datasync().catch(() => undefined));
    }, SYNC_EVERY_MS);
    this.syncTimer.unref();
  }

  /**
   * Where the journal's lines stand, and an export of the state begun now (its stores serialized each at its own
   * moment from now on: state-export.ts): what the state file to write will follow. `from` is taken before the
   * first store is serialized, so every line the state file may not hold is after it.
   */
  private begin(): Compaction {
    if (this.waiting.length && !this.holding) this.flush(); // their lines before the state that holds them
    const from = this.bytes;
    return { chunks: exportState(this.engine, { secrets: true }), from };
  }

  /**
   * A compaction that holds no commit (a journal past its size): the state file is written while the journal goes
   * on; a crash before it is renamed in leaves the old state file and the whole journal, which still follows it.
   */
  private compactInPlace(): void {
    const run = this.writeCompaction(this.begin()).catch(() => undefined); // a failure: the journal goes on
    this.compacting = run;
    void run.then(() => {
      if (this.compacting === run) this.compacting = undefined;
    });
  }

  /** The whole state written, the journal started afresh after it; the stores' next lines are their changes. */
  private async compactWhole(): Promise<void> {
    const compaction = this.begin();
    this.lengths = new WeakMap();
    for (const store of Object.values(this.engine.state.accounts)) {
      takeChanged(store);
      this.lengths.set(store, lengthsOf(store));
    }
    await this.writeCompaction(compaction);
    this.broken = false;
  }

  /**
   * Writes the compaction's state file (synced) beside the old one, then at once, with no commit in between: a new
   * journal that follows it, holding the lines written since it began (synced), the state file renamed over the old
   * one, and the new journal over the old journal. A crash between the renames leaves `<file>.journal.next`, which
   * follows the new state file (readJournaled reads it first).
   */
  private async writeCompaction({ chunks, from }: Compaction): Promise<void> {
    const [stateNext, journalNext] = [stateNextPathOf(this.statePath), journalNextPathOf(this.statePath)];
    const written = new WrittenText();
    let next: FileHandle;
    try {
      next = await open(journalNext, "w+"); // read too: the next compaction copies its last lines
    } catch (error) {
      await chunks.return?.();
      throw error;
    }
    let renamed = false;
    try {
      await (this.options.writeSynced ?? writeSynced)(stateNext, written.of(chunks));
      const header = headerFollowing(written.digest());
      const tail = this.handle
        ? linesSince(this.handle.fd, this.headerBytes + from, this.bytes - from)
        : Buffer.alloc(0);
      writeAllSync(next.fd, header);
      writeAllSync(next.fd, tail);
      fdatasyncSync(next.fd);
      renameSync(stateNext, this.statePath);
      renamed = true;
      renameSync(journalNext, journalPathOf(this.statePath));
      const old = this.handle;
      this.handle = next;
      this.headerBytes = Buffer.byteLength(header);
      this.bytes = tail.length;
      this.stateBytes = written.bytes;
      clearTimeout(this.syncTimer); // the old journal is superseded; the new one is synced up to here
      this.syncTimer = undefined;
      void old?.close().catch(() => undefined);
    } catch (error) {
      // Past the state file's rename, the lines go on into a journal that no longer follows it: write it whole.
      if (renamed) this.broken = true;
      else await rm(journalNext, { force: true });
      await next.close().catch(() => undefined);
      await rm(stateNext, { force: true });
      throw error;
    }
    await syncFolder(path.dirname(this.statePath));
  }
}

/** The length of each growing list of `store`. */
const lengthsOf = (store: AccountRecord) =>
  Object.fromEntries(GROWING.map((part) => [part, store[part].length])) as Record<Growing, number>;

/** `length` bytes of the file `fd` from `position` on. */
function linesSince(fd: number, position: number, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let at = 0; at < length; ) {
    const read = readSync(fd, bytes, at, length - at, position + at);
    if (read === 0) throw new Error("the journal is shorter than the lines written to it");
    at += read;
  }
  return bytes;
}

/**
 * The text of a state file as it is written: its chunks passed on (a line end after the last), hashed and counted
 * as they go, so the journal's header and the file's size are known without the whole text held at once.
 */
class WrittenText {
  bytes = 0;
  private readonly hash: Hash = createHash("sha256");

  /** `chunks`, then a line end, each hashed and counted as it is taken. */
  async *of(chunks: AsyncIterator<string>): AsyncGenerator<string> {
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield this.taken(next.value);
    yield this.taken("\n");
  }

  /** The SHA-256 (hex) of the text taken; once all is taken. */
  digest(): string {
    return this.hash.digest("hex");
  }

  private taken(chunk: string): string {
    this.hash.update(chunk);
    this.bytes += Buffer.byteLength(chunk);
    return chunk;
  }
}

/** Writes `file` whole from its chunks (each appended as it comes) and syncs it. */
async function writeSynced(file: string, chunks: AsyncIterable<string> | Iterable<string>): Promise<void> {
  const handle = await open(file, "w");
  try {
    // A handle's writeFile writes from where the last write ended, the whole chunk: each appends.
    for await (const chunk of chunks) await handle.writeFile(chunk, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Syncs a folder, so the renames in it last; where a folder cannot be opened for syncing (Windows), they stand. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, "r").catch(() => undefined);
  await handle
    ?.sync()
    .catch(() => undefined)
    .finally(() => handle.close());
}
