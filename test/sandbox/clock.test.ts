// pins: clock
// The sandbox clock: fixed at clock.start and moved only by advances, or real time plus advances; forward only,
// whole milliseconds; it drives quote expiry (the quote tests) and limit windows (the limit tests).
import { afterEach, describe, expect, it, vi } from "vitest";
import { CLOCK_RANGE } from "../../src/sandbox/rules.js";
import { createAlarm, createClock } from "../../src/sandbox/clock.js";
import { useFakeClock } from "../client/support/clock.js";
import { createSandbox } from "../../src/sandbox/index.js";
import { api, control, newSandbox, quoteId, START, thrownBy } from "./support/sandbox.js";

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

  it("moves forward by a whole advance while real time stands behind where the clock has been", () => {
    let real = 10_000;
    const clock = createClock(undefined, () => real);
    real = 12_000;
    expect(clock.now()).toBe(12_000);
    real = 11_000; // real time steps back 1 s
    expect(clock.advance(500)).toBe(12_500);
    expect(clock.state()).toEqual({ kind: "real", offsetMs: 500, lastMs: 12_500 });
  });

  it("writes in its state the moment it has reached (real time), or a copy of its own (fixed)", () => {
    let real = 5_000;
    const clock = createClock(undefined, () => real);
    real = 7_000;
    expect(clock.state()).toEqual({ kind: "real", offsetMs: 0, lastMs: 7_000 });
    const fixed = createClock(100);
    const state = fixed.state() as { nowMs: number };
    state.nowMs = 0;
    expect(fixed.now()).toBe(100);
  });

  it("refuses a negative or fractional advance and stays where it was", () => {
    const sandbox = createSandbox({ clock: { start: 0 } });
    for (const ms of [-1, 0.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => sandbox.clock.advance(ms)).toThrow(
        Object.assign(
          new RangeError(
            ms < 0
              ? "sandbox clock: ms must be 0 or more: the clock never moves back"
              : "sandbox clock: ms must be a whole number of milliseconds",
          ),
          { status: 400 },
        ),
      );
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

describe('the moments the sandbox clock shows (choices.ts, "clock")', () => {
  const { earliest, latest } = CLOCK_RANGE;

  it("refuses a start outside them, or not a whole number of ms", () => {
    for (const start of [earliest - 1, latest + 1, 8.64e15, 1.5, Number.NaN, "2026" as unknown as number])
      expect(thrownBy(() => createSandbox({ clock: { start } }))?.message).toMatch(
        /^sandbox clock: start must be a whole number of ms from 0000-01-01T00:00:00\.000Z to 9999-12-30T23:59:59/,
      );
  });

  it("refuses an advance past the last, in-process and over the control API, and stays where it was", async () => {
    const sandbox = newSandbox({ clock: { start: latest - 10 } });
    expect(thrownBy(() => sandbox.clock.advance(11))?.message).toBe(
      "sandbox clock: ms takes the clock past 9999-12-30T23:59:59.999Z, the last moment it shows",
    );
    const answer = await control(sandbox, "POST", "/_sandbox/clock/advance", { ms: 8.64e15 });
    expect(answer.status).toBe(400);
    expect(sandbox.clock.advance(10)).toBe(latest);
    expect((await control(sandbox, "GET", "/_sandbox/clock")).body.iso).toBe("9999-12-30T23:59:59.999Z");
  });

  it("at the first and the last, a quote is made, accepted and read back, every answer by the contract", async () => {
    for (const start of [earliest, latest]) {
      const sandbox = newSandbox({ clock: { start } });
      const id = await quoteId(sandbox);
      const accepted = await api(sandbox, "POST", `/trades/quote/${id}`, {});
      const history = await api(sandbox, "GET", "/transactions/me");
      expect({ start, statuses: [accepted.status, history.status], bugs: sandbox.bugs }).toEqual({
        start,
        statuses: [200, 200],
        bugs: [],
      });
      expect([...accepted.violations, ...history.violations]).toEqual([]);
    }
  });

  it("refuses a restored state whose clock is outside them", () => {
    const sandbox = newSandbox();
    const fixed = { ...sandbox.snapshot(), clock: { kind: "fixed", nowMs: latest + 1 } };
    expect(thrownBy(() => sandbox.restore(fixed as never))?.message).toBe(
      `sandbox state: /clock/nowMs must be <= ${latest}`,
    );
    const ahead = { ...sandbox.snapshot(), clock: { kind: "real", offsetMs: latest, lastMs: 0 } };
    expect(thrownBy(() => sandbox.restore(ahead as never))?.message).toMatch(/clock\.offsetMs takes the clock past/);
    expect(sandbox.clock.now()).toBe(START);
  });
});

describe("clock alarms (real time: fake timers stand in for it)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A real-time clock on the fake Date, and an alarm on it that counts its rings. */
  function alarmOnRealTime() {
    useFakeClock(1_000_000);
    const clock = createClock();
    const rings: number[] = [];
    const alarm = createAlarm(clock, () => rings.push(clock.now()));
    return { clock, alarm, rings };
  }

  it("rings once, at its moment; set again to another moment, only at the new one", async () => {
    const { alarm, rings } = alarmOnRealTime();
    alarm.set(1_000_500);
    alarm.set(1_000_500); // unchanged: the same wait
    alarm.set(1_000_800);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(rings).toEqual([1_000_800]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rings no more once set to no moment, and never with a fixed clock", async () => {
    const { alarm, rings } = alarmOnRealTime();
    alarm.set(1_000_500);
    alarm.set(undefined);
    expect(vi.getTimerCount()).toBe(0);
    const fixed = createClock(0);
    createAlarm(fixed, () => rings.push(-1)).set(10);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(rings).toEqual([]);
  });

  it("after an advance, waits for what the advance left of the same moment", async () => {
    const { clock, alarm, rings } = alarmOnRealTime();
    alarm.set(1_001_000);
    clock.advance(600);
    alarm.set(1_001_000);
    await vi.advanceTimersByTimeAsync(399);
    expect(rings).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(rings).toEqual([1_001_000]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(rings).toHaveLength(1);
  });
});
