// The consumer test's toolchain: a Node binary and a TypeScript compiler per version of test/consumer/matrix.ts,
// from the npm registry by exact version. The repository's own copy is used when it is that version (the
// devDependencies `node` and `typescript`); otherwise npm installs the package into a cache under
// node_modules/.cache/consumer-toolchain/, reused while its binary answers `--version` with the pinned version.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../support/spec.js";

const run = promisify(execFile);

const TOOLCHAIN_CACHE = path.join(repoRoot, "node_modules", ".cache", "consumer-toolchain");

export interface Tool {
  version: string;
  /** The executable: node itself, or TypeScript's bin/tsc (run it with any Node). */
  bin: string;
  /** Where it came from: the repository's devDependency, the cache, or a download by this run. */
  source: "repository" | "cache" | "download";
  /** Time to find, verify or install it. */
  ms: number;
  /** Size of the installed package on disk when this run downloaded it. */
  bytes?: number;
}

/** The registry package that holds Node's binary for this machine (what the npm package `node` installs). */
const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;

export function ensureNode(version: string): Promise<Tool> {
  return ensure({
    version,
    spec: `${NODE_PACKAGE}@${version}`,
    repository: path.join(repoRoot, "node_modules", "node"),
    repositoryBin: path.join(repoRoot, "node_modules", "node", "bin", "node"),
    binIn: (prefix) => path.join(prefix, "node_modules", NODE_PACKAGE, "bin", "node"),
    cacheName: `node-${version}`,
    check: async (bin) => (await run(bin, ["--version"])).stdout.trim() === `v${version}`,
  });
}

export function ensureTypeScript(version: string): Promise<Tool> {
  return ensure({
    version,
    spec: `typescript@${version}`,
    repository: path.join(repoRoot, "node_modules", "typescript"),
    repositoryBin: path.join(repoRoot, "node_modules", "typescript", "bin", "tsc"),
    binIn: (prefix) => path.join(prefix, "node_modules", "typescript", "bin", "tsc"),
    cacheName: `typescript-${version}`,
    check: async (bin) => (await run(process.execPath, [bin, "--version"])).stdout.trim() === `Version ${version}`,
  });
}

interface Recipe {
  version: string;
  spec: string;
  repository: string;
  repositoryBin: string;
  binIn(prefix: string): string;
  cacheName: string;
  check(bin: string): Promise<boolean>;
}

const passes = (recipe: Recipe, bin: string) => recipe.check(bin).catch(() => false);

async function ensure(recipe: Recipe): Promise<Tool> {
  const started = performance.now();
  const done = (bin: string, source: Tool["source"], bytes?: number): Tool => ({
    version: recipe.version,
    bin,
    source,
    ms: Math.round(performance.now() - started),
    ...(bytes === undefined ? {} : { bytes }),
  });
  if (installedVersion(recipe.repository) === recipe.version && (await passes(recipe, recipe.repositoryBin))) {
    return done(recipe.repositoryBin, "repository");
  }
  const prefix = path.join(TOOLCHAIN_CACHE, recipe.cacheName);
  if (await passes(recipe, recipe.binIn(prefix))) return done(recipe.binIn(prefix), "cache");

  // Install next to the cache entry, then move it in: an interrupted download never looks like a cached one.
  const staging = `${prefix}.partial-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    await run(
      "npm",
      [
        "install",
        "--prefix",
        staging,
        "--no-save",
        "--no-package-lock",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        recipe.spec,
      ],
      {
        maxBuffer: 32 * 2 ** 20,
        timeout: 300_000,
      },
    );
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    const { stderr, message } = error as { stderr?: string; message: string };
    // npm's first error lines name the cause (ETARGET: no such version; ECONNREFUSED, ENOTFOUND: no registry).
    const errors = (stderr ?? "")
      .split("\n")
      .filter((line) => /^npm error \S/.test(line) && !line.includes("complete log"));
    const cause = errors.length > 0 ? errors.slice(0, 4).join("\n") : message;
    throw new Error(`could not install ${recipe.spec} from the npm registry into ${prefix}:\n${cause}`);
  }
  if (!(await passes(recipe, recipe.binIn(staging)))) {
    await rm(staging, { recursive: true, force: true });
    throw new Error(
      `${recipe.spec} installed, but ${recipe.binIn(staging)} does not answer --version with ${recipe.version}`,
    );
  }
  await rm(prefix, { recursive: true, force: true });
  await rename(staging, prefix).catch(async (error: unknown) => {
    // Another run moved the same version in first: use its copy if it is good.
    await rm(staging, { recursive: true, force: true });
    if (!(await passes(recipe, recipe.binIn(prefix)))) throw error;
  });
  return done(recipe.binIn(prefix), "download", await diskUsage(prefix));
}

function installedVersion(dir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

async function diskUsage(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}
