// The breaking-change gate (`npm run check:breaking`): the contract as built (generated/openapi.json)
// against the bundle of the last release (generated/released/openapi.json), every change classified from
// the consumer's side (compare.ts). It fails when the changes need a bigger bump than the package has:
//   - a breaking change needs a major bump, a non-breaking one a minor bump, an annotation a patch bump;
//   - the package has the bump of its version (package.json, the one source) over the released version,
//     and the biggest bump a pending changeset (.changeset/*.md) declares for it;
//   - and the spec's info.version must equal the package version.
// Everything it reads is in the repository: no network, no git.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { OpenApiDocument } from "../../src/openapi/index.js";
import { parseReleased, RELEASED_FILE } from "../build/steps/60-released.js";
import { type PendingChangeset, pendingChangesets } from "./changesets.js";
import { type Change, compareContracts, formatChange, summarizeChanges } from "./compare.js";
import { type Bump, bumpBetween, bumpRank, compareVersions, maxBump, parseVersion, requiredBump } from "./versions.js";

export const CURRENT_BUNDLE = path.join("generated", "openapi.json");
const RELEASED_BUNDLE = path.join("generated", RELEASED_FILE);

export interface GateResult {
  ok: boolean;
  /** What failed, each a paragraph (first line, then the changes or the remedy). */
  problems: string[];
  /** One line: versions, counts, the bump needed and what grants it. */
  summary: string;
  packageName: string;
  version: string;
  releasedVersion: string | undefined;
  changes: Change[];
  required: Bump;
  granted: Bump;
  /** What grants the bump: `version 2.0.0` and/or changeset files. */
  grantedBy: string[];
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

type Released = { version: string; document: Record<string, unknown> };

/** The released bundle, or a problem and the summary that says why there is nothing to compare with. */
async function readReleased(root: string): Promise<Released | { problem: string; summary: string }> {
  let releasedText: string;
  try {
    releasedText = await readFile(path.join(root, RELEASED_BUNDLE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return {
      problem:
        `${RELEASED_BUNDLE} is missing: the gate compares the contract with the bundle of the last release, ` +
        "which `npm run release:publish` writes (RELEASING.md)",
      summary: "check:breaking: nothing to compare with",
    };
  }
  try {
    return parseReleased(releasedText, RELEASED_BUNDLE);
  } catch (error) {
    return { problem: (error as Error).message, summary: "check:breaking: the released bundle cannot be read" };
  }
}

function versionMismatch(current: OpenApiDocument, version: string): string | undefined {
  if (current.info?.version === version) return undefined;
  return (
    `${CURRENT_BUNDLE}: info.version is ${JSON.stringify(current.info?.version)}, but package.json's version is ` +
    `${version}; the package version is the one source: ` +
    "`npm run release:version` sets info.version in openapi/openapi.yaml (or set it by hand), then `npm run build`"
  );
}

/** The bump the version and the pending changesets grant, and what grants it. */
function grantOf(
  releasedVersion: string,
  version: string,
  changesets: PendingChangeset[],
): { granted: Bump; grantedBy: string[] } {
  const byVersion = bumpBetween(parseVersion(releasedVersion), parseVersion(version));
  const byChangesets = maxBump(changesets.map((c) => c.bump));
  const grantedBy = [
    ...(byVersion !== "none" ? [`version ${version}`] : []),
    ...changesets.filter((c) => c.bump === byChangesets && byChangesets !== "none").map((c) => c.file),
  ];
  return { granted: maxBump([byVersion, byChangesets]), grantedBy };
}

function summaryOf(result: GateResult): string {
  const { changes, required, granted, grantedBy } = result;
  const inKind = (kind: Change["kind"]) => changes.filter((c) => c.kind === kind).length;
  const counts =
    `${inKind("breaking")} breaking, ${inKind("non-breaking")} non-breaking, ` +
    count(inKind("annotation"), "annotation");
  const needs = required === "none" ? "no bump" : `a ${required} bump`;
  const has = granted === "none" ? "none" : `${granted} (${grantedBy.join(", ")})`;
  const versions = `released ${result.releasedVersion} → ${result.version}`;
  return `check:breaking: ${versions}: ${counts}; needs ${needs}, has ${has}`;
}

/** The problem when the granted bump is smaller than the changes need: the changes, and how to record a bump. */
function bumpProblem(result: GateResult, changesets: PendingChangeset[]): string | undefined {
  const { changes, required, granted, version, releasedVersion } = result;
  if (bumpRank(granted) >= bumpRank(required)) return undefined;
  const pending = changesets.length ? ` (${changesets.map((c) => `${c.file}: ${c.bump}`).join(", ")})` : "";
  const has =
    `neither the version (${version}, released ${releasedVersion})` + ` nor a pending changeset${pending} gives one`;
  const record = `npx changeset add --${required} ${result.packageName} -m "<what changed, for consumers>"`;
  if (required === "major") {
    const breaking = changes.filter((c) => c.kind === "breaking");
    return [
      `${count(breaking.length, "breaking change")} since the released ${releasedVersion} need a major version; ` +
        `${has}:`,
      ...breaking.map((c) => `  ${formatChange(c)}`),
      `Undo the change, or record a major bump: \`${record}\` (RELEASING.md).`,
    ].join("\n");
  }
  return [
    `${count(changes.length, "change")} since the released ${releasedVersion} need at least a ${required} bump; ` +
      `${has}:`,
    ...summarizeChanges(changes).map((line) => `  ${line}`),
    `Every change to the contract carries a note and a bump: \`${record}\` (or \`npm run changeset\`; RELEASING.md).`,
  ].join("\n");
}

export async function runGate(root: string): Promise<GateResult> {
  const problems: string[] = [];
  const pkg = JSON.parse(await readFile(path.join(root, "package.json"), "utf8")) as { name: string; version: string };
  const result: GateResult = {
    ok: false,
    problems,
    summary: "",
    packageName: pkg.name,
    version: pkg.version,
    releasedVersion: undefined,
    changes: [],
    required: "none",
    granted: "none",
    grantedBy: [],
  };
  const version = parseVersion(pkg.version);
  const current = JSON.parse(await readFile(path.join(root, CURRENT_BUNDLE), "utf8")) as OpenApiDocument;
  const mismatch = versionMismatch(current, pkg.version);
  if (mismatch) problems.push(mismatch);
  const released = await readReleased(root);
  if ("problem" in released) {
    problems.push(released.problem);
    result.summary = released.summary;
    return result;
  }
  result.releasedVersion = released.version;
  if (compareVersions(version, parseVersion(released.version)) < 0)
    problems.push(`package.json's version ${pkg.version} is below the released ${released.version}`);
  let changesets: PendingChangeset[] = [];
  try {
    changesets = await pendingChangesets(root, pkg.name);
  } catch (error) {
    problems.push((error as Error).message);
  }
  const changes = compareContracts(released.document as OpenApiDocument, current);
  Object.assign(
    result,
    { changes, required: requiredBump(changes) },
    grantOf(released.version, pkg.version, changesets),
  );
  result.summary = summaryOf(result);
  const problem = bumpProblem(result, changesets);
  if (problem) problems.push(problem);
  result.ok = problems.length === 0;
  return result;
}
