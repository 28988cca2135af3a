// Starts and stops the Prism mock of the bundled contract. Used by `npm start` (scripts/start-mock.mjs)
// and by tests, which start a mock on a free port and stop it by its own process group.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync, readdirSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startMockProxy } from "./mock-proxy.mjs";
import { deriveMockSpec, mockBasePath } from "./mock-spec.mjs";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const bundledSpecPath = path.join(root, "generated", "openapi.json");
const prismCli = path.join(root, "node_modules", "@stoplight", "prism-cli", "dist", "index.js");
const cacheDir = path.join(root, "node_modules", ".cache", "mock");

export { deriveMockSpec, mockBasePath };

/** The header name of the spec's apiKey-in-header security scheme (undefined when it has none). */
export function apiKeyHeaderName(spec) {
  return Object.values(spec.components?.securitySchemes ?? {}).find((s) => s?.type === "apiKey" && s.in === "header")?.name;
}

/** The bundled contract (generated/openapi.json). */
export function loadBundledSpec() {
  return JSON.parse(readFileSync(bundledSpecPath, "utf8"));
}

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/**
 * True when generated/openapi.json is missing or older than a source it is built from.
 * A 2 s tolerance keeps a fresh clone (all files written within a moment) from counting as stale.
 */
export function isBundleStale() {
  if (!existsSync(bundledSpecPath)) return true;
  const built = statSync(bundledSpecPath).mtimeMs;
  const sources = [path.join(root, "openapi"), path.join(root, "redocly.yaml"), path.join(root, "scripts", "build-steps")];
  return Math.max(...sources.map(newestMtime)) > built + 2000;
}

/** Runs the build (scripts/build.mjs) when the bundle is stale. Returns whether it built. */
export async function ensureBuilt({ log = console.log } = {}) {
  if (!isBundleStale()) return false;
  log("mock: generated/ is stale or missing; running the build …");
  const { runBuild } = await import("../build.mjs");
  await runBuild();
  return true;
}

/** Writes the mock-only derived copy of a spec under node_modules/.cache/mock/ (content-addressed). */
export async function writeMockSpec(spec) {
  const derived = deriveMockSpec(spec);
  const text = JSON.stringify(derived.spec, null, 2);
  const hash = createHash("sha256").update(text).digest("hex").slice(0, 16);
  await mkdir(cacheDir, { recursive: true });
  const file = path.join(cacheDir, `openapi.mock.${hash}.json`);
  if (!existsSync(file)) {
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, text);
    await rename(temp, file);
  }
  return { file, basePath: derived.basePath, fixes: derived.fixes, spec: derived.spec };
}

/** A port that was free a moment ago on host. */
export function findFreePort(host = "127.0.0.1") {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Rejects when something already listens on host:port. */
export function assertPortFree(host, port) {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", (error) => reject(new Error(`mock: ${host}:${port} is not free (${error.code ?? error.message})`)));
    server.listen(port, host, () => server.close(() => resolve()));
  });
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ends a process group started with `detached: true` (SIGTERM, then SIGKILL after timeoutMs). */
export function stopProcessGroup(child, timeoutMs = 5000) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}

async function waitUntilAnswering(url, child, output, timeoutMs) {
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
 * Spawns the Prism CLI in its own process group on a free 127.0.0.1 port and waits until it answers
 * (three attempts, each on a new port). `args(port)` gives the CLI arguments (`mock …` or `proxy …`).
 * The group is killed if this process exits first. Returns `{ child, pid, port, stop() }`.
 * @param {{ args: (port: number) => string[], log?: (line: string) => void, timeoutMs?: number }} options
 */
export async function startPrism({ args, log, timeoutMs = 30_000 }) {
  let lastError;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await findFreePort("127.0.0.1");
    const output = [];
    const child = spawn(process.execPath, [prismCli, ...args(port)], { cwd: root, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const collect = (chunk) => {
      const text = chunk.toString();
      output.push(text);
      if (output.length > 200) output.shift();
      log?.(text.replace(/\n$/, ""));
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    const killOnExit = () => {
      try {
        process.kill(-child.pid, "SIGKILL");
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
      await waitUntilAnswering(`http://127.0.0.1:${port}/`, child, output, timeoutMs);
      return { child, pid: child.pid, port, stop };
    } catch (error) {
      lastError = new Error(`mock: ${error.message} (attempt ${attempt + 1})`);
      await stop();
    }
  }
  throw lastError;
}

/**
 * Starts the mock: Prism on the derived mock spec (on an internal free port) behind a thin front
 * (mock-proxy.mjs) listening on host:port. `port: 0` (the default) picks a free port.
 * Returns `{ baseUrl, origin, host, port, pid, prismPort, specFile, fixes, stop() }`; `pid` is Prism's,
 * and `stop()` closes the front and ends Prism's process group.
 * @param {{ host?: string, port?: number, spec?: object, log?: (line: string) => void, verboseLevel?: string, timeoutMs?: number }} [options]
 */
export async function startMock(options = {}) {
  const host = options.host ?? "127.0.0.1";
  const inputSpec = options.spec ?? loadBundledSpec();
  const { file, basePath, fixes, spec } = await writeMockSpec(inputSpec);
  if (options.port) await assertPortFree(host, options.port);
  const prism = await startPrism({
    args: (port) => ["mock", file, "-h", "127.0.0.1", "-p", String(port), "-v", options.verboseLevel ?? (options.log ? "info" : "warn")],
    log: options.log,
    timeoutMs: options.timeoutMs,
  });
  let front;
  try {
    front = await startMockProxy({ host, port: options.port ?? 0, upstreamHost: "127.0.0.1", upstreamPort: prism.port, spec });
  } catch (error) {
    await prism.stop();
    throw error;
  }
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${front.port}`;
  return {
    baseUrl: `${origin}${basePath}`,
    origin,
    host,
    port: front.port,
    prismPort: prism.port,
    pid: prism.pid,
    specFile: file,
    fixes: [
      ...fixes,
      'a front on the public port answers malformed JSON bodies with the documented 4XX response and headers (Prism\'s own 400 carries no rate-limit headers), and refuses a null, false, 0 or "" JSON body where the body is optional (Prism takes it for no body)',
    ],
    child: prism.child,
    async stop() {
      await front.close();
      await prism.stop();
    },
  };
}
