// The client guide's CI recipe (docs/samples/client-ci-recipe.sh), run as the site prints it under GitHub Actions'
// `bash -eo pipefail`, with `npx api-contract` this repo's command run the way npm exec runs it (a child; SIGTERM
// passed on, then npx ends with 143 as npm does) and `npm test` a stand-in that calls the API at $API_BASE_URL: the
// readiness step hands the next step the URL of the mock it started (not a URL an earlier run left in the file),
// that step reaches the mock, the recipe ends with the tests' status (0, or theirs when they fail), and the mock is
// stopped and its ready file gone either way. `wait` gives up with exit 1.
import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MOCK_IDENTITY_HEADER, PACKAGE_VERSION } from "../../src/pipeline/identity.js";
import { closedPort } from "../support/deployments.js";
import { docsSample } from "../support/docs-samples.js";
import { API_KEY_HEADER } from "../support/spec.js";
import { cli, cliCommandLine } from "./run-cli.js";

const RECIPE = docsSample("client-ci-recipe.sh");
const READY_FILE = /--ready-file (\S+)/.exec(RECIPE)?.[1] ?? "";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "api-contract-ci-recipe-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

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
    const child = spawn("bash", ["-eo", "pipefail", "-c", code], {
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

/** npx as npm exec runs a command: as its child, SIGTERM passed on, then its own exit with 143 (128 + SIGTERM). */
const NPX_AS_NPM = (command: string) =>
  `[ "$1" = api-contract ] || exit 127\nshift\n${command} "$@" & child=$!\n` +
  `trap 'kill -TERM "$child"; wait "$child"; exit 143' TERM\nwait "$child"`;

/** Runs the recipe in `dir` with `npm test` exiting `testsExit` after its probe; what it did, and the probe. */
async function runRecipe(name: string, testsExit: number) {
  const dir = path.join(root, name);
  const bin = path.join(dir, "bin");
  await mkdir(bin, { recursive: true });
  await script(bin, "npx", NPX_AS_NPM(cliCommandLine()));
  // npm test: one call of the API at $API_BASE_URL, recorded in probe.json, then the tests' status.
  const probe = `const base = process.env.API_BASE_URL;
const response = await fetch(base + "/trades/summary/me", { headers: { "${API_KEY_HEADER}": "ci" } });
const mock = response.headers.get("${MOCK_IDENTITY_HEADER}");
(await import("node:fs")).writeFileSync("probe.json", JSON.stringify({ base, status: response.status, mock }));
process.exitCode = ${testsExit};`;
  await writeFile(path.join(dir, "probe.mjs"), probe);
  await script(bin, "npm", `[ "$1" = test ] || exit 127\nexec '${process.execPath}' probe.mjs`);
  await writeFile(path.join(dir, READY_FILE), `${await staleUrl()}\n`);
  const run = await bash(RECIPE, dir, { PATH: `${bin}${path.delimiter}${process.env.PATH}` });
  const reached = JSON.parse(await readFile(path.join(dir, "probe.json"), "utf8")) as {
    base: string;
    status: number;
    mock: string;
  };
  return { run, reached, readyFile: path.join(dir, READY_FILE) };
}

it("runs as printed: the step after the readiness step reaches the mock, stopped at the end, exit 0", async () => {
  expect(READY_FILE).not.toBe("");
  const { run, reached, readyFile } = await runRecipe("passing", 0);
  expect(run.code, run.output).toBe(0);
  expect(reached).toEqual({
    base: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1$/),
    status: 200,
    mock: PACKAGE_VERSION,
  });
  // Stopped: nothing answers at its URL any more, and its ready file is gone.
  await expect(fetch(reached.base)).rejects.toThrow();
  await expect(stat(readyFile)).rejects.toMatchObject({ code: "ENOENT" });
}, 120_000);

it("ends with the tests' status when they fail, the mock stopped all the same", async () => {
  const { run, reached, readyFile } = await runRecipe("failing", 3);
  expect(run.code, run.output).toBe(3);
  expect(reached.status).toBe(200);
  await expect(fetch(reached.base)).rejects.toThrow();
  await expect(stat(readyFile)).rejects.toMatchObject({ code: "ENOENT" });
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
  const missing = path.join(root, "never-written.txt");
  const result = await cli(["wait", "--ready-file", missing, "--timeout", "1"]);
  expect(result.code, result.output).toBe(1);
  expect(result.stdout).toBe("");
  expect(result.output).toContain(`api-contract: wait: no mock answered at the URL in ${missing} within 1 s`);
  const url = await staleUrl();
  const byUrl = await cli(["wait", url, "--timeout", "1"]);
  expect(byUrl.code, byUrl.output).toBe(1);
  expect(byUrl.output).toContain(`api-contract: wait: nothing answered at ${url} within 1 s`);
}, 60_000);
