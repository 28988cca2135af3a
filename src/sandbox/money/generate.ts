// Values the sandbox makes up for money moving in and out: deposit addresses that match their network's
// addressRegex, on-chain hashes, and the fee of an amount. Drawn from the state's id generator, so a restored
// sandbox makes the same ones (choices.ts, "addresses.values", "withdrawals.fees").
import { CHAIN_HASH_HEX_DIGITS, EXTERNAL_REFERENCE_FORM } from "../rules.js";
import { ADDRESS_FALLBACK, ADDRESS_OPEN_REPEAT } from "../rules.js";
import type { Currency } from "../catalogue.js";
import { type IdState, randomText } from "../ids.js";
import { roundAt15Digits, toMinor } from "../state.js";

const HEX = "0123456789abcdef";
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const ESCAPES: Record<string, string> = { d: DIGITS, w: `${LETTERS}${DIGITS}_` };

/** The characters of a class body (`a-fA-F0-9`, `1-9A-HJ-NP-Za-km-z`), or undefined for a negated class. */
function classCharacters(body: string): string | undefined {
  if (body.startsWith("^")) return undefined;
  let characters = "";
  for (let at = 0; at < body.length; at++) {
    let char = body[at]!;
    if (char === "\\") {
      char = body[++at] ?? "";
      characters += ESCAPES[char] ?? char;
    } else if (body[at + 1] === "-" && at + 2 < body.length) {
      const end = body.charCodeAt(at + 2);
      for (let code = char.charCodeAt(0); code <= end; code++) characters += String.fromCharCode(code);
      at += 2;
    } else characters += char;
  }
  return characters;
}

/** How many times a token repeats, from the quantifier at `at` (and the quantifier's length). */
function repeatAt(pattern: string, at: number): { count: number; length: number } {
  const char = pattern[at];
  if (char === "?") return { count: 1, length: 1 };
  if (char === "+" || char === "*") return { count: ADDRESS_OPEN_REPEAT, length: 1 };
  const counted = char === "{" ? /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at)) : null;
  if (!counted) return { count: 1, length: 0 };
  const [text, low, comma, high] = counted;
  const count = comma === undefined ? Number(low) : high ? Number(high) : Math.max(Number(low), ADDRESS_OPEN_REPEAT);
  return { count, length: text.length };
}

/** Where the class opened before `from` ends: its first `]` that is not escaped (`[a\]]`), or -1. */
function classEnd(pattern: string, from: number): number {
  for (let at = from; at < pattern.length; at++) {
    if (pattern[at] === "\\") at++;
    else if (pattern[at] === "]") return at;
  }
  return -1;
}

/** The pattern without its anchors: a leading ^, and a trailing $ unless escaped (`a\$` ends in a literal $). */
function unanchored(pattern: string): string {
  const body = pattern.replace(/^\^/, "");
  const ending = /(\\*)\$$/.exec(body);
  return ending !== null && ending[1]!.length % 2 === 0 ? body.slice(0, -1) : body;
}

/** One token (a literal, an escape or a class) at `at`: its characters and length; undefined when unsupported. */
function tokenAt(pattern: string, at: number): { characters: string; length: number } | undefined {
  const char = pattern[at]!;
  if (char === "[") {
    const end = classEnd(pattern, at + 1);
    const characters = end < 0 ? undefined : classCharacters(pattern.slice(at + 1, end));
    return characters ? { characters, length: end - at + 1 } : undefined;
  }
  if (char === "\\") {
    const next = pattern[at + 1];
    return next === undefined ? undefined : { characters: ESCAPES[next] ?? next, length: 2 };
  }
  return "()|.".includes(char) ? undefined : { characters: char, length: 1 };
}

/** A value matching `pattern` built from its literals, classes and counted repeats; undefined for other forms. */
function fromPattern(pattern: string, ids: IdState): string | undefined {
  const body = unanchored(pattern);
  let value = "";
  for (let at = 0; at < body.length; ) {
    const token = tokenAt(body, at);
    if (!token) return undefined;
    const repeat = repeatAt(body, at + token.length);
    value += randomText(ids, token.characters, repeat.count);
    at += token.length + repeat.length;
  }
  return new RegExp(pattern).test(value) ? value : undefined;
}

/** A new deposit address: one matching `addressRegex` when given and of a form the sandbox builds, else 0x and hex. */
export function addressValue(ids: IdState, addressRegex: string | undefined): string {
  const fromRegex = addressRegex === undefined ? undefined : fromPattern(addressRegex, ids);
  return fromRegex ?? `${ADDRESS_FALLBACK.prefix}${randomText(ids, HEX, ADDRESS_FALLBACK.hexDigits)}`;
}

/** An on-chain transaction hash: 64 hex digits (the deposits example's form). */
export const chainHash = (ids: IdState): string => randomText(ids, HEX, CHAIN_HASH_HEX_DIGITS);

/** A payout's external reference: `EXT-` and 10 digits (the payouts example's form). */
export const externalReference = (ids: IdState): string =>
  `${EXTERNAL_REFERENCE_FORM.prefix}${randomText(ids, DIGITS, EXTERNAL_REFERENCE_FORM.digits)}`;

/** A fee as the catalogue gives it: an amount (FLAT) or a percentage (PERCENTAGE), and an optional cap. */
export interface FeeTerms {
  fee: number;
  type: string;
  /** The largest fee, where above 0 (a currency's maximumWithdrawalFee). */
  maximum?: number;
}

/**
 * The fee on `amountMinor` of `currency`, in minor units: a FLAT fee (or one of a type the sandbox does not know)
 * is its amount; a PERCENTAGE fee is that share of the amount, rounded to the currency's decimals, capped.
 */
export function feeMinor(amountMinor: number, currency: Currency, { fee, type, maximum }: FeeTerms): number {
  if (type !== "PERCENTAGE") return toMinor(fee, currency);
  const share = roundAt15Digits((amountMinor * fee) / 100);
  return maximum !== undefined && maximum > 0 ? Math.min(share, toMinor(maximum, currency)) : share;
}
