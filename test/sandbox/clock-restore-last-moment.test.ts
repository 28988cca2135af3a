// A restored real-time clock may reach the last moment the sandbox clock shows (9999-12-30T23:59:59.999Z), as
// an advance may; one millisecond beyond it is refused. Real time is a stand-in here, never the machine's.
import { describe, expect, it } from "vitest";
import { createClock } from "../../src/sandbox/clock.js";
import { thrownBy } from "./support/sandbox.js";

const LATEST = Date.parse("9999-12-30T23:59:59.999Z");
const REAL = Date.UTC(2026, 10, 26, 10);

describe("restoring a real-time clock", () => {
  it("takes an offset that brings it to the last moment exactly, and refuses one a millisecond more", () => {
    const clock = createClock(undefined, () => REAL);
    const offsetMs = LATEST - REAL;
    expect(thrownBy(() => clock.restore({ kind: "real", offsetMs, lastMs: REAL }))).toBeUndefined();
    expect(clock.now()).toBe(LATEST);
    expect(thrownBy(() => clock.restore({ kind: "real", offsetMs: offsetMs + 1, lastMs: REAL }))?.message).toBe(
      "sandbox state: clock.offsetMs takes the clock past 9999-12-30T23:59:59.999Z",
    );
  });
});
