// pins: answers.identity
// `api-contract sandbox`, run from source as a user runs it: it starts, writes its ready file (the base URL, which
// `api-contract wait --ready-file` takes), answers the API and the control API, and on SIGTERM stops, saves its
// state to --state and removes the ready file; started again on that state, it answers from it. Off loopback
// without --token it refuses to start, and --help documents the command.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_HEADER, BASE_PATH, repoRoot } from "../support/spec.js";
import { cli } from "./run-cli.js";

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "sandbox-command-"));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

/**
 * `api-contract sandbox <args>` in the background; `exited` resolves with its exit code and output. One process
 * with tsx's loader (`node --import tsx`), not tsx's command: that one relays a SIGTERM to its child and kills it
 * when the child does not report the signal within 30 ms, which a loaded machine misses.
 */
function startCommand(args: string[]) {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(repoRoot, "src", "cli.ts"), "sandbox", ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  const exited = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, output })),
  );
  return { child, exited, output: () => output };
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

describe("api-contract sandbox", () => {
  it("starts, writes its ready file, answers, and saves its state on SIGTERM; restarted, answers from it", async () => {
    const readyFile = path.join(folder, "ready");
    const statePath = path.join(folder, "state.json");
    const config = path.join(folder, "config.json");
    await writeFile(config, JSON.stringify({ clock: { start: Date.UTC(2026, 0, 1) } }));
    const args = ["--port", "0", "--state", statePath, "--config", config, "--ready-file", readyFile, "--quiet"];
    const first = startCommand(args);
    try {
      await expect.poll(() => readFile(readyFile, "utf8").catch(() => ""), { timeout: 60_000 }).toMatch(/\n$/);
      const baseUrl = (await readFile(readyFile, "utf8")).trim();
      expect(baseUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+${BASE_PATH}$`));
      expect(first.output()).toContain(`listening on ${baseUrl}`);
      // The CI step of the mock works for the sandbox too: its answers carry the package's identity header.
      const waited = await cli(["wait", "--ready-file", readyFile, "--timeout", "60"]);
      expect(waited.stdout).toBe(`${baseUrl}\n`);
      const origin = new URL(baseUrl).origin;
      const rates = await fetch(`${baseUrl}/currencies/fiat-rates`, { headers: { [API_KEY_HEADER]: "k" } });
      expect(rates.status).toBe(200);
      const put = await fetch(`${origin}/_sandbox/accounts/saved-key`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ balances: { USDT: 77 } }),
      });
      expect(put.status).toBe(200);
      first.child.kill("SIGTERM");
      const { code, output } = await first.exited;
      expect(code, output).toBe(0);
      expect(await exists(readyFile)).toBe(false);
      const saved = JSON.parse(await readFile(statePath, "utf8")) as { version: number };
      expect(saved.version).toBe(2);
      expect(JSON.stringify(saved)).toContain("saved-key");
    } finally {
      first.child.kill("SIGKILL");
    }

    const second = startCommand(args);
    try {
      await expect.poll(() => readFile(readyFile, "utf8").catch(() => ""), { timeout: 60_000 }).toMatch(/\n$/);
      const origin = new URL((await readFile(readyFile, "utf8")).trim()).origin;
      const account = await fetch(`${origin}/_sandbox/accounts/saved-key`);
      expect(account.status).toBe(200);
      expect(await account.json()).toMatchObject({ balances: { USDT: 77 } });
      second.child.kill("SIGTERM");
      const secondExit = await second.exited;
      expect(secondExit.code, secondExit.output).toBe(0);
    } finally {
      second.child.kill("SIGKILL");
    }
  }, 120_000);

  it("refuses to listen off loopback without --token (exit 2, nothing started)", async () => {
    const result = await cli(["sandbox", "--host", "0.0.0.0", "--port", "0"]);
    expect(result.code).toBe(2);
    expect(result.output).toMatch(/not a loopback interface.*--token/);
  }, 60_000);

  it("is documented by --help, with each of its options", async () => {
    const result = await cli(["sandbox", "--help"]);
    expect(result.code).toBe(0);
    const section = result.stdout.slice(result.stdout.indexOf("\n  sandbox "), result.stdout.indexOf("\n  verify "));
    for (const option of ["--port", "--host", "--state", "--config", "--token", "--quiet", "--ready-file"])
      expect(section).toContain(option);
    expect(section).toContain("default 4020");
  }, 60_000);
});
