// A process that stops the way the mock's commands do (src/mock/lifetime.ts), for mock-lifetime.test.ts:
// prints one JSON line when ready ({ ready: pid, ppid }) and one with the cause when it stops.
import { stopWithLauncher } from "../../../src/mock/lifetime.js";

stopWithLauncher(
  (cause) => {
    process.stdout.write(`${JSON.stringify(cause)}\n`);
    process.exit(0);
  },
  { intervalMs: 50 },
);
process.stdout.write(`${JSON.stringify({ ready: process.pid, ppid: process.ppid })}\n`);
setInterval(() => {}, 2 ** 30);
