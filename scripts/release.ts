// The release steps (RELEASING.md):
//   npm run release:version   the pending changesets become the next version: `changeset version` (package.json
//                             version, CHANGELOG.md entry from their notes, changesets consumed), then info.version
//                             of openapi/openapi.yaml and package-lock.json's version set to it, generated/ rebuilt,
//                             and the gate's classified list of contract changes since the last release added to
//                             the CHANGELOG entry.
//   npm run release:publish   checks (gate, generated/ fresh, not released yet, no changeset left), `npm publish`
//                             (extra arguments passed on, e.g. `-- --otp 123456`; `-- --dry-run` publishes nothing
//                             and records nothing), then records the published bundle as the released one
//                             (generated/released/openapi.json), which the gate compares with from then on.
//                             `-- --no-npm` records without publishing (when CI publishes the same commit).
import { spawnSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { buildGenerated } from "./build/index.js";
import { RELEASED_FILE, releasedText } from "./build/steps/60-released.js";
import { binPath, runNode } from "./lib/node-cli.js";
import { GENERATED_DIR, ROOT } from "./lib/paths.js";
import { addToEntry, contractChangesSection } from "./release/changelog.js";
import { pendingChangesets } from "./release/changesets.js";
import { CURRENT_BUNDLE, type GateResult, runGate } from "./release/gate.js";
import { setLockVersion, setSpecVersion } from "./release/sync-version.js";

const readVersion = async () =>
  (JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;

function fail(message: string, gate?: GateResult): never {
  if (gate) for (const problem of gate.problems) console.error(`check:breaking: ${problem}`);
  console.error(`release: ${message}`);
  process.exit(1);
}

async function version(): Promise<void> {
  const before = await runGate(ROOT);
  if (!before.ok) fail("the breaking-change gate fails; the pending changesets must cover the changes first", before);
  const changesets = await pendingChangesets(ROOT, before.packageName);
  if (!changesets.length) fail(`no pending changeset for ${before.packageName} (.changeset/*.md): nothing to release`);
  await runNode(binPath("@changesets/cli", "changeset"), ["version"], { cwd: ROOT });
  const next = await readVersion();
  if (next === before.version) fail(`\`changeset version\` left the version at ${next}`);
  await setSpecVersion(ROOT, next);
  await setLockVersion(ROOT, next);
  await buildGenerated({ quiet: true });
  const after = await runGate(ROOT);
  if (!after.ok) fail(`after versioning ${before.version} → ${next} the gate still fails`, after);
  const changelogFile = path.join(ROOT, "CHANGELOG.md");
  const section = contractChangesSection(after.changes, after.releasedVersion ?? before.version);
  await writeFile(changelogFile, addToEntry(await readFile(changelogFile, "utf8"), next, section));
  console.log(
    `release:version: ${before.version} → ${next}: package.json, package-lock.json, ` +
      "openapi/openapi.yaml info.version, generated/, CHANGELOG.md " +
      `(${after.changes.length} contract change(s) classified), ${changesets.length} changeset(s) consumed.\n` +
      `Review CHANGELOG.md, commit ("Release ${next}"), then \`npm run release:publish\`.`,
  );
}

async function publish(args: string[]): Promise<void> {
  const dryRun = args.includes("--dry-run");
  const skipNpm = args.includes("--no-npm");
  const gate = await runGate(ROOT);
  if (!gate.ok) fail("the breaking-change gate fails", gate);
  if (gate.releasedVersion === gate.version)
    fail(
      `${gate.version} is released already (generated/${RELEASED_FILE}); ` +
        "`npm run release:version` makes the next version",
    );
  const left = await pendingChangesets(ROOT, gate.packageName);
  if (left.length)
    fail(
      `pending changesets not in a version yet (${left.map((c) => c.file).join(", ")}): ` +
        "run `npm run release:version` first",
    );
  const check = spawnSync("npm", ["run", "--silent", "check:generated"], { cwd: ROOT, stdio: "inherit" });
  if (check.status !== 0) fail("generated/ is not fresh: `npm run build` and commit");
  if (!skipNpm) {
    const npmArgs = ["publish", ...args.filter((a) => a !== "--no-npm")];
    console.log(`release:publish: npm ${npmArgs.join(" ")}`);
    const run = spawnSync("npm", npmArgs, { cwd: ROOT, stdio: "inherit" });
    if (run.status !== 0) fail(`npm publish failed (exit ${run.status}); nothing recorded`);
  }
  if (dryRun) {
    console.log(
      `release:publish: dry run: ${gate.version} would be recorded as released in generated/${RELEASED_FILE}`,
    );
    return;
  }
  const bundle = JSON.parse(await readFile(path.join(ROOT, CURRENT_BUNDLE), "utf8")) as Record<string, unknown>;
  await mkdir(path.dirname(path.join(GENERATED_DIR, RELEASED_FILE)), { recursive: true });
  await writeFile(path.join(GENERATED_DIR, RELEASED_FILE), releasedText(bundle, gate.version));
  console.log(
    `release:publish: ${gate.version} recorded as released in generated/${RELEASED_FILE}.\n` +
      `Commit it ("Release ${gate.version}: released bundle") and tag the release: git tag v${gate.version}`,
  );
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === "version") await version();
  else if (command === "publish") await publish(rest);
  else fail(`usage: tsx scripts/release.ts version | publish [--dry-run] [--no-npm] [npm publish options]`);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
