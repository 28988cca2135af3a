// The validator compiles each schema once: callers ask by a key of text they build per call (operation, place,
// media type), and the same schema object asked again under any key is the same compiled pair, not a new one.
import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../src/contract/schemas.js";
import { loadSpec } from "../support/spec.js";

describe("compiling schemas", () => {
  it("gives the same compiled pair for one schema object under any key, and another for another schema", () => {
    const compiler = new SchemaCompiler(loadSpec());
    const schema = { type: "integer", minimum: 0 };
    const first = compiler.compile("GET /a 200 header x-a", schema);
    expect(compiler.compile("POST /b request application/json", schema)).toBe(first);
    expect(first.fast(3)).toBe(true);
    expect(first.fast(-1)).toBe(false);
    const other = compiler.compile("GET /c 200 header x-c", { type: "string" });
    expect(other).not.toBe(first);
    expect(other.fast("x")).toBe(true);
    // A boolean schema is no object: its key decides.
    expect(compiler.compile("k", true)).toBe(compiler.compile("k", true));
  });
});
