// A process that stops the way the mock's commands do (src/mock/lifetime.ts), for lifetime.test.ts:
// prints one JSON line when ready ({ ready: pid, ppid }) and one with the cause when it stops. Between them, a
// "tick <ppid>" line at the watcher's own interval, from a timer made after the watcher's: when a tick is printed,
// every check the watcher was due to make by then has been made, so a test can wait for checks instead of time.
// With LIFETIME_CHILD_WAIT set it first prints "waiting <pid> <ppid>" and arms the watcher only on SIGUSR2, as a
// command that is still starting (loading the contract, listening) when its launcher dies.
import { stopWithLauncher } from "../../../src/mock/lifetime.js";

const INTERVAL_MS = 50;

function armAndRun(): void {
  stopWithLauncher(
    (cause) => {
      process.stdout.write(`${JSON.stringify(cause)}\n`);
      process.exit(0);
    },
    { intervalMs: INTERVAL_MS },
  );
  process.stdout.write(`${JSON.stringify({ ready: process.pid, ppid: process.ppid })}\n`);
  setInterval(() => process.stdout.write(`tick ${process.ppid}\n`), INTERVAL_MS);
}

if (process.env.LIFETIME_CHILD_WAIT === undefined) armAndRun();
else {
  const idle = setInterval(() => {}, 2 ** 30);
  process.once("SIGUSR2", () => {
    clearInterval(idle);
    armAndRun();
  });
  process.stdout.write(`waiting ${process.pid} ${process.ppid}\n`);
}
