// Type-checks TypeScript sources with the repo's tsc, mapping this package's name to src/, so
// examples written for users (docs samples, README) are compiled as a consumer would write them.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { PACKAGE_NAME } from "../../scripts/build/code-samples.js";

const run = promisify(execFile);
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * A scratch folder inside the repo (git-ignored test-output/), so package.json's "type": "module" and node_modules
 * apply.
 */
export async function scratchDir(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  await mkdir(path.join(repoRoot, "test-output", "docs"), { recursive: true });
  const dir = await mkdtemp(path.join(repoRoot, "test-output", "docs", prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** tsc `paths` mapping the package and its `subpaths` (`sandbox`, `msw`…) to src/, as a consumer imports them. */
export function packagePaths(...subpaths: string[]): Record<string, string[]> {
  const paths: Record<string, string[]> = { [PACKAGE_NAME]: [path.join(repoRoot, "src", "index.ts")] };
  for (const subpath of ["contract", ...subpaths])
    paths[`${PACKAGE_NAME}/${subpath}`] = [path.join(repoRoot, "src", subpath, "index.ts")];
  return paths;
}

/**
 * Type-checks `source` as `name`.ts beside `broken`, a copy with one mistake, as `name`-broken.ts: a test
 * expects `clean` empty and `broken` not (which shows the check can fail). `all` is everything tsc said.
 */
export async function tscCleanAndBroken(
  dir: string,
  name: string,
  source: string,
  broken: string,
  subpaths: string[] = [],
  tsc?: string,
) {
  if (broken === source) throw new Error(`${name}: the broken copy must differ from the source`);
  const files = { [`${name}.ts`]: source, [`${name}-broken.ts`]: broken };
  const { errors } = await tscErrors(dir, files, { paths: packagePaths(...subpaths) }, tsc);
  return {
    clean: errors.filter((line) => line.startsWith(`${name}.ts`)),
    broken: errors.filter((line) => line.startsWith(`${name}-broken.ts`)),
    all: errors.join("\n"),
  };
}

/**
 * Writes the files into `dir`, runs tsc (strict, NodeNext) on them and returns its error lines. `tsc`: another
 * TypeScript's bin/tsc than the repository's (test/consumer/toolchain.ts installs the matrix's).
 */
export async function tscErrors(
  dir: string,
  files: Record<string, string>,
  compilerOptions: Record<string, unknown> = {},
  tsc = path.join(repoRoot, "node_modules", "typescript", "bin", "tsc"),
): Promise<{ errors: string[]; output: string }> {
  for (const [name, source] of Object.entries(files)) await writeFile(path.join(dir, name), source);
  const tsconfig = {
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      lib: ["ES2022", "DOM"],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      types: ["node"],
      paths: packagePaths(),
      ...compilerOptions,
    },
    files: Object.keys(files),
  };
  await writeFile(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
  const output = await run(process.execPath, [tsc, "-p", path.join(dir, "tsconfig.json"), "--pretty", "false"], {
    cwd: dir,
  })
    .then(({ stdout }) => stdout)
    .catch((err: { stdout?: string }) => err.stdout ?? String(err));
  return { errors: output.split("\n").filter((line) => /error TS\d+/.test(line)), output };
}
