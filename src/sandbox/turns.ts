// Long work on a large state, a step at a time: the whole state written (state-export.ts) or read and checked
// (state-import.ts, state-check.ts) for a request would hold every other request while it runs, so it gives the
// event loop a turn between its steps (the requests that arrived meanwhile are answered then). The same work called
// in process (sandbox.restore, the --state file at start) runs its steps one after the other, at once.

/**
 * A turn where there is no setImmediate (a browser): a message the page posts to itself. A timer would do too, but
 * a browser makes a timer set from a timer's callback wait 4 ms at least: 4 ms a store of a state put back.
 */
function messageTurns(): (resume: () => void) => void {
  const channel = new MessageChannel();
  const waiting: Array<() => void> = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return (resume) => {
    waiting.push(resume);
    channel.port2.postMessage(undefined);
  };
}

let turn: ((resume: () => void) => void) | undefined;

/** Gives the event loop a turn: the requests that arrived meanwhile are answered before the next step. */
export function nextTurn(): Promise<void> {
  // setImmediate (Node) runs after the I/O of the turn.
  turn ??= typeof setImmediate === "function" ? setImmediate : messageTurns();
  const next = turn;
  return new Promise((resolve) => next(resolve));
}

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
