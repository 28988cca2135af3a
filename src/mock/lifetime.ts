// When the mock's commands (`api-contract mock`, `npm start`) stop: on SIGINT or SIGTERM, and, when npm
// launched them (npm start, npm run, npx), also when npm exits. npm runs a command in a shell (npm -> sh ->
// the mock) and forwards SIGTERM to that shell, which dies without passing it on; a signal npm does not
// forward (SIGHUP, SIGKILL) leaves the shell too. Either way the mock would be left running, reparented,
// answering on its port. So the mock watches its parent and, when that parent is a shell, the shell's parent.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

/** Why the command stops. */
export type StopCause = { kind: "signal"; signal: "SIGINT" | "SIGTERM" } | { kind: "launcher-exited"; pid: number };

interface LifetimeOptions {
  /** How often the launcher is checked. Default 250 ms. */
  intervalMs?: number;
}

/** One line for the log, for a stop the user did not ask for in this terminal. */
export function describeStop(cause: StopCause): string {
  return cause.kind === "signal"
    ? `received ${cause.signal}`
    : `the process that started it (pid ${cause.pid}) has exited`;
}

/** The shells npm runs commands in (its `script-shell`: sh by default; bash, dash, zsh where sh is one). */
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "ash", "busybox"]);

/**
 * A process's parent pid, command name and state (its first letter: Z for an exited process nothing has reaped
 * yet): from /proc on Linux, from ps elsewhere; undefined when unknown or gone.
 */
export function describeProcess(pid: number): { ppid: number; name: string; state: string } | undefined {
  try {
    if (process.platform === "linux") {
      // /proc/<pid>/stat: "pid (name) state ppid …"; the name may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const [state, ppid] = stat.slice(close + 2).split(" ");
      return { name: stat.slice(stat.indexOf("(") + 1, close), ppid: Number(ppid), state: state!.charAt(0) };
    }
    if (process.platform === "win32") return undefined;
    const [ppid, state, ...name] = execFileSync("ps", ["-o", "ppid=,state=,comm=", "-p", String(pid)], {
      encoding: "utf8",
    })
      .trim()
      .split(/\s+/);
    return { ppid: Number(ppid), name: path.basename(name.join(" ")), state: state!.charAt(0) };
  } catch {
    return undefined;
  }
}

/**
 * Whether `pid` is still the parent of `child`. On Linux /proc says so even where nothing reaps an exited
 * process (a zombie still answers kill(pid, 0)); elsewhere, whether `pid` is still alive.
 */
function stillParentOf(pid: number, child: number): boolean {
  if (process.platform === "linux") return describeProcess(child)?.ppid === pid;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The process that started this one, as this module first saw it, when the process boots: the command watches
 * that one, not whatever its parent is once it has started (a second or two later). A launcher that exits in
 * between (npm killed in the first second: its shell dies, the command is reparented) is then noticed at the
 * watcher's first check, instead of never.
 */
const LAUNCHER = process.ppid;

/**
 * Calls `stop` once: on SIGINT or SIGTERM, or, when npm launched this process, as soon as npm or the shell it
 * runs the command in exits (checked every `intervalMs`), also when it exited before this was called. Without
 * npm's marker the mock outlives its parent, as a command run with `&` from a shell script is expected to. The
 * handlers and the check are removed before `stop` runs, so a second Ctrl-C ends the process at once.
 */
export function stopWithLauncher(stop: (cause: StopCause) => void, options: LifetimeOptions = {}): void {
  let timer: NodeJS.Timeout | undefined;
  const onSignal = (signal: "SIGINT" | "SIGTERM") => end({ kind: "signal", signal });
  const dispose = () => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    clearInterval(timer);
  };
  let ended = false;
  function end(cause: StopCause): void {
    if (ended) return;
    ended = true;
    dispose();
    stop(cause);
  }
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  if (process.env.npm_lifecycle_event !== undefined) {
    const parent = LAUNCHER;
    const parentProcess = describeProcess(parent);
    const npm =
      parentProcess && SHELLS.has(parentProcess.name) && parentProcess.ppid > 1 ? parentProcess.ppid : undefined;
    timer = setInterval(() => {
      if (process.ppid !== parent) end({ kind: "launcher-exited", pid: parent });
      else if (npm !== undefined && !stillParentOf(npm, parent)) end({ kind: "launcher-exited", pid: npm });
    }, options.intervalMs ?? 250);
    timer.unref();
  }
}
