// The sandbox's own clock: the one time source of quote expiry, limit windows and every timestamp the sandbox
// writes, so a test moves time by advancing it, never by faking global timers. Real time plus the advances by
// default; fixed at `start` (moving only by advances) when given. It never moves back (see choices.ts, "clock").

interface SandboxClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Moves the clock `ms` forward (a whole number, 0 or more) and answers the new time. */
  advance(ms: number): number;
}

/** The clock as a snapshot holds it. */
export type ClockState = { kind: "real"; offsetMs: number; lastMs: number } | { kind: "fixed"; nowMs: number };

export interface ControlledClock extends SandboxClock {
  state(): ClockState;
  restore(state: ClockState): void;
}

/** Why `ms` is no advance, or undefined. */
function advanceProblem(ms: unknown): string | undefined {
  if (typeof ms !== "number" || !Number.isSafeInteger(ms)) return "ms must be a whole number of milliseconds";
  return ms < 0 ? "ms must be 0 or more: the clock never moves back" : undefined;
}

export function createClock(start?: number, realNow: () => number = Date.now): ControlledClock {
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
      const problem = advanceProblem(ms);
      if (problem) throw new RangeError(`sandbox clock: ${problem}`);
      if (state.kind === "fixed") state.nowMs += ms;
      else {
        state.offsetMs += ms;
        state.lastMs += ms;
      }
      return now();
    },
    state: () => (state.kind === "fixed" ? { ...state } : { ...state, lastMs: now() }),
    restore(saved) {
      state = { ...saved };
    },
  };
}
