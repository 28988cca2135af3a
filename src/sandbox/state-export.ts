// The whole state as JSON text, made a piece at a time: what GET /_sandbox/state answers (control.ts) and what a
// compaction of the --state journal writes (journal.ts). A large state is long to make (10,000 accounts of 20 trades
// are 221 MiB of text: a structuredClone of it took about 5 s, its JSON.stringify about 4 s), and made in one go it
// held every other request that long; made in chunks, with a turn of the event loop between them, no request waits
// for more than one chunk, and a reader that reads slowly (a socket's buffer full) holds nothing but its export.
// Consistency (what a reader of the text may rely on): each store is serialized whole, in one synchronous step, at
// its own moment during the export; the parts beside the stores, which every request may move (the id generator,
// the clock, the rates, the keyless windows, and the version and the catalogue with them), are read after the last
// store, so the id generator is past every id the stores hold. A store deleted before its turn is left out; one
// added after the export began is not in it. When nothing changes meanwhile, the text parses to what
// `sandbox.snapshot()` gives (the same parts and values; the stores come first). A restore, which replaces the
// state whole, ends an export under way with an error: its stores and its clock would be of two states.
// Why that is enough for the journal: the lines it writes after a compaction begins hold each store they name
// whole, or the records added to its growing lists from an index (applied by replacing the tail) and its changed
// records by index, so applying them to a store serialized at any later moment gives what applying them to the
// store as it was when the compaction began gives.
import type { Engine } from "./engine.js";
import { type AccountRecord, ownEntry } from "./state.js";
import { nextTurn } from "./turns.js";

/** How much text a chunk holds before the export gives the event loop a turn (one store may make a chunk larger). */
const CHUNK_CHARS = 256 * 1024;

interface StateExportOptions {
  /** Whether each store's apiSecret and webhookSecret are in the text (GET …/state?secrets=true, the journal). */
  secrets: boolean;
  /** What is wrong with a store as it is to be written (undefined: nothing); a problem ends the export with it. */
  storeProblem?: (key: string, store: object) => string | undefined;
  /** What is wrong with the parts beside the stores, read after the last one; a problem ends the export with it. */
  partsProblem?: (parts: Record<string, unknown>) => string | undefined;
}

/** What the export reads of the engine: the state (replaced whole by a restore) and the clock. */
type ExportedEngine = Pick<Engine, "state" | "clock">;

/** `store` as a read that did not ask for the secrets shows it: a shallow copy, the store itself left as it is. */
function withoutSecrets(store: AccountRecord): object {
  const { apiSecret: _apiSecret, webhookSecret: _webhookSecret, ...shown } = store;
  return shown;
}

/** Refuses to go on with an export of `state` once a restore has replaced it. */
function stillExporting(engine: ExportedEngine, state: ExportedEngine["state"]): void {
  if (engine.state !== state) throw new Error("the state was replaced (a restore) while it was being exported");
}

/** The parts of the state beside its stores, as snapshot() gives them (the clock's state in place of the state's). */
function partsOf(engine: ExportedEngine): Record<string, unknown> {
  const { accounts: _accounts, ...parts } = engine.state as unknown as Record<string, unknown>;
  return { ...parts, clock: engine.clock.state() };
}

/** The chunks of the export (see exportState). */
async function* stateChunks(engine: ExportedEngine, options: StateExportOptions): AsyncGenerator<string> {
  const { state } = engine;
  // The stores of this moment: one added later is not in the export.
  const keys = Object.keys(state.accounts);
  let text = '{"accounts":{';
  let written = 0;
  for (const key of keys) {
    if (text.length >= CHUNK_CHARS) {
      yield text;
      text = "";
      await nextTurn();
      stillExporting(engine, state);
    }
    const store = ownEntry(state.accounts, key);
    if (!store) continue; // deleted before its turn
    const shown = options.secrets ? store : withoutSecrets(store);
    const problem = options.storeProblem?.(key, shown);
    if (problem !== undefined) throw new Error(problem);
    text += `${written++ === 0 ? "" : ","}${JSON.stringify(key)}:${JSON.stringify(shown)}`;
  }
  // Read after the last store: the id generator is past every id the stores hold.
  const parts = partsOf(engine);
  const problem = options.partsProblem?.(parts);
  if (problem !== undefined) throw new Error(problem);
  text += "}";
  for (const [name, value] of Object.entries(parts)) text += `,${JSON.stringify(name)}:${JSON.stringify(value)}`;
  yield `${text}}`;
}

/**
 * The state's JSON text in chunks, under the consistency rule above. The export begins at this call: the stores it
 * covers are those of this moment, and its first chunk is made at once, so a state smaller than a chunk is the state
 * of this moment, whole. Each next chunk is made when it is asked for, after a turn of the event loop; a reader that
 * stops (`return()`) ends the export.
 */
export function exportState(engine: ExportedEngine, options: StateExportOptions): AsyncIterableIterator<string> {
  const chunks = stateChunks(engine, options);
  let first: Promise<IteratorResult<string>> | undefined = chunks.next();
  // Its failure is the reader's, when it reads it; one that never reads it leaves no unhandled rejection.
  first.catch(() => undefined);
  return {
    next: () => {
      const made = first ?? chunks.next();
      first = undefined;
      return made;
    },
    return: (value?: unknown) => chunks.return(value),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
