// `npm run build [step…]`: regenerates generated/ (all steps, or those whose file name contains a
// given word: `npm run build -- docs`), then, on a full build, the guides' generated tables (the register of
// choices, the control API's routes: scripts/build/guide-tables.ts). Atomic: a failed build leaves generated/ as
// it was.
import { buildGenerated } from "./build/index.js";
import { writeGuideTables } from "./build/guide-tables.js";
import { GENERATED_DIR, ROOT } from "./lib/paths.js";
import { withSourceLocations } from "./lib/source-map.js";

const only = process.argv.slice(2);
try {
  await buildGenerated({ only });
  if (!only.length) await writeGuideTables(ROOT, GENERATED_DIR);
} catch (error) {
  // Tools report places in the bundle (#/components/examples/Quote/value/data): name the source file too.
  console.error(withSourceLocations(error instanceof Error ? (error.stack ?? error.message) : String(error)));
  console.error("build: failed; generated/ is unchanged.");
  process.exit(1);
}
