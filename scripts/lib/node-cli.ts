// Runs a Node CLI from node_modules without npx, failing with its output on a non-zero exit.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

/** Absolute path of a package's bin script (package name, bin name). */
export function binPath(pkg: string, bin?: string): string {
  const pkgJsonPath = require.resolve(`${pkg}/package.json`);
  const { bin: bins } = require(pkgJsonPath) as { bin: string | Record<string, string> };
  const rel = typeof bins === "string" ? bins : bins[bin ?? Object.keys(bins)[0]!];
  if (!rel) throw new Error(`${pkg} has no bin ${bin ?? ""}`);
  return path.join(path.dirname(pkgJsonPath), rel);
}

export interface NodeRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `command args…` and resolves with its exit code and output (never rejects on a non-zero exit);
 * `echo` also copies the output to this process's stdout and stderr as it comes.
 */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; echo?: boolean } = {},
): Promise<NodeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d;
      if (options.echo) process.stdout.write(d);
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d;
      if (options.echo) process.stderr.write(d);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** Runs `node script args…` and resolves with its exit code and output (never rejects on a non-zero exit). */
export function runNodeScript(
  script: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<NodeRun> {
  return runCommand(process.execPath, [script, ...args], {
    cwd: options.cwd,
    env: { REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", ...options.env },
  });
}

/** Runs `node script args…`, rejecting with its output on a non-zero exit. */
export async function runNode(
  script: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<NodeRun> {
  const run = await runNodeScript(script, args, options);
  if (run.code !== 0)
    throw new Error(`${path.basename(script)} ${args.join(" ")} exited with ${run.code}\n${run.stdout}\n${run.stderr}`);
  return run;
}

/** Output lines without Redocly's "Node 20 support is ending" banner. */
export function withoutBanner(output: string): string {
  return output
    .split("\n")
    .filter((line) => !/[║╔╚]/.test(line))
    .join("\n");
}
