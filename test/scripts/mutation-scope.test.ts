// What `npm run test:mutation` mutates, as the docs say it (guide "Working on the package"): every part of src/
// is in a group of scripts/mutation-groups.json or left out by name in stryker.config.mjs (with its reason there);
// the sandbox and the request pipeline in six groups ("sandbox", "sandbox-state", "sandbox-server",
// "sandbox-journal", "sandbox-operations", "pipeline"), each folder or file of them in one group only, their tests in
// the mutation run.
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
  it("covers every part of src/, the sandbox and the pipeline in their six groups, as the docs say", () => {
    const grouped = new Set(Object.values(groups).flat());
    const leftOut = new Set(stryker.mutate.filter((glob) => glob.startsWith("!src/")).map((glob) => glob.slice(1)));
    // A folder counts when its group names it; a file when its group names it or the config leaves it out.
    const unmutated = srcEntries.filter((entry) => !grouped.has(entry) && !leftOut.has(entry));
    expect(unmutated).toEqual([]);
    const named = groups as Record<string, string[]>;
    expect(named.pipeline).toEqual(["src/pipeline"]);
    const operations = ["src/sandbox/operations", "src/sandbox/money", "src/sandbox/webhooks"];
    expect(named["sandbox-operations"]).toEqual(operations);
    // Restoring and controlling state, and the HTTP side: groups of files of their own, each an hour or so.
    const state = ["state", "state-check", "state-schema", "control", "control-client", "control-origin"];
    state.push("clock", "ids");
    expect(named["sandbox-state"]).toEqual(state.map((name) => `src/sandbox/${name}.ts`));
    const server = ["server", "index", "engine", "admission", "conformance", "direct", "auth"];
    expect(named["sandbox-server"]).toEqual(server.map((name) => `src/sandbox/${name}.ts`));
    // --state's journal and the state's export and import: their tests write files and large states (the slowest).
    const journal = ["journal", "state-export", "state-import", "turns"];
    expect(named["sandbox-journal"]).toEqual(journal.map((name) => `src/sandbox/${name}.ts`));
    // The sandbox group: the rest of src/sandbox, what the other four groups hold left to them.
    const others = [operations, ...["state", "server", "journal"].map((group) => named[`sandbox-${group}`]!)].flat();
    expect(named.sandbox).toEqual(["src/sandbox", ...others.map((entry) => `!${entry}`)]);
    expect(leftOut.has("src/sandbox/choices.ts")).toBe(true);
    const mutationConfig = readFileSync(path.join(root, "vitest.mutation.config.ts"), "utf8");
    expect(mutationConfig).toContain('const SANDBOX_TESTS = ["test/sandbox/**/*.test.ts"];');
    const guide = readFileSync(path.join(root, "docs", "guide", "contributing.md"), "utf8").replace(/\s+/g, " ");
    const scope =
      "runs Stryker over `src/` (all of it, the sandbox and the request pipeline in the `sandbox`, `sandbox-state`, " +
      "`sandbox-server`, `sandbox-journal`, `sandbox-operations` and `pipeline` groups";
    expect(guide).toContain(scope);
  });
});
