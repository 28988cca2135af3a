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
export const RELEASED_BUNDLE = path.join("generated", RELEASED_FILE);

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
  if (current.info?.version !== pkg.version)
    problems.push(
      `${CURRENT_BUNDLE}: info.version is ${JSON.stringify(current.info?.version)}, but package.json's version is ${pkg.version}; the package version is the one source: ` +
        "`npm run release:version` sets info.version in openapi/openapi.yaml (or set it by hand), then `npm run build`",
    );

  let releasedText: string;
  try {
    releasedText = await readFile(path.join(root, RELEASED_BUNDLE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    problems.push(
      `${RELEASED_BUNDLE} is missing: the gate compares the contract with the bundle of the last release, which \`npm run release:publish\` writes (RELEASING.md)`,
    );
    result.summary = "check:breaking: nothing to compare with";
    return result;
  }
  let released: { version: string; document: Record<string, unknown> };
  try {
    released = parseReleased(releasedText, RELEASED_BUNDLE);
  } catch (error) {
    problems.push((error as Error).message);
    result.summary = "check:breaking: the released bundle cannot be read";
    return result;
  }
  result.releasedVersion = released.version;
  const releasedVersion = parseVersion(released.version);
  if (compareVersions(version, releasedVersion) < 0)
    problems.push(`package.json's version ${pkg.version} is below the released ${released.version}`);

  let changesets: PendingChangeset[] = [];
  try {
    changesets = await pendingChangesets(root, pkg.name);
  } catch (error) {
    problems.push((error as Error).message);
  }
  const changes = compareContracts(released.document as OpenApiDocument, current);
  const required = requiredBump(changes);
  const byVersion = bumpBetween(releasedVersion, version);
  const byChangesets = maxBump(changesets.map((c) => c.bump));
  const granted = maxBump([byVersion, byChangesets]);
  const grantedBy = [
    ...(byVersion !== "none" ? [`version ${pkg.version}`] : []),
    ...changesets.filter((c) => c.bump === byChangesets && byChangesets !== "none").map((c) => c.file),
  ];
  Object.assign(result, { changes, required, granted, grantedBy });

  const kinds = (kind: Change["kind"]) => changes.filter((c) => c.kind === kind);
  const breaking = kinds("breaking");
  const counts = `${breaking.length} breaking, ${kinds("non-breaking").length} non-breaking, ${count(kinds("annotation").length, "annotation")}`;
  result.summary =
    `check:breaking: released ${released.version} → ${pkg.version}: ${counts}; ` +
    `needs ${required === "none" ? "no bump" : `a ${required} bump`}, has ${granted === "none" ? "none" : `${granted} (${grantedBy.join(", ")})`}`;

  if (bumpRank(granted) < bumpRank(required)) {
    const has =
      `neither the version (${pkg.version}, released ${released.version})` +
      ` nor a pending changeset${changesets.length ? ` (${changesets.map((c) => `${c.file}: ${c.bump}`).join(", ")})` : ""} gives one`;
    const record = `npx changeset add --${required} ${pkg.name} -m "<what changed, for consumers>"`;
    if (required === "major")
      problems.push(
        [
          `${count(breaking.length, "breaking change")} since the released ${released.version} need a major version; ${has}:`,
          ...breaking.map((c) => `  ${formatChange(c)}`),
          `Undo the change, or record a major bump: \`${record}\` (RELEASING.md).`,
        ].join("\n"),
      );
    else
      problems.push(
        [
          `${count(changes.length, "change")} since the released ${released.version} need at least a ${required} bump; ${has}:`,
          ...summarizeChanges(changes).map((line) => `  ${line}`),
          `Every change to the contract carries a note and a bump: \`${record}\` (or \`npm run changeset\`; RELEASING.md).`,
        ].join("\n"),
      );
  }
  result.ok = problems.length === 0;
  return result;
}
