// The toolchain promise (guide "Working on the package", Toolchain notes; "Versions, releases and the
// breaking-change gate", Supported versions): the tests run on the Node of the devDependency `node`, which .nvmrc
// names too.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "../support/spec.js";

const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  devDependencies: Record<string, string>;
};

it("runs on the Node of the devDependency `node`, the version .nvmrc names", () => {
  const pinned = pkg.devDependencies.node;
  expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
  expect(readFileSync(path.join(repoRoot, ".nvmrc"), "utf8").trim()).toBe(pinned);
  expect(process.version).toBe(`v${pinned}`);
});
