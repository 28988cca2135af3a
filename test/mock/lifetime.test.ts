// The mock's commands stop with whatever started them (src/mock/lifetime.ts), tried with real processes:
// npm's layout is npm -> shell -> command; a stand-in node process plays npm (killing the real npm is what
// mock.test.ts and the consumer test do). Without npm's marker the command outlives its launcher.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { describe, it } from "vitest";
import { describeProcess, describeStop, type StopCause } from "../../src/mock/lifetime.js";
import { isRunning } from "../support/processes.js";
import { repoRoot } from "../support/spec.js";

const CHILD = path.join(repoRoot, "test", "mock", "support", "lifetime-child.ts");
/** The stand-in for npm: runs its arguments as a command and stays until killed. */
const STAND_IN =
  'require("node:child_process").spawn(process.argv[1], process.argv.slice(2), { stdio: "inherit" }); ' +
  "setInterval(() => {}, 2 ** 30);";

interface Launched {
  standIn: ChildProcess;
  /** The command's pid and its parent's (the shell's, or the stand-in's without one). */
  ready: { ready: number; ppid: number };
  /** The lines the command printed after its ready line (its ticks apart). */
  lines: string[];
  /** Resolves once the command has printed `count` ticks saying its parent is `ppid`. */
  ticksWithParent: (ppid: number, count: number) => Promise<void>;
  /** Resolves with the cause the command printed when it stops. */
  stopped: Promise<StopCause>;
}

/** Starts the command through the stand-in, in a shell (npm's layout) or directly, with npm's marker or not. */
async function launch(options: { shell: boolean; npmMarker: boolean }): Promise<Launched> {
  const env = { ...process.env };
  if (options.npmMarker) env.npm_lifecycle_event = "start";
  else delete env.npm_lifecycle_event;
  const command = [process.execPath, "--import", "tsx", CHILD];
  const args = options.shell ? ["sh", "-c", '"$0" "$@"', ...command] : command;
  const standIn = spawn(process.execPath, ["-e", STAND_IN, ...args], {
    cwd: repoRoot,
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: string[] = [];
  const tickParents: number[] = [];
  let buffered = "";
  let onLine: (() => void) | undefined;
  let onTick: (() => void) | undefined;
  standIn.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk;
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    for (const part of parts) {
      if (part.startsWith("tick ")) tickParents.push(Number(part.slice("tick ".length)));
      else lines.push(part);
    }
    onLine?.();
    onTick?.();
  });
  const ticksWithParent = (ppid: number, count: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (tickParents.filter((parent) => parent === ppid).length >= count) resolve();
      };
      onTick = check;
      check();
    });
  const nextLine = (index: number, timeoutMs: number) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no line ${index} within ${timeoutMs} ms; got ${JSON.stringify(lines)}`)),
        timeoutMs,
      );
      const check = () => {
        if (lines.length > index) {
          clearTimeout(timer);
          resolve(lines[index]!);
        }
      };
      onLine = check;
      check();
    });
  const ready = JSON.parse(await nextLine(0, 30_000)) as Launched["ready"];
  const stopped = nextLine(1, 50_000).then((line) => JSON.parse(line) as StopCause);
  return { standIn, ready, lines, ticksWithParent, stopped };
}

/** Runs `body`, then kills whatever of the launch is left. */
async function withLaunch(
  options: { shell: boolean; npmMarker: boolean },
  body: (launched: Launched) => Promise<void>,
): Promise<void> {
  const launched = await launch(options);
  try {
    await body(launched);
  } finally {
    for (const pid of [launched.ready.ready, launched.ready.ppid, launched.standIn.pid!]) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
  }
}

describe("the mock's commands stop with what started them", { concurrent: true, timeout: 60_000 }, () => {
  it("launched by npm: stops when npm's shell dies of the SIGTERM npm forwards to it", async ({ expect }) => {
    await withLaunch({ shell: true, npmMarker: true }, async ({ standIn, ready, stopped }) => {
      expect(ready.ppid).not.toBe(standIn.pid); // the shell sits between, as under npm
      process.kill(ready.ppid, "SIGTERM");
      expect(await stopped).toEqual({ kind: "launcher-exited", pid: ready.ppid });
      await expect.poll(() => isRunning(ready.ready)).toBe(false);
    });
  });

  it("launched by npm: stops when npm dies of a signal it does not forward (SIGKILL), its shell left running", async ({
    expect,
  }) => {
    await withLaunch({ shell: true, npmMarker: true }, async ({ standIn, ready, stopped }) => {
      process.kill(standIn.pid!, "SIGKILL");
      expect(await stopped).toEqual({ kind: "launcher-exited", pid: standIn.pid });
      await expect.poll(() => isRunning(ready.ready)).toBe(false);
    });
  });

  it("launched by npm without a shell between: stops when npm dies", async ({ expect }) => {
    await withLaunch({ shell: false, npmMarker: true }, async ({ standIn, ready, stopped }) => {
      expect(ready.ppid).toBe(standIn.pid);
      process.kill(standIn.pid!, "SIGKILL");
      expect(await stopped).toEqual({ kind: "launcher-exited", pid: standIn.pid });
    });
  });

  it("without npm's marker: outlives its launcher and shell (as `cmd &` in a script), stops on SIGTERM", async ({
    expect,
  }) => {
    await withLaunch({ shell: true, npmMarker: false }, async ({ standIn, ready, lines, ticksWithParent, stopped }) => {
      process.kill(standIn.pid!, "SIGKILL");
      process.kill(ready.ppid, "SIGTERM");
      await expect.poll(() => isRunning(ready.ppid)).toBe(false);
      // Reparented, then three more of the watcher's intervals: a watcher armed without npm's marker has fired.
      const orphanedTo = describeProcess(ready.ready)!.ppid;
      expect(orphanedTo).not.toBe(ready.ppid);
      await Promise.race([ticksWithParent(orphanedTo, 3), stopped]); // a stop line instead fails the next check
      expect(lines).toHaveLength(1);
      expect(isRunning(ready.ready)).toBe(true);
      process.kill(ready.ready, "SIGTERM");
      expect(await stopped).toEqual({ kind: "signal", signal: "SIGTERM" });
    });
  });

  it("launched by npm: stops when npm's shell died while the command was still starting", async ({ expect }) => {
    const env = { ...process.env, npm_lifecycle_event: "start", LIFETIME_CHILD_WAIT: "1" };
    const command = [process.execPath, "--import", "tsx", CHILD];
    const standIn = spawn(process.execPath, ["-e", STAND_IN, "sh", "-c", '"$0" "$@"', ...command], {
      cwd: repoRoot,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    standIn.stdout!.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    let child: number | undefined;
    try {
      await expect.poll(() => /^waiting \d+ \d+\n/.test(output), { timeout: 30_000 }).toBe(true);
      const [, pid, shell] = /^waiting (\d+) (\d+)/.exec(output)!.map(Number) as [number, number, number];
      child = pid;
      process.kill(shell, "SIGTERM"); // what npm forwards; the shell dies without passing it on
      await expect.poll(() => describeProcess(pid)?.ppid !== shell, { timeout: 30_000 }).toBe(true);
      process.kill(pid, "SIGUSR2"); // the command has started: its watcher is armed only now
      await expect.poll(() => output.includes('"kind":"launcher-exited"'), { timeout: 30_000 }).toBe(true);
      const stopLine = output.split("\n").find((line) => line.includes("launcher-exited"))!;
      expect(JSON.parse(stopLine)).toEqual({ kind: "launcher-exited", pid: shell });
      await expect.poll(() => isRunning(pid)).toBe(false);
    } finally {
      for (const pid of [child, standIn.pid]) {
        try {
          if (pid !== undefined) process.kill(pid, "SIGKILL");
        } catch {}
      }
    }
  });

  it("stops on SIGINT (Ctrl-C) once; the cause is said in one line", async ({ expect }) => {
    await withLaunch({ shell: false, npmMarker: true }, async ({ ready, stopped }) => {
      process.kill(ready.ready, "SIGINT");
      expect(await stopped).toEqual({ kind: "signal", signal: "SIGINT" });
    });
    expect(describeStop({ kind: "signal", signal: "SIGINT" })).toBe("received SIGINT");
    expect(describeStop({ kind: "launcher-exited", pid: 42 })).toBe("the process that started it (pid 42) has exited");
  });
});
