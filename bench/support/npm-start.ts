// Starts the mock as `npm start` runs it (scripts/start-mock.ts under node --import tsx, in its own process,
// no docs, no build) on `port`, waits for its banner, and returns a function that stops it. Any server that
// prints the same banner ("Ctrl-C", as `api-contract mock|sandbox` do) starts the same way (startNodeServer).
import { spawn } from "node:child_process";
import path from "node:path";
import { ROOT } from "../../scripts/lib/paths.js";

export interface StartedNodeServer {
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

/** Runs `node <args>` from the repository root and resolves once it printed its "Ctrl-C" banner. */
export async function startNodeServer(
  args: string[],
  options: { name?: string; timeoutMs?: number } = {},
): Promise<StartedNodeServer> {
  const name = options.name ?? args.join(" ");
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (c: Buffer) => {
    output += c;
  });
  child.stderr.on("data", (c: Buffer) => {
    output += c;
  });
  const deadline = Date.now() + (options.timeoutMs ?? 45_000);
  while (!output.includes("Ctrl-C")) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${name} did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export async function startNpmStart(port: number): Promise<() => Promise<void>> {
  const script = path.join(ROOT, "scripts", "start-mock.ts");
  const args = ["--import", "tsx", script, "--port", String(port), "--quiet", "--no-docs", "--no-build"];
  return (await startNodeServer(args, { name: "start-mock" })).stop;
}
