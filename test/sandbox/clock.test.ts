// The sandbox clock: fixed at clock.start and moved only by advances, or real time plus advances; forward only,
// whole milliseconds; it drives quote expiry (the quote tests) and limit windows (the limit tests).
import { describe, expect, it } from "vitest";
import { createClock } from "../../src/sandbox/clock.js";
import { createSandbox } from "../../src/sandbox/index.js";

describe("sandbox clock", () => {
  it("stands at clock.start and moves only by advances", () => {
    const sandbox = createSandbox({ clock: { start: 1_000 } });
    expect(sandbox.clock.now()).toBe(1_000);
    expect(sandbox.clock.advance(500)).toBe(1_500);
    expect(sandbox.clock.now()).toBe(1_500);
  });

  it("is real time plus the advances without clock.start, and never goes back when real time does", () => {
    let real = 10_000;
    const clock = createClock(undefined, () => real);
    expect(clock.now()).toBe(10_000);
    real = 10_250;
    expect(clock.now()).toBe(10_250);
    expect(clock.advance(1_000)).toBe(11_250);
    real = 9_000;
    expect(clock.now()).toBe(11_250);
    real = 10_500;
    expect(clock.now()).toBe(11_500);
  });

  it("refuses a negative or fractional advance and stays where it was", () => {
    const sandbox = createSandbox({ clock: { start: 0 } });
    for (const ms of [-1, 0.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => sandbox.clock.advance(ms)).toThrow(RangeError);
    expect(sandbox.clock.now()).toBe(0);
    expect(sandbox.clock.advance(0)).toBe(0);
  });

  it("is kept in the snapshot and restored with it", () => {
    const sandbox = createSandbox({ clock: { start: 0 } });
    sandbox.clock.advance(42);
    const saved = sandbox.snapshot();
    sandbox.clock.advance(1_000);
    sandbox.restore(saved);
    expect(sandbox.clock.now()).toBe(42);
  });
});
