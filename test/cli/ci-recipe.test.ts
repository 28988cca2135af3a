// The README's CI recipe, run as the README prints it (bash), with `npx api-contract` being this repo's command
// and `npm test` a stand-in that calls the API at $API_BASE_URL: the readiness step hands the next step the
// URL of the mock it started (not a URL an earlier run left in the file), that step reaches the mock, and the
// recipe's last line leaves the mock stopped and its ready file gone. `wait` gives up with exit 1.
import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MOCK_IDENTITY_HEADER, PACKAGE_VERSION } from "../../src/pipeline/identity.js";
import { readmeBlock } from "../support/readme.js";
import { closedPort } from "../support/deployments.js";
import { API_KEY_HEADER } from "../support/spec.js";
import { cli, cliCommandLine } from "./run-cli.js";

const RECIPE = readmeBlock("sh", "# CI: the mock in the background, your tests against it");
const READY_FILE = /--ready-file (\S+)/.exec(RECIPE)?.[1] ?? "";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "api-contract-ci-recipe-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** An executable shell script in `bin`. */
async function script(bin: string, name: string, body: string): Promise<void> {
  await writeFile(path.join(bin, name), `#!/bin/sh\n${body}\n`);
  await chmod(path.join(bin, name), 0o755);
}

/** A URL of 127.0.0.1 that nothing answers any more: what a mock of an earlier run left in its ready file. */
async function staleUrl(): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}/v1`;
}

function bash(code: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", code], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    child.on("close", (exit) => resolve({ code: exit, output }));
  });
}

it("runs as printed: the step after the readiness step reaches the mock, stopped at the end", async () => {
  expect(READY_FILE).not.toBe("");
  const bin = path.join(dir, "bin");
  await mkdir(bin);
  // npx api-contract …: this repo's command (exec: the recipe's $! is the command itself).
  await script(bin, "npx", `[ "$1" = api-contract ] || exit 127\nshift\nexec ${cliCommandLine()} "$@"`);
  // npm test: one call of the API at $API_BASE_URL, recorded in probe.json.
  const probe = `const base = process.env.API_BASE_URL;
const response = await fetch(base + "/trades/summary/me", { headers: { "${API_KEY_HEADER}": "ci" } });
const mock = response.headers.get("${MOCK_IDENTITY_HEADER}");
(await import("node:fs")).writeFileSync("probe.json", JSON.stringify({ base, status: response.status, mock }));`;
  await writeFile(path.join(dir, "probe.mjs"), probe);
  await script(bin, "npm", `[ "$1" = test ] || exit 127\nexec '${process.execPath}' probe.mjs`);
  await writeFile(path.join(dir, READY_FILE), `${await staleUrl()}\n`);

  const run = await bash(RECIPE, dir, { PATH: `${bin}${path.delimiter}${process.env.PATH}` });
  expect(run.code, run.output).toBe(0);
  const reached = JSON.parse(await readFile(path.join(dir, "probe.json"), "utf8")) as {
    base: string;
    status: number;
    mock: string;
  };
  expect(reached).toEqual({
    base: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1$/),
    status: 200,
    mock: PACKAGE_VERSION,
  });
  // Stopped: nothing answers at its URL any more, and its ready file is gone.
  await expect(fetch(reached.base)).rejects.toThrow();
  await expect(stat(path.join(dir, READY_FILE))).rejects.toMatchObject({ code: "ENOENT" });
}, 120_000);

it("wait <url> prints the URL once anything answers there", async () => {
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const result = await cli(["wait", url]);
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toBe(`${url}\n`);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}, 60_000);

it("wait exits 1 with its reason when nothing answers before --timeout", async () => {
  const missing = path.join(dir, "never-written.txt");
  const result = await cli(["wait", "--ready-file", missing, "--timeout", "1"]);
  expect(result.code, result.output).toBe(1);
  expect(result.stdout).toBe("");
  expect(result.output).toContain(`api-contract: wait: no mock answered at the URL in ${missing} within 1 s`);
  const url = await staleUrl();
  const byUrl = await cli(["wait", url, "--timeout", "1"]);
  expect(byUrl.code, byUrl.output).toBe(1);
  expect(byUrl.output).toContain(`api-contract: wait: nothing answered at ${url} within 1 s`);
}, 60_000);
