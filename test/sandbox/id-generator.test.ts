// The sandbox's id generator is mulberry32 over the state's seed: a restored seed draws the same ids on any
// machine. From seed 0 mulberry32's first four words are 4434b462, 00159c37, 39285b08 and 256d8104 (any
// mulberry32 gives them); a UUID takes 8, 4, 3 and 3 hex digits of them, version 4, variant a (from 256d8104's
// top bits), and the counter in its last 12 digits.
import { describe, expect, it } from "vitest";
import { uuid } from "../../src/sandbox/ids.js";

describe("the id generator", () => {
  it("writes a UUID from mulberry32's next four words and the counter, moving the seed four steps", () => {
    const state = { seed: 0, counter: 0 };
    expect(uuid(state)).toBe("4434b462-0015-4392-a256-000000000001");
    // Each step adds 0x6d2b79f5 (mod 2^32): four steps from 0 reach 0xb4ade7d4.
    expect(state).toEqual({ seed: 0xb4ade7d4, counter: 1 });
  });
});
