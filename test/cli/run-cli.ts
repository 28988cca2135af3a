// Runs the `api-contract` command from source (src/cli.ts through tsx) as a child process, as a user runs it.
import { spawn } from "node:child_process";
import path from "node:path";
import { binPath } from "../../scripts/lib/node-cli.js";
import { repoRoot } from "../support/spec.js";

const CLI_SOURCE = path.join(repoRoot, "src", "cli.ts");

/** The command line that runs the command from source: for a shell script, `node <tsx> src/cli.ts`, quoted. */
export const cliCommandLine = (): string =>
  [process.execPath, binPath("tsx"), CLI_SOURCE].map((part) => `'${part}'`).join(" ");

/** Runs `api-contract <args>`; resolves with its exit code, stdout and stdout+stderr as they came. */
export function cli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [binPath("tsx"), CLI_SOURCE, ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    child.on("close", (code) => resolve({ code, stdout, output }));
  });
}
