// The sandbox's own clock: the one time source of quote expiry, limit windows and every timestamp the sandbox
// writes, so a test moves time by advancing it, never by faking global timers. Real time plus the advances by
// default; fixed at `start` (moving only by advances) when given. It never moves back (see choices.ts, "clock").
import { CLOCK_RANGE } from "./rules.js";
import { refuse } from "./refusal.js";

interface SandboxClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Moves the clock `ms` forward (a whole number, 0 or more) and answers the new time. */
  advance(ms: number): number;
}

/** This machine's time: what clients sign with, and what the sandbox clock follows by default. */
export const wallClock = (): number => Date.now();

/** The clock as a snapshot holds it. */
export type ClockState = { kind: "real"; offsetMs: number; lastMs: number } | { kind: "fixed"; nowMs: number };

export interface ControlledClock extends SandboxClock {
  state(): ClockState;
  restore(state: ClockState): void;
}

/** The ISO 8601 timestamp of a moment of the sandbox clock. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/** Whether `ms` is a moment the clock may show (choices.ts, "clock"). */
const isClockMoment = (ms: unknown): ms is number =>
  Number.isSafeInteger(ms) && (ms as number) >= CLOCK_RANGE.earliest && (ms as number) <= CLOCK_RANGE.latest;

/** Why `ms` is no advance from `now` (a clock's moment: the sandbox's or a key's), or undefined. */
export function advanceProblem(ms: unknown, now: number): string | undefined {
  if (typeof ms !== "number" || !Number.isSafeInteger(ms)) return "ms must be a whole number of milliseconds";
  if (ms < 0) return "ms must be 0 or more: the clock never moves back";
  return now + ms > CLOCK_RANGE.latest
    ? `ms takes the clock past ${iso(CLOCK_RANGE.latest)}, the last moment it shows`
    : undefined;
}

export function createClock(start?: number, realNow: () => number = wallClock): ControlledClock {
  if (start !== undefined && !isClockMoment(start))
    throw new RangeError(
      `sandbox clock: start must be a whole number of ms from ${iso(CLOCK_RANGE.earliest)} to ` +
        `${iso(CLOCK_RANGE.latest)} (${CLOCK_RANGE.earliest} to ${CLOCK_RANGE.latest}), got ${String(start)}`,
    );
  let state: ClockState =
    start === undefined ? { kind: "real", offsetMs: 0, lastMs: realNow() } : { kind: "fixed", nowMs: start };
  const now = (): number => {
    if (state.kind === "fixed") return state.nowMs;
    // Real time may step back (NTP); the sandbox's does not.
    state.lastMs = Math.max(state.lastMs, realNow() + state.offsetMs);
    return state.lastMs;
  };
  return {
    now,
    advance(ms) {
      const problem = advanceProblem(ms, now());
      if (problem) refuse(400, `sandbox clock: ${problem}`);
      if (state.kind === "fixed") state.nowMs += ms;
      else {
        state.offsetMs += ms;
        state.lastMs += ms;
      }
      return now();
    },
    state: () => (state.kind === "fixed" ? { ...state } : { ...state, lastMs: now() }),
    restore(saved) {
      if (saved.kind === "real" && realNow() + saved.offsetMs > CLOCK_RANGE.latest)
        refuse(400, `sandbox state: clock.offsetMs takes the clock past ${iso(CLOCK_RANGE.latest)}`);
      state = { ...saved };
    },
  };
}

/** The longest a timer may wait (setTimeout's limit); a later moment is reached by waiting again. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A wait for one moment on the sandbox clock (withdrawal settlement, webhook retries). */
export interface ClockAlarm {
  /** Rings `ring` when the clock reaches `at` (undefined: never); calling it again with no change keeps the wait. */
  set(at: number | undefined): void;
}

/**
 * With real time, an unref'd timer that rings at `at`. An advance since it was set brings the moment nearer in
 * real time, so the same `at` then waits again from now: the old wait would ring late. With clock.start it never
 * rings: advances reach moments instead.
 */
export function createAlarm(clock: ControlledClock, ring: () => void): ClockAlarm {
  let armed: { at: number; offsetMs: number; handle: ReturnType<typeof setTimeout> } | undefined;
  const disarm = () => {
    if (armed) clearTimeout(armed.handle);
    armed = undefined;
  };
  return {
    set(at) {
      const state = clock.state();
      if (state.kind === "fixed" || at === undefined) return disarm();
      if (armed?.at === at && armed.offsetMs === state.offsetMs) return;
      disarm();
      const wait = Math.min(MAX_TIMER_MS, Math.max(0, at - state.lastMs));
      const handle = setTimeout(() => {
        armed = undefined;
        ring();
      }, wait);
      (handle as { unref?: () => void }).unref?.();
      armed = { at, offsetMs: state.offsetMs, handle };
    },
  };
}
