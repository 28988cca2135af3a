// What `npm run test:mutation` mutates, as the README says it: every part of src/ is in a group of
// scripts/mutation-groups.json or left out by name in stryker.config.mjs (with its reason there), except
// src/sandbox/, which the README names as in no group yet.
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
  it("covers every part of src/ but src/sandbox/, which the README says is in no group", () => {
    const grouped = new Set(Object.values(groups).flat());
    const leftOut = new Set(stryker.mutate.filter((glob) => glob.startsWith("!src/")).map((glob) => glob.slice(1)));
    // A folder counts when its group names it; a file when its group names it or the config leaves it out.
    const unmutated = srcEntries.filter((entry) => !grouped.has(entry) && !leftOut.has(entry));
    expect(unmutated).toEqual(["src/sandbox"]);
    const readme = readFileSync(path.join(root, "README.md"), "utf8").replace(/\s+/g, " ");
    expect(readme).toContain("runs Stryker over `src/` (all of it but `src/sandbox/`, which is in no group yet");
  });
});
