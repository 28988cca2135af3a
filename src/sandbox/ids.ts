// The identifiers the sandbox writes (choices.ts, "ids"): a small generator whose state lives in the sandbox's
// state, so a sandbox restored from a snapshot answers the same ids as the one it was taken from. Each id also
// carries the generator's counter, so two ids are never equal. Not for secrets: nothing here is unguessable.
import type { SandboxIdState } from "../../generated/sandbox-control.js";
import { DATED_REFERENCE_CHARACTERS, QUOTE_ID_FORM } from "./rules.js";

/** The generator as a snapshot holds it (the control document's SandboxIdState). */
export type IdState = SandboxIdState;

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPER_ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A fresh generator state, seeded from Web Crypto. */
export function freshIds(): IdState {
  const [seed] = crypto.getRandomValues(new Uint32Array(1));
  return { seed: seed ?? 0, counter: 0 };
}

/** The next 32 random bits (mulberry32). */
function nextWord(state: IdState): number {
  state.seed = (state.seed + 0x6d2b79f5) >>> 0;
  let t = state.seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
}

/** `length` characters of `alphabet`, drawn from the generator (addresses, hashes, references). */
export function randomText(state: IdState, alphabet: string, length: number): string {
  let text = "";
  for (let place = 0; place < length; place++) text += alphabet[nextWord(state) % alphabet.length];
  return text;
}

const hex = (word: number, digits: number): string => word.toString(16).padStart(8, "0").slice(0, digits);

/** The counter written in `alphabet`, `length` characters (enough for any sandbox's lifetime). */
function counterText(state: IdState, alphabet: string, length: number): string {
  let rest = ++state.counter;
  let text = "";
  for (let place = 0; place < length; place++) {
    text = alphabet[rest % alphabet.length] + text;
    rest = Math.floor(rest / alphabet.length);
  }
  return text;
}

/** A UUID (version 4 form) whose last 12 hex digits are the counter. */
export function uuid(state: IdState): string {
  const [a, b, c, d] = [nextWord(state), nextWord(state), nextWord(state), nextWord(state)];
  const variant = ((d >>> 28) & 0x3) | 0x8;
  const tail = counterText(state, "0123456789abcdef", 12);
  return `${hex(a, 8)}-${hex(b, 4)}-4${hex(c, 3)}-${variant.toString(16)}${hex(d, 3)}-${tail}`;
}

const { prefix: QUOTE_PREFIX, randomLength: QUOTE_RANDOM_LENGTH, counterLength: QUOTE_COUNTER_LENGTH } = QUOTE_ID_FORM;

/** A quote id as the documented example writes one: `qt_` and 16 letters or digits. */
export function quoteId(state: IdState): string {
  const random = randomText(state, ALPHANUMERIC, QUOTE_RANDOM_LENGTH);
  return `${QUOTE_PREFIX}${random}${counterText(state, ALPHANUMERIC, QUOTE_COUNTER_LENGTH)}`;
}

/** The counter a quote id of quoteId's form ends with (a later quote's is larger), or undefined for other text. */
export function quoteCounter(id: string): number | undefined {
  if (id.length !== QUOTE_PREFIX.length + QUOTE_RANDOM_LENGTH + QUOTE_COUNTER_LENGTH || !id.startsWith(QUOTE_PREFIX))
    return undefined;
  let counter = 0;
  for (let place = id.length - QUOTE_COUNTER_LENGTH; place < id.length; place++) {
    const digit = ALPHANUMERIC.indexOf(id[place]!);
    if (digit < 0) return undefined;
    counter = counter * ALPHANUMERIC.length + digit;
  }
  return counter;
}

/** A reference as the documented examples write them: `<prefix>-<yyyymmdd>-<6 characters>`. */
export function datedReference(state: IdState, prefix: string, at: number): string {
  const day = new Date(at).toISOString().slice(0, 10).replace(/-/g, "");
  const random = randomText(state, UPPER_ALPHANUMERIC, DATED_REFERENCE_CHARACTERS - 4);
  return `${prefix}-${day}-${random}${counterText(state, UPPER_ALPHANUMERIC, 4)}`;
}

/** A trade reference as the documented example writes one: `TRD-<yyyymmdd>-<6 characters>`. */
export const tradeReference = (state: IdState, at: number): string => datedReference(state, "TRD", at);
