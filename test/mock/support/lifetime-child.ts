// A process that stops the way the mock's commands do (src/mock/lifetime.ts), for lifetime.test.ts:
// prints one JSON line when ready ({ ready: pid, ppid }) and one with the cause when it stops. Between them, a
// "tick <ppid>" line at the watcher's own interval, from a timer made after the watcher's: when a tick is printed,
// every check the watcher was due to make by then has been made, so a test can wait for checks instead of time.
import { stopWithLauncher } from "../../../src/mock/lifetime.js";

const INTERVAL_MS = 50;

stopWithLauncher(
  (cause) => {
    process.stdout.write(`${JSON.stringify(cause)}\n`);
    process.exit(0);
  },
  { intervalMs: INTERVAL_MS },
);
process.stdout.write(`${JSON.stringify({ ready: process.pid, ppid: process.ppid })}\n`);
setInterval(() => process.stdout.write(`tick ${process.ppid}\n`), INTERVAL_MS);
