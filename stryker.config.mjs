// Stryker (mutation testing) over src/: `npm run test:mutation` runs it, then scripts/mutation-report.ts
// writes MUTATION.md from reports/mutation/mutation.json. Not part of `npm test` (about half an hour on 2 cores).
export default {
  mutate: [
    "src/**/*.ts",
    // Only types: no run-time code, so no mutant could be caught by a test (type tests are *.test-d.ts).
    "!src/types.ts", // `export type *` of generated/schema.ts
    "!src/client/types.ts", // client options, hooks and method signatures
    "!src/contract/types.ts", // validator inputs and results
    // Re-exports only (`export … from`): Stryker finds nothing to mutate in them.
    "!src/openapi/index.ts",
    "!src/contract/index.ts",
    "!src/verify/index.ts",
    // The `api-contract` command runs its argv at import and ends with process.exit: tests can only run it as
    // a child process (test/contract/verify.test.ts, the consumer test), where Stryker neither sees coverage
    // nor switches mutants on, so all its mutants would be "no coverage" whatever the tests check.
    "!src/cli.ts",
  ],
  testRunner: "vitest",
  // Only the test files that exercise src/ in-process; the reasons per left-out file are in that config.
  // `related: false`: Stryker already picks the test files that cover a mutant; vitest's related-files search on
  // top of that only costs time on every run.
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  coverageAnalysis: "perTest",
  // Static mutants (code run only while a test file loads or in its beforeAll: module constants, startMock,
  // compiling the validator) can only be tested by reloading and running every test: 1059 of 4017 mutants
  // that took 75% of a 2 h+ run. Ignored instead; MUTATION.md counts them per file ("ignored (static)").
  // Mutants that are static and also covered by tests ("hybrid") still run, with the tests that cover them.
  ignoreStatic: true,
  // 2 cores: one vitest per core (each runs its files one at a time, servers on 127.0.0.1 included).
  concurrency: 2,
  // Tests that start Prism or servers vary in time on a loaded machine; a mutant that makes a test hang is
  // reported as a timeout (counted as detected) after timeoutFactor × its dry-run time + timeoutMS.
  timeoutMS: 5000,
  // Keeps reports/stryker-incremental.json: a later run tests again only the mutants whose code or covering
  // tests changed (new test files included). `npx stryker run --force` tests every mutant.
  incremental: true,
  reporters: ["json", "clear-text", "progress"],
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: true, reportScoreTable: true },
  // reports/ is git-ignored; the sandbox does not need the build output or old test output.
  ignorePatterns: ["/dist", "/test-output", "/MUTATION.md", "/BENCHMARKS.md"],
  // The sandboxes go under the git-ignored reports/ too (Biome and knip skip it; a crashed run leaves nothing to commit).
  tempDirName: "reports/mutation/.stryker-tmp",
  thresholds: { high: 90, low: 85, break: null },
};
