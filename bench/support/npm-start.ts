// Starts the mock as `npm start` runs it (scripts/start-mock.ts under node --import tsx, in its own process,
// no docs, no build) on `port`, waits for its banner, and returns a function that stops it.
import { spawn } from "node:child_process";
import path from "node:path";
import { ROOT } from "../../scripts/lib/paths.js";

export async function startNpmStart(port: number): Promise<() => Promise<void>> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(ROOT, "scripts", "start-mock.ts"),
      "--port",
      String(port),
      "--quiet",
      "--no-docs",
      "--no-build",
    ],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (c: Buffer) => {
    output += c;
  });
  child.stderr.on("data", (c: Buffer) => {
    output += c;
  });
  const deadline = Date.now() + 45_000;
  while (!output.includes("Ctrl-C")) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`start-mock did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
}
