// The reader of PUT /_sandbox/state's body (state-import.ts), which walks the text's structure itself and leaves each
// value to JSON.parse: for any JSON object it gives what JSON.parse gives for the whole text (the same values, keys
// in the same order, a key given twice as JSON.parse takes it), whatever the whitespace; for any text that is not a
// JSON object (a character dropped, doubled or changed anywhere, another value), nothing, so that the caller parses
// it whole for JSON.parse's own message.
import fc from "fast-check";
import { expect, it } from "vitest";
import { parseStateInTurns } from "../../src/sandbox/state-import.js";

const bytesOf = (text: string) => new TextEncoder().encode(text);

/**
 * What JSON.parse makes of `text` (a byte-order mark before it dropped, as Fetch's text() reads a body) when it is a
 * JSON object, as JSON (its keys' order kept), else undefined.
 */
function asJsonParse(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\ufeff/, ""));
  } catch {
    return undefined;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value) ? JSON.stringify(value) : undefined;
}

const read = async (text: string) => {
  const state = await parseStateInTurns(bytesOf(text));
  return state === undefined ? undefined : JSON.stringify(state);
};

/** An object shaped as a state is: stores under accounts, other parts beside them; any JSON inside. */
const stateLike = fc.record({
  before: fc.dictionary(fc.string(), fc.jsonValue()),
  accounts: fc.dictionary(fc.string(), fc.jsonValue()),
  after: fc.dictionary(fc.string(), fc.jsonValue()),
});

/** `value` as JSON text with whitespace of the kind `spacing` picks (JSON.stringify's indent, or tabs and CRLF). */
const textOf = (value: unknown, spacing: number) =>
  spacing === 3 ? JSON.stringify(value, null, "\t").replace(/\n/g, "\r\n") : JSON.stringify(value, null, spacing);

const SEED = { seed: 20_261_130 }; // fixed: a red run is a real difference, never the draw

it("gives what JSON.parse gives for any JSON object, stores and parts alike", async () => {
  await fc.assert(
    fc.asyncProperty(stateLike, fc.integer({ min: 0, max: 3 }), async ({ before, accounts, after }, spacing) => {
      const text = textOf({ ...before, accounts, ...after }, spacing);
      expect(await read(text)).toBe(asJsonParse(text));
    }),
    { ...SEED, numRuns: 300 },
  );
});

it("gives what JSON.parse gives, or nothing where it refuses, for the text with one character changed", async () => {
  const edits = fc.record({
    at: fc.nat(),
    kind: fc.constantFrom("drop", "double", "replace"),
    by: fc.constantFrom(...'{}[]":,\\ 0-eE.tfn\u0000\u00e9\ufeff'),
  });
  await fc.assert(
    fc.asyncProperty(stateLike, edits, async ({ before, accounts, after }, { at, kind, by }) => {
      const text = JSON.stringify({ ...before, accounts, ...after });
      const place = at % text.length;
      const edited =
        text.slice(0, place) + { drop: "", double: text[place]!.repeat(2), replace: by }[kind] + text.slice(place + 1);
      expect(await read(edited)).toBe(asJsonParse(edited));
    }),
    { ...SEED, numRuns: 500 },
  );
});

it("takes a key given twice as JSON.parse does, and gives nothing for a value that is not an object", async () => {
  const twice = '{"accounts":{"a":1,"b":2,"a":3},"version":2,"accounts":{"c":4},"__proto__":{"x":1}}';
  expect(await read(twice)).toBe(asJsonParse(twice));
  expect(JSON.parse((await read(twice))!)).toEqual({ accounts: { c: 4 }, version: 2, ["__proto__"]: { x: 1 } });
  for (const text of ["", "  ", "[]", "null", '"text"', "2", "{}x", "{", '{"a":1}}'])
    expect(await parseStateInTurns(bytesOf(text))).toBeUndefined();
  expect(await read("\ufeff {} ")).toBe("{}"); // a byte-order mark before the text is dropped, as Fetch's text() does
});
