// The package can be published: `npm publish --dry-run --json` (it runs prepack, which builds dist/) in a
// copy of what publishing reads, so the repository's own dist/ is never touched. `--offline` keeps it off
// the network (without it, npm 11 looks the package up on the registry even in a dry run, and takes a
// minute to give up where the registry is unreachable). The tarball holds what consumers need and only that.
import { cp, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommand } from "../../scripts/lib/node-cli.js";
import { repoRoot } from "../support/spec.js";

// scripts/: build:dist (prepack) runs scripts/optional-peer-types.ts after tsup.
const COPIED = ["package.json", "README.md", "tsup.config.ts", "tsconfig.json", "src", "generated", "scripts"];

interface PackResult {
  id: string;
  name: string;
  version: string;
  files: Array<{ path: string }>;
}

let dir: string;
let run: { code: number | null; stdout: string; stderr: string };
const pkg = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8")) as {
  name: string;
  version: string;
  main: string;
  module: string;
  types: string;
  bin: Record<string, string>;
  exports: Record<string, unknown>;
  private?: boolean;
  publishConfig?: { access?: string };
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "publish-dry-run-"));
  await Promise.all(COPIED.map((entry) => cp(path.join(repoRoot, entry), path.join(dir, entry), { recursive: true })));
  await symlink(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
  run = await runCommand("npm", ["publish", "--dry-run", "--json", "--offline"], { cwd: dir });
}, 240_000);
afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

/** npm prints the JSON after prepack's own output; npm 11 keys it by package name. */
function packResult(stdout: string): PackResult {
  const json = JSON.parse(stdout.slice(stdout.search(/^\{/m))) as PackResult | Record<string, PackResult>;
  return "files" in json ? (json as PackResult) : (json as Record<string, PackResult>)[pkg.name]!;
}

/** Every file path package.json points consumers at (exports, main, module, types, bin). */
function entryFiles(): string[] {
  const found = new Set<string>([pkg.main, pkg.module, pkg.types, ...Object.values(pkg.bin)]);
  const walk = (value: unknown): void => {
    if (typeof value === "string") found.add(value);
    else if (value && typeof value === "object") for (const child of Object.values(value)) walk(child);
  };
  walk(pkg.exports);
  return [...found].map((file) => file.replace(/^\.\//, "")).sort();
}

describe("npm publish --dry-run", () => {
  it("succeeds, public, as name@version, without `private`", () => {
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(pkg.private).toBeUndefined();
    expect(pkg.publishConfig?.access).toBe("public");
    expect(run.stderr).toMatch(/Publishing to \S+ with tag latest and public access \(dry-run\)/);
    expect(packResult(run.stdout).id).toBe(`${pkg.name}@${pkg.version}`);
  });

  it("ships every file package.json points at, the bundle, README and package.json, and nothing else", () => {
    const files = packResult(run.stdout).files.map((f) => f.path);
    for (const file of entryFiles()) expect(files, file).toContain(file);
    for (const file of ["generated/openapi.json", "README.md", "package.json"]) expect(files).toContain(file);
    expect(files.filter((f) => !/^(dist\/|generated\/openapi\.json$|package\.json$|README\.md$)/.test(f))).toEqual([]);
    // Not the released copy, the sources, the tests or the release tooling.
    expect(files.some((f) => /^(generated\/released|openapi|src|test|scripts|\.changeset)\//.test(f))).toBe(false);
  });
});
