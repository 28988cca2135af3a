// `npm run check:generated`: fails, naming each file, when a committed file in generated/ differs from a
// fresh build (byte for byte, build-inputs.txt included), when generated/ has a file no build writes, or when a
// guide's generated table (scripts/build/guide-tables.ts) differs from the one the fresh build gives.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runSteps } from "./build/index.js";
import { guideTableProblems } from "./build/guide-tables.js";
import { GENERATED_DIR, ROOT } from "./lib/paths.js";
import { withSourceLocations } from "./lib/source-map.js";

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(path.join(dir, entry.name), rel)));
    else files.push(rel);
  }
  return files.sort();
}

const fresh = await mkdtemp(path.join(tmpdir(), "generated-check-"));
try {
  try {
    await runSteps(fresh, { quiet: true });
  } catch (error) {
    console.error(withSourceLocations(error instanceof Error ? error.message : String(error)));
    console.error("check:generated: the build fails, so generated/ cannot be checked");
    process.exit(1);
  }
  const [freshFiles, committedFiles] = await Promise.all([listFiles(fresh), listFiles(GENERATED_DIR)]);
  const problems: string[] = [];
  for (const file of freshFiles) {
    if (!committedFiles.includes(file)) {
      problems.push(`generated/${file}: missing (a fresh build writes it)`);
      continue;
    }
    const [a, b] = await Promise.all([readFile(path.join(fresh, file)), readFile(path.join(GENERATED_DIR, file))]);
    if (!a.equals(b)) problems.push(`generated/${file}: stale (differs from a fresh build)`);
  }
  for (const file of committedFiles) {
    if (!freshFiles.includes(file)) problems.push(`generated/${file}: not produced by the build (remove it)`);
  }
  problems.push(...(await guideTableProblems(ROOT, fresh)));
  if (problems.length) {
    console.error(
      `check:generated: ${problems.length} problem(s); run \`npm run build\` and commit:\n  ${problems.join("\n  ")}`,
    );
    process.exit(1);
  }
  console.log(`check:generated: ${freshFiles.length} generated files are fresh`);
} finally {
  await rm(fresh, { recursive: true, force: true });
}
