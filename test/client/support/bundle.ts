// The client bundled twice by esbuild, as tsup ships it: an ESM file and a CJS file, each with its own copy of
// every module (and of any module-level state). Written to a fresh temporary directory, openapi-fetch included.
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import { repoRoot } from "../../support/spec.js";

export type ClientModule = typeof import("../../../src/index.js");

export interface BundledClient {
  /** Absolute paths of the two files. */
  esmFile: string;
  cjsFile: string;
  loadEsm(): Promise<ClientModule>;
  loadCjs(): ClientModule;
  remove(): Promise<void>;
}

export async function bundleClient(): Promise<BundledClient> {
  const dir = await mkdtemp(path.join(tmpdir(), "api-contract-client-"));
  const esmFile = path.join(dir, "index.mjs");
  const cjsFile = path.join(dir, "index.cjs");
  for (const [format, outfile] of [
    ["esm", esmFile],
    ["cjs", cjsFile],
  ] as const) {
    await esbuild.build({
      entryPoints: [path.join(repoRoot, "src", "index.ts")],
      bundle: true,
      platform: "node",
      target: "node20",
      format,
      outfile,
      logLevel: "silent",
    });
  }
  return {
    esmFile,
    cjsFile,
    loadEsm: async () => (await import(/* @vite-ignore */ pathToFileURL(esmFile).href)) as ClientModule,
    loadCjs: () => createRequire(import.meta.url)(cjsFile) as ClientModule,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
