// The TypeScript reference covers the package's public entry points: docs-site.ts lists their sources, and a
// subpath added to package.json "exports" without its source there would be left out of the site unnoticed.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { ENTRY_POINTS } from "../../scripts/docs-site.js";
import { repoRoot } from "../support/spec.js";

const exportsField = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")).exports as object;

it("documents one source per code subpath of package.json's exports, and no other", () => {
  const subpaths = Object.keys(exportsField).filter((subpath) => !subpath.endsWith(".json"));
  const named = ENTRY_POINTS.map((file) => (file === "index.ts" ? "." : `./${file.replace(/(\/index)?\.ts$/, "")}`));
  expect(named.sort()).toEqual(subpaths.sort());
});
