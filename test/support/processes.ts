// Whether a process still runs, for tests that stop process trees.
import { readFileSync } from "node:fs";

/** Alive and not a zombie (pid 1 may take its time to reap an orphan that exited; kill(pid, 0) still answers then). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== "linux") return true;
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}
