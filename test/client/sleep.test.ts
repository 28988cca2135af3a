// sleep(ms, signal), the wait between attempts: it ends after `ms` on the (fake) clock, or at once with the
// signal's reason when the signal aborts, and leaves neither its timer nor its abort listener behind.
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sleep } from "../../src/client/retry.js";
import { track, until, useFakeClock } from "./support/clock.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("sleep(ms, signal)", () => {
  it("sleep leaves neither its timer nor its abort listener behind, whether it ends or is aborted", async () => {
    useFakeClock();
    const ended = new AbortController();
    const ending = sleep(1, ended.signal);
    await vi.advanceTimersByTimeAsync(1);
    await ending;
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(ended.signal, "abort")).toHaveLength(0);
    const aborted = new AbortController();
    const sleeping = sleep(60_000, aborted.signal);
    aborted.abort(new Error("stop"));
    await expect(sleeping).rejects.toThrow("stop");
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(aborted.signal, "abort")).toHaveLength(0);
  });

  it("rejects with the signal's reason when it aborts first, at once when already aborted; else resolves", async () => {
    useFakeClock(); // never moved but where said: what ends a sleep early is the abort
    const controller = new AbortController();
    const waiting = track(sleep(10_000, controller.signal));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(waiting.settled).toBe(false);
    controller.abort(new Error("stop"));
    await until(() => waiting.settled, "the aborted sleep");
    expect(waiting.error).toEqual(new Error("stop"));
    await expect(sleep(10, AbortSignal.abort(new Error("already")))).rejects.toThrow("already");
    const done = new AbortController();
    const finished = track(sleep(5, done.signal));
    await vi.advanceTimersByTimeAsync(5);
    expect(finished).toEqual({ settled: true, value: undefined });
    done.abort(new Error("late")); // after the sleep: nothing happens
    await expect(sleep(0)).resolves.toBeUndefined();
  });
});
