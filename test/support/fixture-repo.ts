// A throwaway copy of this repository (sources, scripts, generated/, configs; node_modules linked), for
// running the project's own scripts (`npm run lint`, `npm run check:generated`, `npm start`) against
// deliberately broken inputs. Each test removes its copy.
import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot } from "./spec.js";

const COPIED = [
  "openapi",
  "openapi-sandbox",
  "scripts",
  "src",
  "generated",
  "spectral-functions",
  "package.json",
  "README.md",
  // The guides whose tables the build writes (scripts/build/guide-tables.ts).
  "docs/guide",
  "tsconfig.json",
  "redocly.yaml",
  ".spectral.yaml",
];

export interface ScriptRun {
  code: number | null;
  output: string;
}

export interface FixtureRepo {
  dir: string;
  read(relative: string): Promise<string>;
  write(relative: string, text: string): Promise<void>;
  /** Replaces `from` (which must occur) by `to` in a file. */
  edit(relative: string, from: string | RegExp, to: string): Promise<void>;
  /** `npm run <script> -- <args>` in the copy; resolves with the exit code and the output (stdout + stderr). */
  npm(script: string, args?: string[], options?: { env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<ScriptRun>;
  remove(): Promise<void>;
}

export async function fixtureRepo(): Promise<FixtureRepo> {
  const dir = await mkdtemp(path.join(tmpdir(), "fixture-repo-"));
  await Promise.all(COPIED.map((entry) => cp(path.join(repoRoot, entry), path.join(dir, entry), { recursive: true })));
  await symlink(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
  const file = (relative: string) => path.join(dir, relative);
  return {
    dir,
    read: (relative) => readFile(file(relative), "utf8"),
    write: (relative, text) => writeFile(file(relative), text),
    async edit(relative, from, to) {
      const text = await readFile(file(relative), "utf8");
      const changed = text.replace(from, to);
      if (changed === text) throw new Error(`fixture: ${String(from)} not found in ${relative}`);
      await writeFile(file(relative), changed);
    },
    npm(script, args = [], options = {}) {
      return new Promise((resolve, reject) => {
        const child = spawn("npm", ["run", "--silent", script, ...(args.length ? ["--", ...args] : [])], {
          cwd: dir,
          env: { ...process.env, NO_COLOR: "1", ...options.env },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk;
        });
        child.stderr.on("data", (chunk: Buffer) => {
          output += chunk;
        });
        const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
        child.on("error", reject);
        child.on("close", (code) => {
          clearTimeout(timer);
          resolve({ code, output });
        });
      });
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
