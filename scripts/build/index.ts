// The build: runs the steps of scripts/build/steps/ in name order into a folder, and writes generated/
// only when every step succeeded (a staging folder swapped in whole), so a failed build leaves generated/
// as it was. generated/build-inputs.txt records a fingerprint of every input, so a stale generated/ is
// noticed by content (scripts/lib/freshness.ts), never by file times.
import { createHash } from "node:crypto";
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { GENERATED_DIR, ROOT } from "../lib/paths.js";
import { headerFor } from "./generated-header.js";

export interface BuildContext {
  root: string;
  /** Where the step writes (a staging folder, or a temporary one for check:generated). */
  outDir: string;
  log: (message: string) => void;
}

/** The files the build reads. A change to any of these makes generated/ stale. */
const BUILD_INPUTS = [
  "openapi",
  "openapi-sandbox",
  "redocly.yaml",
  "scripts/build",
  "scripts/lib",
  "src/openapi",
] as const;
// The register's table (step 80) is read from src/sandbox, which is not an input here: the fingerprint tells npm
// start when the contract must be built again; check:generated compares that table's bytes with a fresh build.
/**
 * Besides the files: package.json's name (the code samples import it) and the versions of the tools that
 * write generated/.
 */
const BUILD_TOOLS = ["@redocly/cli", "openapi-typescript", "yaml"] as const;

const require = createRequire(import.meta.url);

/** The package name and the installed build tools' versions, as fingerprint text. */
async function toolsText(root: string): Promise<string> {
  const { name } = JSON.parse(await readFile(path.join(root, "package.json"), "utf8")) as { name: string };
  const versions = BUILD_TOOLS.map(
    (tool) => `${tool}@${(require(`${tool}/package.json`) as { version: string }).version}`,
  );
  return [`name ${name}`, ...versions].join("\n");
}
const FINGERPRINT_FILE = "build-inputs.txt";

const STEPS_DIR = path.join(ROOT, "scripts", "build", "steps");

async function filesUnder(root: string, relative: string): Promise<string[]> {
  const absolute = path.join(root, relative);
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(absolute, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") return [relative];
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const files: string[] = [];
  for (const entry of entries) {
    const child = path.join(relative, entry.name);
    if (entry.isDirectory()) files.push(...(await filesUnder(root, child)));
    else files.push(child);
  }
  return files;
}

/** sha256 over the path and bytes of every build input (paths with "/", sorted). */
export async function inputFingerprint(root = ROOT): Promise<string> {
  const files = (await Promise.all(BUILD_INPUTS.map((input) => filesUnder(root, input)))).flat();
  const hash = createHash("sha256");
  hash.update(`${await toolsText(root)}\0`);
  for (const file of files.map((f) => f.split(path.sep).join("/")).sort()) {
    hash.update(`${file}\0`);
    hash.update(await readFile(path.join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** The fingerprint file's text: a header, what it covers, the hash. */
function fingerprintText(fingerprint: string): string {
  const inputs = `${BUILD_INPUTS.join(", ")}, package.json's name, ${BUILD_TOOLS.join(", ")} versions`;
  return `${headerFor(FINGERPRINT_FILE)}# sha256 of the build inputs: ${inputs}\n${fingerprint}\n`;
}

/** The fingerprint recorded in a generated folder, or undefined. */
export async function recordedFingerprint(dir = GENERATED_DIR): Promise<string | undefined> {
  try {
    const text = await readFile(path.join(dir, FINGERPRINT_FILE), "utf8");
    return /^[0-9a-f]{64}$/m.exec(text)?.[0];
  } catch {
    return undefined;
  }
}

/** The step files, in order; `only` keeps those whose name contains one of its strings. */
async function buildSteps(only?: readonly string[]): Promise<string[]> {
  const steps = (await readdir(STEPS_DIR)).filter((f) => f.endsWith(".ts")).sort();
  return only?.length ? steps.filter((file) => only.some((name) => file.includes(name))) : steps;
}

/** Runs the steps into `outDir` (which must exist); a full build also writes the fingerprint there. */
export async function runSteps(
  outDir: string,
  options: { only?: readonly string[]; quiet?: boolean; root?: string } = {},
): Promise<void> {
  const root = options.root ?? ROOT;
  const log = options.quiet ? () => {} : (message: string) => console.log(message);
  for (const file of await buildSteps(options.only)) {
    const started = performance.now();
    const step = (await import(pathToFileURL(path.join(STEPS_DIR, file)).href)) as {
      default: (context: BuildContext) => Promise<void>;
    };
    await step.default({ root, outDir, log });
    log(`build: ${file} (${Math.round(performance.now() - started)} ms)`);
  }
  // A partial build (npm run docs) leaves the recorded fingerprint alone: the other outputs were not rebuilt.
  if (!options.only?.length)
    await writeFile(path.join(outDir, FINGERPRINT_FILE), fingerprintText(await inputFingerprint(root)));
}

/**
 * Builds generated/ atomically: the steps run in a staging folder (a copy of generated/ when only some
 * steps run); generated/ is replaced by it only when all of them succeeded. A failure leaves generated/
 * untouched and the error names the failing step's problem.
 */
export async function buildGenerated(options: { only?: readonly string[]; quiet?: boolean } = {}): Promise<void> {
  const staging = `${GENERATED_DIR}.staging-${process.pid}`;
  const previous = `${GENERATED_DIR}.previous-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  try {
    if (options.only?.length) await cp(GENERATED_DIR, staging, { recursive: true });
    else await mkdir(staging, { recursive: true });
    await runSteps(staging, options);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  let hadPrevious = true;
  try {
    await rename(GENERATED_DIR, previous);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    hadPrevious = false;
  }
  await rename(staging, GENERATED_DIR);
  if (hadPrevious) await rm(previous, { recursive: true, force: true });
}
