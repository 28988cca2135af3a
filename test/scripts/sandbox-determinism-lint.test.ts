// The sandbox's determinism rule in biome.json (`npm run lint:code`): nothing under src/sandbox/ draws a random
// value or reads the wall clock (Math.random, randomUUID, getRandomValues, node:crypto's random functions,
// Date.now, performance.now, new Date() and Date(), the last two through biome-plugins/) except the id generator
// (ids.ts), the clock (clock.ts) and the HTTP server (server.ts, its temporary state-file names). Checked on a
// copy of biome.json, biome-plugins/ and src/sandbox/: clean as it is, failing on each planted read elsewhere
// (one message per form), passing with the same reads in the three allowed files.
import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { repoRoot } from "../support/spec.js";

/** The rules that make up the determinism rule, as Biome's GitHub reporter titles their findings. */
const DETERMINISM_RULES = ["lint/nursery/noJsRestrictedProperties", "lint/style/noRestrictedImports", "plugin"];

/** Each planted read: an import (its own line at the top of a module) or an expression. */
const PLANTED: Array<[string, string]> = [
  ["Math.random", "export const p1 = Math.random();"],
  ["crypto.randomUUID", "export const p2 = crypto.randomUUID();"],
  ["getRandomValues", "export const p3 = globalThis.crypto.getRandomValues(new Uint32Array(1));"],
  ["Math.random, destructured", "export const { random: p4 } = Math;"],
  ["Date.now", "export const p5 = Date.now();"],
  ["performance.now", "export const p6 = performance.now();"],
  ["new Date()", "export const p7 = new Date();"],
  ["Date()", "export const p8 = Date();"],
  ["node:crypto's randomBytes", 'import { randomBytes as plantedBytes } from "node:crypto";'],
  ["crypto's randomInt", 'import { randomInt as plantedInt } from "crypto";'],
];
const ALLOWED = ["src/sandbox/ids.ts", "src/sandbox/clock.ts", "src/sandbox/server.ts"];

const copies: string[] = [];
afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the rule's configuration and of src/sandbox/ (node_modules linked). */
function copy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "determinism-lint-"));
  copies.push(dir);
  for (const entry of ["biome.json", "biome-plugins", "src/sandbox"])
    cpSync(path.join(repoRoot, entry), path.join(dir, entry), { recursive: true });
  symlinkSync(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

/** The determinism rule's findings on the copy's src/sandbox/: `file:line rule`, files relative to the copy. */
function findings(dir: string): string[] {
  let output: string;
  try {
    const args = ["lint", "--vcs-enabled=false", "--reporter=github", "--max-diagnostics=none", "src/sandbox"];
    output = execFileSync(path.join(dir, "node_modules/.bin/biome"), args, {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  return output.split("\n").flatMap((line) => {
    const found = /^::error title=([^,]+),file=([^,]+),line=(\d+),/.exec(line);
    if (!found || !DETERMINISM_RULES.includes(found[1]!)) return [];
    return [`${path.relative(dir, found[2]!)}:${found[3]} ${found[1]}`];
  });
}

/** The planted lines as a module: the imports first, so that each case has a line of its own. */
const plantedModule = () => [
  ...PLANTED.filter(([, line]) => line.startsWith("import")),
  ...PLANTED.filter(([, line]) => !line.startsWith("import")),
];

describe("the sandbox's determinism rule (biome.json)", () => {
  it("finds nothing in src/sandbox/ as it is", () => {
    expect(findings(copy())).toEqual([]);
  });

  it("reports each planted draw or wall-clock read in a file of src/sandbox/, at its line", () => {
    const dir = copy();
    const planted = plantedModule();
    writeFileSync(path.join(dir, "src/sandbox/money/planted.ts"), `${planted.map(([, line]) => line).join("\n")}\n`);
    const reported = findings(dir);
    const missed = planted
      .map(([what], index) => [what, `src/sandbox/money/planted.ts:${index + 1} `] as const)
      .filter(([, at]) => !reported.some((finding) => finding.startsWith(at)))
      .map(([what, at]) => `${what} (${at.trim()}) not reported`);
    expect(missed, reported.join("\n")).toEqual([]);
  });

  it("allows them in the id generator, the clock and the HTTP server", () => {
    const dir = copy();
    const planted = plantedModule();
    for (const file of ALLOWED)
      appendFileSync(path.join(dir, file), `\n${planted.map(([, line]) => line.replace("export ", "")).join("\n")}\n`);
    // One read elsewhere, so that a run that reports nothing at all cannot pass.
    writeFileSync(path.join(dir, "src/sandbox/money/planted.ts"), "export const p = Math.random();\n");
    expect(findings(dir)).toEqual(["src/sandbox/money/planted.ts:1 lint/nursery/noJsRestrictedProperties"]);
  });
});
