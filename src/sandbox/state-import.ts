// The whole state read from its JSON text a store at a time: what PUT /_sandbox/state takes (control.ts), the
// counterpart of state-export.ts. A large state is long to read (10,000 accounts of 20 trades are 222 MiB of text:
// its JSON.parse took 3 to 4 s), and read in one go it held every other request that long; read here a store at a
// time, with a turn of the event loop between two stores, no request waits for more than one store.
// How: the text's structure is walked here, a byte at a time (strings skipped, brackets counted), only as far as to
// find where each store's value (and each other part's) begins and ends; each such piece is then parsed by JSON.parse
// itself. So the values are exactly those JSON.parse gives for the whole text (its numbers, its strings, a key
// given twice: the last value, in the place of the first; "__proto__" an own key), at about the speed of a JSON.parse
// of the whole (on the state above, on one machine: 2.4 s, against 17 s for @streamparser/json and 25 s for
// stream-json, which tokenize every character in JavaScript). Text that is not JSON, or not an object, is found out
// here and handed back undefined: the caller parses it whole, for JSON.parse's own message, as for any other route
// (that parse holds the other requests until JSON.parse meets the fault; such a body is refused, never applied).
import { setOwnEntry } from "./state.js";
import { inTurns, type Steps } from "./turns.js";

const [SPACE, TAB, LINE_FEED, CARRIAGE_RETURN] = [0x20, 0x09, 0x0a, 0x0d];
const [QUOTE, BACKSLASH, COMMA, COLON] = [0x22, 0x5c, 0x2c, 0x3a];
const [OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY] = [0x7b, 0x7d, 0x5b, 0x5d];

/** What a body's bytes are decoded as, a piece at a time: UTF-8, a bad byte replaced (as Fetch's text() does). */
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

const isSpace = (byte: number | undefined) =>
  byte === SPACE || byte === LINE_FEED || byte === CARRIAGE_RETURN || byte === TAB;

/** Where the text is not JSON (or not a state's object): the caller parses it whole for JSON.parse's message. */
class NotJson extends Error {}

/** JSON text as bytes, read from `at` on: its structure walked here, its values parsed by JSON.parse. */
class JsonBytes {
  /** A byte-order mark at the start is not part of the text, as Fetch's text() reads a body. */
  at: number;

  constructor(private readonly bytes: Uint8Array) {
    this.at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  }

  /** The next byte that is not JSON whitespace (undefined at the end), `at` moved to it. */
  next(): number | undefined {
    while (isSpace(this.bytes[this.at])) this.at++;
    return this.bytes[this.at];
  }

  /** Moves past `byte` when it comes next; whether it did. */
  take(byte: number): boolean {
    if (this.next() !== byte) return false;
    this.at++;
    return true;
  }

  /** Moves past `byte`, which must come next. */
  expect(byte: number): void {
    if (!this.take(byte)) throw new NotJson();
  }

  /** The value that comes next, as JSON.parse gives it, `at` moved past it. */
  value(): unknown {
    this.next();
    const start = this.at;
    const end = this.valueEnd(start);
    this.at = end;
    try {
      return JSON.parse(utf8.decode(this.bytes.subarray(start, end)));
    } catch {
      throw new NotJson();
    }
  }

  /** A member's key and its colon, `at` moved past them. */
  key(): string {
    if (this.next() !== QUOTE) throw new NotJson();
    const key = this.value() as string;
    this.expect(COLON);
    return key;
  }

  /**
   * Where the value that starts at `start` ends, as far as its structure tells: past its closing bracket (the
   * brackets of either kind counted, strings skipped), its closing quote, or (a number, true, false, null) the byte
   * before a delimiter. A piece that is not a JSON value is left to JSON.parse to refuse.
   */
  private valueEnd(start: number): number {
    const { bytes } = this;
    const first = bytes[start];
    if (first === QUOTE) return this.stringEnd(start);
    if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
      let end = start;
      while (end < bytes.length && !isDelimiter(bytes[end]!)) end++;
      return end;
    }
    let depth = 0;
    for (let at = start; at < bytes.length; at++) {
      const byte = bytes[at]!;
      if (byte === QUOTE) at = this.stringEnd(at) - 1;
      else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
      else if ((byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) && --depth === 0) return at + 1;
    }
    throw new NotJson(); // the text ends inside the value
  }

  /** Where the string whose opening quote is at `start` ends: past its closing quote. */
  private stringEnd(start: number): number {
    const { bytes } = this;
    for (let at = start + 1; at < bytes.length; at++) {
      const byte = bytes[at];
      if (byte === BACKSLASH) at++;
      else if (byte === QUOTE) return at + 1;
    }
    throw new NotJson(); // the text ends inside the string
  }
}

const isDelimiter = (byte: number) =>
  byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || byte === COLON || isSpace(byte);

/** The members of the object that comes next, each read by `member` (given its key). */
function* members(text: JsonBytes, member: (key: string) => Steps<void>): Steps<void> {
  text.expect(OPEN_OBJECT);
  if (text.take(CLOSE_OBJECT)) return;
  do yield* member(text.key());
  while (text.take(COMMA));
  text.expect(CLOSE_OBJECT);
}

/** The state `text` holds (a JSON object and nothing after it): a step after each store (a member of accounts). */
function* stateOf(text: JsonBytes): Steps<Record<string, unknown>> {
  const state: Record<string, unknown> = {};
  yield* members(text, function* (name) {
    if (name !== "accounts" || text.next() !== OPEN_OBJECT) return setOwnEntry(state, name, text.value());
    const accounts: Record<string, unknown> = {};
    setOwnEntry(state, name, accounts); // a second "accounts" replaces the first, in its place (as in JSON.parse)
    yield* members(text, function* (key) {
      setOwnEntry(accounts, key, text.value());
      yield;
    });
  });
  if (text.next() !== undefined) throw new NotJson();
  return state;
}

/**
 * The state `bytes` hold (a body of JSON text) as JSON.parse gives it, parsed a store at a time with a turn of the
 * event loop between two stores; undefined when the text is not a JSON object (the caller parses it whole).
 */
export async function parseStateInTurns(bytes: Uint8Array): Promise<Record<string, unknown> | undefined> {
  try {
    return await inTurns(stateOf(new JsonBytes(bytes)));
  } catch (error) {
    if (error instanceof NotJson) return undefined;
    throw error;
  }
}
