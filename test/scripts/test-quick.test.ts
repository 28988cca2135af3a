// `npm run test:quick` keeps the README's promise: no browser, no download or install, no copy of the repository,
// no package build, no TypeScript in a child process, no run of verify's flows; it leaves out only files that do one
// of those, each for a reason its source shows.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import quickConfig, { LEFT_OUT_OF_QUICK_RUN, QUICK_RUN_LEAVES_OUT } from "../../vitest.quick.config.js";
import { repoRoot } from "../support/spec.js";

const source = (file: string) => readFileSync(path.join(repoRoot, file), "utf8");
const testFiles = readdirSync(path.join(repoRoot, "test"), { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".test.ts"))
  .map((file) => path.posix.join("test", file.split(path.sep).join("/")));

it("leaves out every test file that drives a browser, downloads, copies the repository or builds the package", () => {
  const needingTheSlowPath = testFiles.filter((file) =>
    Object.values(QUICK_RUN_LEAVES_OUT).some((reason) => reason.test(source(file))),
  );
  expect(needingTheSlowPath.length).toBeGreaterThan(0);
  expect(needingTheSlowPath.sort()).toEqual(Object.keys(LEFT_OUT_OF_QUICK_RUN).sort());
});

// Nothing else is left out: each file on the list is a test file whose source shows its reason.
it.each(Object.entries(LEFT_OUT_OF_QUICK_RUN))("leaves out %s, which %s", (file, reason) => {
  expect(testFiles, file).toContain(file);
  expect(source(file), `${file}: ${reason}`).toMatch(QUICK_RUN_LEAVES_OUT[reason]);
});

it("is what npm run test:quick runs: the full config less those files", () => {
  const pkg = JSON.parse(source("package.json")) as { scripts: Record<string, string> };
  expect(pkg.scripts["test:quick"]).toBe("vitest run --config vitest.quick.config.ts");
  expect(quickConfig.test?.exclude).toEqual(expect.arrayContaining(Object.keys(LEFT_OUT_OF_QUICK_RUN)));
  expect(quickConfig.test?.include).toEqual(["test/**/*.test.ts"]);
});
