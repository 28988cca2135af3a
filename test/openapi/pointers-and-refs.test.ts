// JSON pointers and local $refs (src/openapi): the tokens of a pointer or a `#/…` reference, escaping,
// reading a value at a pointer, and following $ref chains with their refusals. Properties check the
// rules for every string: escaping round-trips, and a reference built from tokens gives them back.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  deref,
  escapePointerToken,
  pointerTokens,
  refOf,
  resolvePointer,
  unescapePointerToken,
} from "../../src/openapi/index.js";

/** Characters that escaping and URI-decoding act on, so that generated tokens hit them often. */
const escapable = fc.constantFrom("~", "/", "%", "0", "1", "2", "5", "E", "a", " ");

describe("pointer tokens and escaping", () => {
  it("pointerTokens: a JSON pointer is not URI-decoded, a local reference is; both unescape ~1 and ~0", () => {
    expect(pointerTokens("")).toEqual([]);
    expect(pointerTokens("#")).toEqual([]);
    expect(pointerTokens("/a~1b/c~0d/%25")).toEqual(["a/b", "c~d", "%25"]);
    expect(pointerTokens("#/a~1b/c%20d/%7E0")).toEqual(["a/b", "c d", "~"]);
    expect(pointerTokens("/")).toEqual([""]);
  });

  it("refOf writes a local reference: ~ and / escaped, % encoded so that the reference reads back", () => {
    expect(refOf([])).toBe("#");
    expect(refOf(["paths", "/wallets/{currencyCode}", "get"])).toBe("#/paths/~1wallets~1{currencyCode}/get");
    expect(refOf(["a~b", "100%", ""])).toBe("#/a~0b/100%25/");
    expect(pointerTokens(refOf(["100%", "%7E"]))).toEqual(["100%", "%7E"]);
  });

  it("property: unescaping an escaped token gives the token back", () => {
    fc.assert(
      fc.property(fc.string({ unit: escapable }), (token) => unescapePointerToken(escapePointerToken(token)) === token),
    );
  });

  it("property: the tokens of a reference built from tokens are those tokens", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.string({ unit: escapable }))), (tokens) => {
        expect(pointerTokens(refOf(tokens))).toEqual(tokens);
      }),
    );
  });
});

describe("resolvePointer", () => {
  it("only '', '#…' and '/…' are pointers; arrays by index; a missing or inherited key is undefined", () => {
    const document = { a: { b: [10, 20] }, "": { x: 1 } };
    expect(resolvePointer(document, "")).toBe(document);
    expect(resolvePointer(document, "/a/b/1")).toBe(20);
    expect(resolvePointer(document, "#/a/b/0")).toBe(10);
    expect(resolvePointer(document, "/")).toEqual({ x: 1 });
    expect(resolvePointer(document, "a/b")).toBeUndefined();
    expect(resolvePointer(document, "x/")).toBeUndefined();
    expect(resolvePointer(document, "/a/c")).toBeUndefined();
    expect(resolvePointer(document, "/a/b/0/deeper")).toBeUndefined();
    expect(resolvePointer(document, "/a/toString")).toBeUndefined();
  });

  it("follows JSON pointers and local refs, and nothing else", () => {
    const document = { a: { b: 1 } };
    expect(resolvePointer(document, "/a/b")).toBe(1);
    expect(resolvePointer(document, "#/a/b")).toBe(1);
    expect(resolvePointer(document, "a/b")).toBeUndefined();
    expect(resolvePointer(document, "other.yaml#/a/b")).toBeUndefined();
    // Not a pointer even where its tail would resolve (the first character is dropped as a pointer's "/").
    expect(resolvePointer({ "": { b: 1 } }, "x/b")).toBeUndefined();
  });

  it("property: a value placed at a path of object keys is found at the reference of that path", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), fc.jsonValue(), (path, value) => {
        const document = path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
        expect(resolvePointer(document, refOf(path))).toBe(value);
      }),
    );
  });
});

describe("deref", () => {
  it("follows local $refs (33 hops at most, the first included); refuses longer, external or dangling ones", () => {
    const chain = (length: number): Record<string, unknown> => {
      const document: Record<string, unknown> = { end: { type: "string" } };
      for (let i = 0; i < length; i++) document[`r${i}`] = { $ref: i === length - 1 ? "#/end" : `#/r${i + 1}` };
      return document;
    };
    expect(deref(chain(32), { $ref: "#/r0" })).toEqual({ type: "string" });
    expect(() => deref(chain(33), { $ref: "#/r0" })).toThrow(/^openapi: \$ref chain too deep at #\/end$/);
    expect(() => deref({}, { $ref: "other.yaml#/a" })).toThrow(
      /^openapi: only local \$refs are supported, got other\.yaml#\/a \(use a bundled document\)$/,
    );
    expect(() => deref({}, { $ref: "#/missing" })).toThrow(/^openapi: unresolvable \$ref #\/missing$/);
    expect(deref({ a: [1] }, { $ref: "#/a" })).toBeUndefined(); // an array is not an object
    expect(deref({}, "text")).toBeUndefined();
    expect(deref({}, { $ref: 1, x: 2 })).toEqual({ $ref: 1, x: 2 });
  });
});
