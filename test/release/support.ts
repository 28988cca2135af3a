// Fixtures of the release tests: the small base contract (fixtures/base.yaml), the fixtures of one change each
// (fixtures/changes/*.yaml, and those constraints.test.ts generates: a `before` and an `after` patch of JSON-pointer
// set/remove steps) and their check, and throwaway checkouts for the gate's command line (package.json,
// generated/openapi.json, the released bundle, .changeset/).
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { parse } from "yaml";
import { releasedText } from "../../scripts/build/steps/60-released.js";
import { binPath, type NodeRun, runNodeScript } from "../../scripts/lib/node-cli.js";
import { type ChangeKind, type ChangeRule, compareContracts, formatChange } from "../../scripts/release/compare.js";
import { type GateResult, runGate } from "../../scripts/release/gate.js";
import { requiredBump } from "../../scripts/release/versions.js";
import { type JsonObject, type OpenApiDocument, resolvePointer } from "../../src/openapi/index.js";
import { removeAtPointer, setAtPointer } from "../support/json-pointer.js";
import { repoRoot } from "../support/spec.js";

const FIXTURES = path.join(repoRoot, "test", "release", "fixtures");

type PatchStep = { remove: string } | { set: string; value: unknown };

export interface ChangeFixture {
  name: string;
  verdict: ChangeKind;
  rule: ChangeRule;
  where: string;
  field?: string;
  /** Every rule the comparison finds; default: only `rule`. */
  rules?: ChangeRule[];
  /** Every change as the gate prints it (formatChange), in the comparer's order. */
  lines: string[];
  before?: PatchStep[];
  after: PatchStep[];
}

/** The base contract, a fresh copy each call. */
export const baseContract = (): OpenApiDocument =>
  parse(readFileSync(path.join(FIXTURES, "base.yaml"), "utf8")) as OpenApiDocument;

export function changeFixtures(): ChangeFixture[] {
  const dir = path.join(FIXTURES, "changes");
  return readdirSync(dir)
    .filter((file) => file.endsWith(".yaml"))
    .sort()
    .map((file) => ({
      name: file.replace(/\.yaml$/, ""),
      ...(parse(readFileSync(path.join(dir, file), "utf8")) as Omit<ChangeFixture, "name">),
    }));
}

const BUMP = { breaking: "major", "non-breaking": "minor", annotation: "patch" } as const;

/**
 * Applies the fixture's patches to the base contract and checks what the comparer finds: the rules, the verdict,
 * rule, place and field of its change, the bump, and every line the gate prints.
 */
export function expectChangeFixture(fixture: ChangeFixture): void {
  const before = applyPatch(baseContract(), fixture.before);
  const after = applyPatch(before, fixture.after);
  const changes = compareContracts(before, after);
  expect([...new Set(changes.map((c) => c.rule))].sort(), changes.map(formatChange).join("\n")).toEqual(
    [...(fixture.rules ?? [fixture.rule])].sort(),
  );
  const change = changes.find((c) => c.rule === fixture.rule && c.where === fixture.where);
  expect(change, `no ${fixture.rule} at ${fixture.where} in:\n${changes.map(formatChange).join("\n")}`).toBeDefined();
  expect(change?.kind).toBe(fixture.verdict);
  if (fixture.field !== undefined) expect(change?.field).toBe(fixture.field);
  // The line names the kind, the rule, the operation and the field.
  const line = formatChange(change!);
  expect(line).toContain(fixture.verdict.toUpperCase());
  expect(line).toContain(fixture.where);
  if (fixture.field) expect(line).toContain(fixture.field);
  expect(requiredBump(changes)).toBe(BUMP[fixture.verdict]);
  expect(changes.map(formatChange)).toEqual(fixture.lines);
}

/** `doc` with `count` more operations like getItem (getCopy1…, at /copies/1…): a change to Item has many places. */
export function withCopiesOfGetItem(doc: OpenApiDocument, count: number): OpenApiDocument {
  const get = resolvePointer(doc, "#/paths/~1items~1{id}/get") as JsonObject;
  const copy = structuredClone(doc);
  for (let n = 1; n <= count; n++) copy.paths![`/copies/${n}`] = { get: { ...get, operationId: `getCopy${n}` } };
  return copy;
}

/** Applies set/remove steps (JSON pointers; a missing parent is an error) to a copy of `doc`. */
export function applyPatch<T>(doc: T, steps: readonly PatchStep[] = []): T {
  const copy = structuredClone(doc);
  for (const step of steps) {
    if ("remove" in step) removeAtPointer(copy, step.remove);
    else setAtPointer(copy, step.set, step.value);
  }
  return copy;
}

export interface Checkout {
  dir: string;
  /** Writes generated/openapi.json (info.version set to the package version unless `specVersion` is given). */
  current(doc: OpenApiDocument, specVersion?: string): Promise<void>;
  /** Writes generated/released/openapi.json as the release step does. */
  released(doc: OpenApiDocument, version: string): Promise<void>;
  version(version: string): Promise<void>;
  changeset(file: string, text: string): Promise<void>;
  /** Runs the gate's command line on this checkout. */
  gate(args?: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Runs the gate in this process (what the command line prints is its problems and summary). */
  run(): Promise<GateResult>;
  remove(): Promise<void>;
}

export const PACKAGE_NAME = "@trading-wallet-settlement/api-contract";

/** A throwaway checkout with only what the gate reads. */
export async function checkout(version = "1.0.0"): Promise<Checkout> {
  const dir = await mkdtemp(path.join(tmpdir(), "release-gate-"));
  await mkdir(path.join(dir, "generated", "released"), { recursive: true });
  await mkdir(path.join(dir, ".changeset"), { recursive: true });
  let packageVersion = version;
  const writePackage = () =>
    writeFile(
      path.join(dir, "package.json"),
      `${JSON.stringify({ name: PACKAGE_NAME, version: packageVersion }, null, 2)}\n`,
    );
  await writePackage();
  const withVersion = (doc: OpenApiDocument, v: string): OpenApiDocument => ({
    ...doc,
    info: { ...doc.info, version: v },
  });
  return {
    dir,
    current: (doc, specVersion) =>
      writeFile(
        path.join(dir, "generated", "openapi.json"),
        `${JSON.stringify(withVersion(doc, specVersion ?? packageVersion), null, 2)}\n`,
      ),
    released: (doc, v) =>
      writeFile(
        path.join(dir, "generated", "released", "openapi.json"),
        releasedText(withVersion(doc, v) as Record<string, unknown>, v),
      ),
    async version(v) {
      packageVersion = v;
      await writePackage();
    },
    changeset: (file, text) => writeFile(path.join(dir, ".changeset", file), text),
    gate: (args = []) => runTsx(path.join(repoRoot, "scripts", "check-breaking.ts"), ["--root", dir, ...args]),
    run: () => runGate(dir),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** `tsx script args…` with this repository's tsx, resolving with the exit code and output. */
function runTsx(script: string, args: string[], cwd = repoRoot): Promise<NodeRun> {
  return runNodeScript(binPath("tsx"), [script, ...args], { cwd });
}
