// Types of mock-server.mjs, for TypeScript tests.
import type { ChildProcess } from "node:child_process";

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
  specFile: string;
  /** Mock-only changes made to the served copy of the spec. */
  fixes: string[];
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface StartMockOptions {
  host?: string;
  /** 0 or absent: a free port. */
  port?: number;
  /** The bundled spec; default: generated/openapi.json. */
  spec?: object;
  log?: (line: string) => void;
  verboseLevel?: "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";
  timeoutMs?: number;
}

export const root: string;
export const bundledSpecPath: string;
export function loadBundledSpec(): Record<string, unknown>;
/** The header name of the spec's apiKey-in-header security scheme (undefined when it has none). */
export function apiKeyHeaderName(spec: object): string | undefined;
export function isBundleStale(): boolean;
export function ensureBuilt(options?: { log?: (line: string) => void }): Promise<boolean>;
export function deriveMockSpec(spec: object): { spec: Record<string, unknown>; basePath: string; fixes: string[] };
/** The base path the mock serves under: that of the local (127.0.0.1/localhost) server, else the first ("" for none). */
export function mockBasePath(spec: object): string;
export function writeMockSpec(spec: object): Promise<{ file: string; basePath: string; fixes: string[]; spec: Record<string, unknown> }>;
export function findFreePort(host?: string): Promise<number>;
export function assertPortFree(host: string, port: number): Promise<void>;
export function startMock(options?: StartMockOptions): Promise<StartedMock>;
export interface StartedPrism {
  child: ChildProcess;
  pid: number;
  port: number;
  stop(): Promise<void>;
}
/** Spawns the Prism CLI (`args(port)`) in its own process group on a free port and waits until it answers. */
export function startPrism(options: { args: (port: number) => string[]; log?: (line: string) => void; timeoutMs?: number }): Promise<StartedPrism>;
/** Ends a process group started with `detached: true` (SIGTERM, then SIGKILL after timeoutMs). */
export function stopProcessGroup(child: ChildProcess, timeoutMs?: number): Promise<void>;
