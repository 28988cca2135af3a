#!/usr/bin/env node
// Fails, naming each file, when a committed file in generated/ differs from a fresh build.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { root, runBuild } from "./build.mjs";

async function listFiles(dir, prefix = "") {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files = [];
  for (const entry of entries) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(path.join(dir, entry.name), rel)));
    else files.push(rel);
  }
  return files.sort();
}

const fresh = await mkdtemp(path.join(tmpdir(), "generated-check-"));
try {
  await runBuild({ outDir: fresh, quiet: true });
  const committedDir = path.join(root, "generated");
  const [freshFiles, committedFiles] = await Promise.all([listFiles(fresh), listFiles(committedDir)]);
  const problems = [];
  for (const file of freshFiles) {
    if (!committedFiles.includes(file)) {
      problems.push(`generated/${file}: missing (a fresh build writes it)`);
      continue;
    }
    const [a, b] = await Promise.all([readFile(path.join(fresh, file)), readFile(path.join(committedDir, file))]);
    if (!a.equals(b)) problems.push(`generated/${file}: stale (differs from a fresh build)`);
  }
  for (const file of committedFiles) {
    if (!freshFiles.includes(file)) problems.push(`generated/${file}: not produced by the build (remove it)`);
  }
  if (problems.length) {
    console.error(`check:generated: ${problems.length} problem(s); run \`npm run build\` and commit:\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
  console.log(`check:generated: ${freshFiles.length} generated files are fresh`);
} finally {
  await rm(fresh, { recursive: true, force: true });
}
