// Starts the Prism CLI (@stoplight/prism-cli, a devDependency) in its own process group on a free
// 127.0.0.1 port, waits until it answers, and stops the whole group. The benchmarks' baselines: Prism's
// proxy validation (validator suite) and Prism's own mock server (mock suite).
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { findFreePort } from "../../src/mock/processes.js";

const require = createRequire(import.meta.url);

/** The Prism CLI's entry script (run with this Node; killing an `npx prism` leaves its server running). */
function prismCliPath(): string {
  return path.join(path.dirname(require.resolve("@stoplight/prism-cli/package.json")), "dist", "index.js");
}

/** Ends a process group started with `detached: true` (SIGTERM, then SIGKILL after timeoutMs). */
function stopProcessGroup(child: ChildProcess, timeoutMs = 5000): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolve();
    const pid = child.pid;
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}

interface StartedPrism {
  child: ChildProcess;
  pid: number;
  port: number;
  stop(): Promise<void>;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntilAnswering(
  url: string,
  child: ChildProcess,
  output: string[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`Prism exited (${child.exitCode ?? child.signalCode}) before answering:\n${output.join("")}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      return;
    } catch {
      await delay(100);
    }
  }
  throw new Error(`Prism did not answer ${url} within ${timeoutMs} ms:\n${output.join("")}`);
}

/**
 * Spawns the Prism CLI on a free 127.0.0.1 port and waits until it answers (three attempts, each on a new
 * port). `args(port)` gives the CLI arguments (`mock …` or `proxy …`). The group is killed if this process
 * exits first.
 */
export async function startPrism(options: {
  args: (port: number) => string[];
  log?: (line: string) => void;
  timeoutMs?: number;
}): Promise<StartedPrism> {
  const cli = prismCliPath();
  let lastError: Error | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await findFreePort("127.0.0.1");
    const output: string[] = [];
    const child = spawn(process.execPath, [cli, ...options.args(port)], {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const collect = (chunk: Buffer) => {
      const text = chunk.toString();
      output.push(text);
      if (output.length > 200) output.shift();
      options.log?.(text.replace(/\n$/, ""));
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    const killOnExit = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    process.once("exit", killOnExit);
    const stop = async () => {
      process.removeListener("exit", killOnExit);
      await stopProcessGroup(child);
    };
    try {
      await waitUntilAnswering(`http://127.0.0.1:${port}/`, child, output, options.timeoutMs ?? 30_000);
      return { child, pid: child.pid!, port, stop };
    } catch (error) {
      lastError = new Error(`mock: ${(error as Error).message} (attempt ${attempt + 1})`);
      await stop();
    }
  }
  throw lastError;
}
