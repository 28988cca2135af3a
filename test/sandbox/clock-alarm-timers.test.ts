// A real-time clock alarm's timers, seen through stand-ins for setTimeout and clearTimeout that answer numbers as
// a browser's do (a number has no unref; Node's timer has, and the alarm unrefs it so that it keeps no process
// alive). The alarm waits and rings all the same, and set again to the same moment keeps the wait it has.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAlarm, createClock } from "../../src/sandbox/clock.js";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Stand-in timers: each setTimeout's wait and expiry, each clearTimeout's id (ids count from 1). */
function browserTimers() {
  const waits: number[] = [];
  const expiries: Array<() => void> = [];
  const cleared: unknown[] = [];
  vi.stubGlobal("setTimeout", (expire: () => void, ms: number) => {
    expiries.push(expire);
    return waits.push(ms);
  });
  vi.stubGlobal("clearTimeout", (id: unknown) => cleared.push(id));
  return { waits, expiries, cleared };
}

describe("a clock alarm's timers", () => {
  it("wait until the alarm's moment on a browser's timers, and ring it when they expire", () => {
    const timers = browserTimers();
    const clock = createClock(undefined, () => 10_000);
    const rings: number[] = [];
    createAlarm(clock, () => rings.push(clock.now())).set(10_500);
    expect(timers.waits).toEqual([500]);
    timers.expiries[0]!();
    expect(rings).toEqual([10_000]);
  });

  it("are kept when the alarm is set again to the same moment: no new wait, none cleared", () => {
    const timers = browserTimers();
    let real = 10_000;
    const clock = createClock(undefined, () => real);
    const alarm = createAlarm(clock, () => undefined);
    alarm.set(10_500);
    real = 10_200;
    alarm.set(10_500);
    expect([timers.waits, timers.cleared]).toEqual([[500], []]);
  });
});
