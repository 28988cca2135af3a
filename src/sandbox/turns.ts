// Long work on a large state, a step at a time: the whole state written (state-export.ts) or read and checked
// (state-import.ts, state-check.ts) over HTTP holds every other request while it runs, so it gives the event loop a
// turn between its steps (the requests that arrived meanwhile are answered then). The same work in process
// (sandbox.restore, the --state file at start) runs its steps one after the other, at once.

/** Gives the event loop a turn: the requests that arrived meanwhile are answered before the next step. */
export const nextTurn = (): Promise<void> =>
  // setImmediate runs after the I/O of the turn; a browser has none, where a timer does the same.
  new Promise((resolve) => (typeof setImmediate === "function" ? setImmediate(resolve) : setTimeout(resolve, 0)));

/** Work made of steps: each `yield` is a point between two steps; what it returns is the work's result. */
export type Steps<T> = Generator<void, T, void>;

/** The result of `steps` run one after the other, at once (its refusal thrown). */
export function allAtOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The result of `steps`, with a turn of the event loop between each two (its refusal a rejection). */
export async function inTurns<T>(steps: Steps<T>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}
