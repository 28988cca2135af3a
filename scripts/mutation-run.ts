// `npm run test:mutation`: runs Stryker once per group of folders (scripts/mutation-groups.json: src/ and the
// release tooling), one after the other, then writes MUTATION.md from the groups' reports (scripts/mutation-report.ts).
// `tsx scripts/mutation-run.ts [group…]` runs only the named groups; the report covers every group that has a
// report, keeps the rows of the others from the previous MUTATION.md, and says so. Exit code: Stryker's first
// non-zero one, else the report's.
import path from "node:path";
import { fileURLToPath } from "node:url";
import MUTATION_GROUPS from "./mutation-groups.json" with { type: "json" };
import { binPath, runCommand } from "./lib/node-cli.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const known = Object.keys(MUTATION_GROUPS);
const asked = process.argv.slice(2);
const unknown = asked.filter((g) => !known.includes(g));
if (unknown.length > 0) {
  console.error(`mutation-run: unknown group ${unknown.join(", ")}; groups: ${known.join(", ")}`);
  process.exit(2);
}

let exitCode = 0;
for (const group of asked.length > 0 ? asked : known) {
  console.log(`mutation-run: group ${group} (${MUTATION_GROUPS[group as keyof typeof MUTATION_GROUPS].join(", ")})`);
  const run = await runCommand(process.execPath, [binPath("@stryker-mutator/core", "stryker"), "run"], {
    cwd: root,
    env: { MUTATION_GROUP: group },
    echo: true,
  });
  if (run.code !== 0 && exitCode === 0) exitCode = run.code;
}
const report = await runCommand(process.execPath, [binPath("tsx"), path.join(root, "scripts", "mutation-report.ts")], {
  cwd: root,
  echo: true,
});
process.exit(exitCode || report.code);
