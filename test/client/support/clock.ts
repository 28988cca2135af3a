// Waiting in tests without sleeping: real I/O turns (setImmediate) to let sockets progress, and vitest's fake
// timers for the client's own clocks (timeouts, backoff, rate-limit waits), so a 30 s timeout takes no 30 s.
import { vi } from "vitest";

/** Fakes setTimeout, clearTimeout and Date only: sockets, setImmediate and performance.now stay real. */
export function useFakeClock(now?: number): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], ...(now === undefined ? {} : { now }) });
}

/** Polls `predicate` on real I/O turns until it holds; fails after `ms` of wall-clock time (fake timers or not). */
export async function until(predicate: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!predicate()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The state of a promise, readable without awaiting it. */
interface Tracked<T> {
  settled: boolean;
  value?: T;
  error?: unknown;
}

export function track<T>(promise: Promise<T>): Tracked<T> {
  const state: Tracked<T> = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}
