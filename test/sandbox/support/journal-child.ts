// A sandbox with --state in a process of its own, for the crash test (state-journal-crash.test.ts), which bundles
// this file and kills the process with SIGKILL: it listens on a free port of 127.0.0.1 and prints the port.
import { startSandbox } from "../../../src/sandbox/server.js";

const statePath = process.argv[2];
if (!statePath) throw new Error("usage: journal-child <state file>");
const config = {
  clock: { start: Date.UTC(2026, 0, 1) },
  limits: { requestsPerMinute: 1_000_000_000, quotesPerHour: 1_000_000_000 },
};
// A journal of 64 KiB at most (past the state file's size): the state is written whole every few dozen changes, so
// kills land during those writes too.
const server = await startSandbox({ port: 0, quiet: true, statePath, config, journalCompactBytes: 65_536 });
process.stdout.write(`${server.port}\n`);
