// Whether a process still runs, for tests that stop process trees.
import { describeProcess } from "../../src/mock/lifetime.js";

/** Alive and not a zombie (pid 1 may take its time to reap an orphan that exited; kill(pid, 0) still answers then). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform === "win32") return true;
  const described = describeProcess(pid); // undefined: gone since the kill check
  return described !== undefined && described.state !== "Z";
}
