// A sandbox with --state in a process of its own, for the crash test (state-journal-crash.test.ts), which bundles
// this file and kills the process with SIGKILL: it listens on a free port of 127.0.0.1 and prints the port.
import { startSandbox } from "../../../src/sandbox/server.js";

const statePath = process.argv[2];
if (!statePath) throw new Error("usage: journal-child <state file>");
const config = {
  clock: { start: Date.UTC(2026, 0, 1) },
  limits: { requestsPerMinute: 1_000_000_000, quotesPerHour: 1_000_000_000 },
};
const server = await startSandbox({ port: 0, quiet: true, statePath, config });
process.stdout.write(`${server.port}\n`);
