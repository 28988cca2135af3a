// `npm run test:contract` is "the contract suite alone" (the README's Scripts; guide "Contract tests and verify"):
// the file filters it gives vitest must select test/contract/contract.test.ts and no other test file, whatever is
// added to or moved into test/ later.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "../support/spec.js";

const CONTRACT_SUITE = "test/contract/contract.test.ts";

const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
};
const testFiles = readdirSync(path.join(repoRoot, "test"), { recursive: true, encoding: "utf8" })
  .filter((file) => /\.test(-d)?\.ts$/.test(file))
  .map((file) => path.posix.join("test", file.split(path.sep).join("/")));

/** The file filters of a `vitest run` command: its arguments that are not options (vitest matches substrings). */
function fileFilters(script: string): string[] {
  const [runner, command, ...args] = script.split(/\s+/);
  expect(`${runner} ${command}`).toBe("vitest run");
  expect(
    args.filter((arg) => arg.startsWith("-")),
    "no option that takes a value",
  ).toEqual([]);
  return args;
}

it("runs the contract suite and no other test file", () => {
  const filters = fileFilters(pkg.scripts["test:contract"] ?? "");
  expect(filters.length).toBeGreaterThan(0);
  expect(testFiles).toContain(CONTRACT_SUITE);
  expect(testFiles.filter((file) => filters.some((filter) => file.includes(filter)))).toEqual([CONTRACT_SUITE]);
});
