// The docs' "Supported versions" (guide "Versions, releases and the breaking-change gate") says what package.json's
// engines, the consumer test's matrix and .nvmrc hold, and that Node 20, past its end of life, stays until a major
// release: a version added to or dropped from one of them without the page fails here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { NODE_VERSIONS, TYPESCRIPT_VERSIONS } from "../consumer/matrix.js";
import { repoRoot } from "../support/spec.js";

const read = (...parts: string[]) => readFileSync(path.join(repoRoot, ...parts), "utf8");
const pkg = JSON.parse(read("package.json")) as { engines: { node: string } };
/** The page, its lines joined: a statement may wrap. */
const page = read("docs", "guide", "releases.md").replace(/\s+/g, " ");

it("names the Node versions of engines, of the consumer matrix and of the tooling, and the TypeScript ones", () => {
  expect(pkg.engines.node).toBe(">=20");
  expect(page).toContain("| Node, for consumers of the package | 20, 22, 24, 26 (`engines.node: >=20`) |");
  expect(NODE_VERSIONS).toEqual(["20.20.2", "22.23.3", "24.21.0", "26.12.1"]);
  expect(page).toContain("as ESM and CJS on Node 20.20.2, 22.23.3, 24.21.0 and 26.12.1:");
  expect(TYPESCRIPT_VERSIONS).toEqual(["5.9.3", "7.0.2"]);
  expect(page).toContain("type-checks a consumer with 5.9.3 and 7.0.2");
  expect(read(".nvmrc").trim()).toBe("24.21.0");
  expect(page).toContain("| Node, for this repository's tooling | 24.21.0 (`.nvmrc`) |");
});

it("keeps Node 20 after its end of life, in engines and the matrix, until a major release says otherwise", () => {
  expect(page).toContain("Node 20 reached its end of life in April 2026. The package still supports it:");
  expect(page).toContain("`engines.node` stays `>=20` and the consumer test's matrix keeps Node 20");
  expect(page).toContain("only in a major release, announced in `CHANGELOG.md`");
});
