// Redaction: the API key and the secret replaced in strings (longest first), in JSON-like values (keys included,
// bounded depth) and in errors and their causes, so nothing an error or a hook exposes holds a credential.
import { describe, expect, it } from "vitest";
import { createRedactor, redactError, redactValue } from "../../src/client/redact.js";

describe("redaction", () => {
  it("createRedactor replaces the longer secret first, and redacts nothing without secrets", () => {
    expect(createRedactor("abc", "abcdef")("x abcdef abc")).toBe("x [REDACTED] [REDACTED]");
    expect(createRedactor("abcdef", "abc")("abcdef")).toBe("[REDACTED]");
    const none = createRedactor(undefined, "");
    const value = { a: ["b"] };
    expect(redactValue(value, none)).toBe(value);
    expect(none("abc")).toBe("abc");
  });

  it("redactValue copies keys and values to 64 levels, and leaves null and other values as they are", () => {
    const redact = createRedactor("s3cr3t");
    expect(redactValue(null, redact)).toBeNull();
    expect(redactValue(5, redact)).toBe(5);
    expect(redactValue({ "s3cr3t-key": [null, "a s3cr3t", { x: "s3cr3t" }] }, redact)).toEqual({
      "[REDACTED]-key": [null, "a [REDACTED]", { x: "[REDACTED]" }],
    });
    const nested = (depth: number): unknown => (depth === 0 ? "s3cr3t" : { n: nested(depth - 1) });
    const leaf = (value: unknown): unknown => (typeof value === "string" ? value : leaf((value as { n: unknown }).n));
    expect(leaf(redactValue(nested(65), redact))).toBe("[REDACTED]");
    // Past the bound, the rest as its JSON text, redacted: nothing deeper leaks, in objects or in arrays.
    expect(leaf(redactValue(nested(66), redact))).toBe('{"n":"[REDACTED]"}');
    const nestedArray = (depth: number): unknown => (depth === 0 ? "s3cr3t" : [nestedArray(depth - 1)]);
    const arrayLeaf = (value: unknown): unknown =>
      typeof value === "string" ? value : arrayLeaf((value as unknown[])[0]);
    expect(arrayLeaf(redactValue(nestedArray(65), redact))).toBe("[REDACTED]");
    expect(arrayLeaf(redactValue(nestedArray(66), redact))).toBe('["[REDACTED]"]');
    const cyclic: Record<string, unknown> = { note: "s3cr3t" };
    cyclic.self = cyclic;
    let level: unknown = redactValue(cyclic, redact);
    for (let depth = 0; depth < 65; depth++) level = (level as Record<string, unknown>).self;
    expect(level).toBe("[REDACTED]"); // a cycle cannot be written out
  });

  it("redactError redacts a message or stack holding the secret, drops causes past 4 levels, adds no cause", () => {
    const redact = createRedactor("s3cr3t");
    const inMessage = new Error("has s3cr3t");
    inMessage.stack = "clean stack";
    expect(redactError(inMessage, redact)).toMatchObject({ message: "has [REDACTED]", stack: "clean stack" });
    expect(Object.hasOwn(redactError(inMessage, redact) as object, "cause")).toBe(false);
    const inStack = new Error("clean");
    inStack.stack = "at s3cr3t";
    const copied = redactError(inStack, redact) as Error;
    expect(copied).not.toBe(inStack);
    expect([copied.message, copied.stack]).toEqual(["clean", "at [REDACTED]"]);
    let chain: Error = new Error("bottom s3cr3t");
    for (let i = 0; i < 6; i++) chain = new Error(`level ${i}`, { cause: chain });
    const redacted = redactError(chain, redact) as Error;
    const levels: string[] = [];
    for (let e: unknown = redacted; e instanceof Error; e = e.cause) levels.push(e.message);
    expect(levels).toEqual(["level 5", "level 4", "level 3", "level 2", "level 1"]);
  });

  it("redactError copies an error whose cause (at any depth up to 4) holds the secret, keeping the chain", () => {
    const redact = createRedactor("s3cr3t");
    const inner = new Error("inner with s3cr3t");
    const outer = new Error("outer is clean", { cause: new Error("middle is clean", { cause: inner }) });
    const copy = redactError(outer, redact) as Error;
    expect(copy).not.toBe(outer);
    expect(copy.message).toBe("outer is clean");
    expect(copy.name).toBe("Error");
    const middle = copy.cause as Error;
    expect(middle.message).toBe("middle is clean");
    expect((middle.cause as Error).message).toBe("inner with [REDACTED]");
    const clean = new Error("clean", { cause: new Error("also clean") });
    expect(redactError(clean, redact)).toBe(clean);
    const named = Object.assign(new TypeError("s3cr3t"), { name: "CustomError" });
    expect(redactError(named, redact)).toMatchObject({ name: "CustomError", message: "[REDACTED]" });
    expect((redactError(named, redact) as Error).cause).toBeUndefined();
  });
});
