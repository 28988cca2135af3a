// What `npm run test:mutation` mutates, as the README says it: every part of src/ is in a group of
// scripts/mutation-groups.json or left out by name in stryker.config.mjs (with its reason there), the sandbox and
// the request pipeline in the group "sandbox", whose tests run in the mutation run.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import groups from "../../scripts/mutation-groups.json" with { type: "json" };

const root = path.resolve(import.meta.dirname, "../..");
/** Stryker's config (an untyped .mjs, imported by a path TypeScript does not resolve). */
const configPath = path.join(root, "stryker.config.mjs");
const stryker = ((await import(configPath)) as { default: { mutate: string[] } }).default;

/** src/'s folders and top-level files, as `src/<name>`. */
const srcEntries = readdirSync(path.join(root, "src")).map((name) => `src/${name}`);

describe("the mutation run's scope", () => {
  it("covers every part of src/, the sandbox and the pipeline in the sandbox group, as the README says", () => {
    const grouped = new Set(Object.values(groups).flat());
    const leftOut = new Set(stryker.mutate.filter((glob) => glob.startsWith("!src/")).map((glob) => glob.slice(1)));
    // A folder counts when its group names it; a file when its group names it or the config leaves it out.
    const unmutated = srcEntries.filter((entry) => !grouped.has(entry) && !leftOut.has(entry));
    expect(unmutated).toEqual([]);
    expect((groups as Record<string, string[]>).sandbox).toEqual(["src/sandbox", "src/pipeline"]);
    const mutationConfig = readFileSync(path.join(root, "vitest.mutation.config.ts"), "utf8");
    expect(mutationConfig).toContain('"test/sandbox/**/*.test.ts"');
    const readme = readFileSync(path.join(root, "README.md"), "utf8").replace(/\s+/g, " ");
    const scope = "runs Stryker over `src/` (all of it, the sandbox and the request pipeline in the `sandbox` group";
    expect(readme).toContain(scope);
  });
});
