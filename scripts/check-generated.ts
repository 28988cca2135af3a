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

/** The problems of generated/ and the guides' tables against a fresh build into `fresh`, or why none could be found. */
async function problemsAgainst(fresh: string): Promise<{ problems: string[]; files: number } | { failed: string }> {
  try {
    await runSteps(fresh, { quiet: true });
  } catch (error) {
    return { failed: withSourceLocations(error instanceof Error ? error.message : String(error)) };
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
  return { problems, files: freshFiles.length };
}

// The fresh build's folder is removed whatever the outcome (process.exit would skip a finally), so a failed check
// leaves nothing behind in the temporary folder.
const fresh = await mkdtemp(path.join(tmpdir(), "generated-check-"));
const outcome = await problemsAgainst(fresh).finally(() => rm(fresh, { recursive: true, force: true }));
if ("failed" in outcome) {
  console.error(outcome.failed);
  console.error("check:generated: the build fails, so generated/ cannot be checked");
  process.exitCode = 1;
} else if (outcome.problems.length) {
  const { problems } = outcome;
  const list = problems.join("\n  ");
  console.error(`check:generated: ${problems.length} problem(s); run \`npm run build\` and commit:\n  ${list}`);
  process.exitCode = 1;
} else {
  console.log(`check:generated: ${outcome.files} generated files are fresh`);
}
