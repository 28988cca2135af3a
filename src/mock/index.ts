// The mock of the whole API: Prism serving a mock-only copy of the contract (every path under the base
// path) on an internal port, behind a thin front (front.ts) on the public one.
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openApiDocument } from "../contract/bundled.js";
import type { OpenApiDocument } from "../openapi/document.js";
import { startFront } from "./front.js";
import { startPrism } from "./prism.js";
import { assertPortFree } from "./processes.js";
import { deriveMockSpec } from "./spec.js";

export interface StartMockOptions {
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** 0 or absent: a free port. */
  port?: number;
  /** The bundled contract to serve. Default: this package's (generated/openapi.json). */
  spec?: OpenApiDocument;
  /** Receives Prism's output lines. */
  log?: (line: string) => void;
  verboseLevel?: "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";
  /** How long Prism may take to answer at start. Default 30 s. */
  timeoutMs?: number;
}

export interface StartedMock {
  /** e.g. http://127.0.0.1:4010/v1 */
  baseUrl: string;
  origin: string;
  host: string;
  port: number;
  /** Internal port of Prism behind the front. */
  prismPort: number;
  /** Prism's process id (leader of its own process group). */
  pid: number;
  /** Mock-only changes made to the served copy of the contract. */
  fixes: string[];
  child: ChildProcess;
  stop(): Promise<void>;
}

const FRONT_FIX =
  'a front on the public port answers malformed JSON bodies with the documented 4XX response and headers (Prism\'s own 400 carries no rate-limit headers), and refuses a null, false, 0 or "" JSON body where the body is optional (Prism takes it for no body)';

/** Starts the mock; `stop()` closes the front, ends Prism's process group and removes the served copy. */
export async function startMock(options: StartMockOptions = {}): Promise<StartedMock> {
  const host = options.host ?? "127.0.0.1";
  const { spec, basePath, fixes } = deriveMockSpec(options.spec ?? openApiDocument);
  if (options.port) await assertPortFree(host, options.port);
  const work = await mkdtemp(path.join(tmpdir(), "api-contract-mock-"));
  const specFile = path.join(work, "openapi.mock.json");
  await writeFile(specFile, JSON.stringify(spec));
  let prism: Awaited<ReturnType<typeof startPrism>> | undefined;
  try {
    prism = await startPrism({
      args: (port) => ["mock", specFile, "-h", "127.0.0.1", "-p", String(port), "-v", options.verboseLevel ?? (options.log ? "info" : "warn")],
      log: options.log,
      timeoutMs: options.timeoutMs,
    });
    const running = prism;
    const front = await startFront({ host, port: options.port ?? 0, upstreamPort: running.port, spec });
    const origin = `http://${host.includes(":") ? `[${host}]` : host}:${front.port}`;
    return {
      baseUrl: `${origin}${basePath}`,
      origin,
      host,
      port: front.port,
      prismPort: running.port,
      pid: running.pid,
      fixes: [...fixes, FRONT_FIX],
      child: running.child,
      async stop() {
        await front.close();
        await running.stop();
        await rm(work, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await prism?.stop();
    await rm(work, { recursive: true, force: true });
    throw error;
  }
}

export { deriveMockSpec } from "./spec.js";
export { findFreePort } from "./processes.js";
