// `npm start` (scripts/start-mock.ts) as a CI runner uses it: npm started in the background serves the mock on
// the given port and the docs on the next one (as the README says: mock on :4010, docs on :4011), prints its URL and a
// curl that works, and stops, with everything it started, on `kill -TERM <npm's pid>`. Spawns npm and the mock
// (real processes).
import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { findFreePort } from "../../src/mock/processes.js";
import { isRunning } from "../support/processes.js";
import { API_KEY_HEADER, BASE_PATH, listSpecOperations, loadSpec, repoRoot, successKey } from "../support/spec.js";

const operations = listSpecOperations(loadSpec());
const keyHeader = API_KEY_HEADER;
const basePath = BASE_PATH;

/** Resolves once the child's output holds `text`; rejects, with the output, when the child exits first. */
function printed(child: ChildProcess, output: () => string, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!output().includes(text)) return;
      cleanUp();
      resolve();
    };
    const exited = () => {
      cleanUp();
      reject(new Error(`exited before printing ${JSON.stringify(text)}:\n${output()}`));
    };
    const cleanUp = () => {
      child.stdout?.off("data", check);
      child.stderr?.off("data", check);
      child.off("exit", exited);
    };
    child.stdout?.on("data", check);
    child.stderr?.on("data", check);
    child.once("exit", exited);
    check();
  });
}

/** Whether `port` on 127.0.0.1 can be listened on now. */
const isFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });

/** A free port whose next port is free too (npm start serves the docs there). */
async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await findFreePort();
    if (port < 65535 && (await isFree(port + 1))) return port;
  }
}

describe("npm start (scripts/start-mock.ts)", () => {
  it("serves on the port and the docs on the next, prints the URLs and a curl, stops with all on SIGTERM", async () => {
    const port = await freePortPair();
    // npm itself, as a CI runner starts it in the background and stops it: kill -TERM <npm's pid>.
    const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];
    const child = spawn(npm[0]!, [...npm.slice(1), "start", "--", "--quiet", "--no-build"], {
      cwd: repoRoot,
      env: { ...process.env, MOCK_PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    let servingPid: number | undefined;
    try {
      await printed(child, () => output, "Ctrl-C");
      const baseUrl = `http://127.0.0.1:${port}${basePath}`;
      expect(output).toContain(baseUrl);
      // A banner of short lines: the mock-only changes are counted and pointed to, not listed on one long line.
      expect(output).toMatch(/\nMock-only changes to the served spec: \d+ \(/);
      expect(Math.max(...output.split("\n").map((line) => line.length))).toBeLessThan(200);
      // The docs on the next port: the site when built, else the API reference page (generated/docs).
      const docsUrl = `http://127.0.0.1:${port + 1}/`;
      expect(output).toContain(`Docs at ${docsUrl}`);
      const docs = await fetch(docsUrl);
      expect([docs.status, docs.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
      await docs.arrayBuffer();
      const curl = /curl -s( -H '[^']+')? (\S+)/.exec(output);
      expect(curl?.[2]?.startsWith(baseUrl)).toBe(true);
      const curlOp = operations.find((o) => o.method === "GET" && curl![2] === `${baseUrl}${o.path}`);
      expect(curlOp, curl![2]).toBeDefined();
      const response = await fetch(curl![2]!, { headers: { [keyHeader]: "any" } });
      expect(response.status).toBe(Number(successKey(curlOp!)));
      await response.arrayBuffer();
      servingPid = Number(/pid (\d+)/.exec(output)?.[1]);
      expect(servingPid).not.toBe(child.pid); // npm runs it through a shell
      expect(isRunning(servingPid)).toBe(true);
      child.kill("SIGTERM");
      await exited;
      // The served process is npm's grandchild: no exit event reaches this test, so its state is polled.
      await expect.poll(() => isRunning(servingPid!), { timeout: 10_000 }).toBe(false);
      await expect(fetch(curl![2]!)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      if (servingPid && isRunning(servingPid)) process.kill(servingPid, "SIGKILL");
    }
  });
});
