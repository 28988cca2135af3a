// `npm run check:breaking`: the breaking-change gate (scripts/release/gate.ts). Compares generated/openapi.json
// with the bundle of the last release (generated/released/openapi.json) and fails, naming each change, when
// the changes need a bigger bump than the package version and the pending changesets give (RELEASING.md).
//   --list        also print the classified changes, grouped (what the changelog gets)
//   --all         also print every change, one line each
//   --json        print the result as JSON (exit code as usual)
//   --root <dir>  check another checkout (default: this repository)
import path from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "./lib/paths.js";
import { formatChange, summarizeChanges } from "./release/compare.js";
import { runGate } from "./release/gate.js";

const { values } = parseArgs({
  options: { root: { type: "string" }, list: { type: "boolean" }, all: { type: "boolean" }, json: { type: "boolean" } },
});

try {
  const result = await runGate(path.resolve(values.root ?? ROOT));
  if (values.json) console.log(JSON.stringify(result, null, 2));
  else {
    const out = result.ok ? console.log : console.error;
    for (const problem of result.problems) out(`check:breaking: ${problem}`);
    if (result.ok) {
      const breaking = result.changes.filter((c) => c.kind === "breaking");
      if (breaking.length && !values.all) for (const change of breaking) console.log(`  ${formatChange(change)}`);
      if (values.list) for (const line of summarizeChanges(result.changes)) console.log(`  ${line}`);
      if (values.all) for (const change of result.changes) console.log(`  ${formatChange(change)}`);
    }
    out(result.summary);
  }
  process.exit(result.ok ? 0 : 1);
} catch (error) {
  console.error(`check:breaking: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
