#!/usr/bin/env node
// Builds everything in generated/ by running scripts/build-steps/*.mjs in name order.
// Each step exports `default async function ({ root, outDir, log })` and writes only under outDir.
// check-generated.mjs runs the same steps into a temporary folder and compares.
import { readdir, mkdir } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export async function runBuild({ outDir = path.join(root, "generated"), quiet = false, only } = {}) {
  const stepsDir = path.join(root, "scripts", "build-steps");
  const steps = (await readdir(stepsDir)).filter((f) => f.endsWith(".mjs")).sort();
  await mkdir(outDir, { recursive: true });
  const log = quiet ? () => {} : (msg) => console.log(msg);
  for (const file of steps) {
    if (only && !only.some((name) => file.includes(name))) continue;
    const started = performance.now();
    const step = await import(pathToFileURL(path.join(stepsDir, file)).href);
    await step.default({ root, outDir, log });
    log(`build: ${file} (${Math.round(performance.now() - started)} ms)`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const only = process.argv.slice(2);
  runBuild({ only: only.length ? only : undefined }).catch((err) => {
    console.error(err?.stack ?? err);
    process.exit(1);
  });
}
