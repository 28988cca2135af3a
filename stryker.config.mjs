// Stryker (mutation testing) over src/ and the release tooling (scripts/release, scripts/build/provenance.ts):
// `npm run test:mutation` (scripts/mutation-run.ts) runs it once per group
// of folders (scripts/mutation-groups.json, chosen by MUTATION_GROUP), then scripts/mutation-report.ts writes
// MUTATION.md from the groups' JSON reports. Not part of `npm test` (about two hours on 2 cores); the groups make
// a run resumable: each keeps its own report and incremental file, so a run stopped half-way keeps the groups it
// finished and a rerun reuses their results.
import { readFileSync } from "node:fs";

/** Group name → its folders and files (a folder stands for every .ts file below it). */
const MUTATION_GROUPS = JSON.parse(readFileSync(new URL("./scripts/mutation-groups.json", import.meta.url), "utf8"));
// An entry with "!" leaves a folder or file out of the group (another group holds it).
const glob = (p) => (p.endsWith(".ts") ? p : `${p}/**/*.ts`);
const globs = (paths) => paths.map((p) => (p.startsWith("!") ? `!${glob(p.slice(1))}` : glob(p)));
// Without MUTATION_GROUP (`npx stryker run`, or a tool that reads this file): every group at once, into
// reports/mutation/all.json (`tsx scripts/mutation-report.ts all` reports it).
const group = process.env.MUTATION_GROUP || "all";
if (group !== "all" && !(group in MUTATION_GROUPS)) {
  throw new Error(`MUTATION_GROUP=${group}: not one of ${Object.keys(MUTATION_GROUPS).join(", ")}`);
}

export default {
  mutate: [
    ...(group === "all"
      ? globs(
          Object.values(MUTATION_GROUPS)
            .flat()
            .filter((p) => !p.startsWith("!")),
        )
      : globs(MUTATION_GROUPS[group])),
    // Only types: no run-time code, so no mutant could be caught by a test (type tests are *.test-d.ts).
    "!src/types.ts", // `export type *` of generated/schema.ts
    "!src/client/types.ts", // client options, hooks and method signatures
    "!src/contract/types.ts", // validator inputs and results
    // Re-exports only (`export … from`): Stryker finds nothing to mutate in them.
    "!src/openapi/index.ts",
    "!src/contract/index.ts",
    "!src/verify/index.ts",
    // The `api-contract` command runs its argv at import and ends with process.exit: tests can only run it as
    // a child process (test/cli, the consumer test), where Stryker neither sees coverage
    // nor switches mutants on, so all its mutants would be "no coverage" whatever the tests check.
    "!src/cli.ts",
    // When the mock's commands stop (signals, npm or its shell exiting): behaviour of a process tree, tried only
    // from outside with real processes (test/mock/lifetime.test.ts), so "no coverage" here as well.
    "!src/mock/lifetime.ts",
    // The register's prose (each choice's topic, text and why): a mutant empties or edits a sentence, which only a
    // test restating the sentence could notice. What the code reads of the register (its forms, statuses and
    // numbers) lives in src/sandbox/rules.ts, which is mutated.
    "!src/sandbox/choices.ts",
  ],
  testRunner: "vitest",
  // Only the test files that exercise the group's code in-process (it reads MUTATION_GROUP too); the reasons per
  // left-out file are in that config.
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
  // reported as a timeout (counted as detected) after timeoutFactor × its dry-run time + timeoutMS. Generous: on a
  // busy machine (a shared CI host, helpers at work) 1.5 × + 5 s took 14 surviving mutants for timeouts.
  timeoutFactor: 3,
  timeoutMS: 20000,
  // The first run of every test (coverage per test) took over Stryker's 5 minutes on a busy machine.
  dryRunTimeoutMinutes: 30,
  // Keeps reports/mutation/incremental-<group>.json: a later run tests again only the mutants whose code or covering
  // tests changed (new test files included). `npx stryker run --force` tests every mutant.
  incremental: true,
  incrementalFile: `reports/mutation/incremental-${group}.json`,
  reporters: ["json", "clear-text", "progress"],
  jsonReporter: { fileName: `reports/mutation/${group}.json` },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: true, reportScoreTable: true },
  // reports/ is git-ignored; the sandbox does not need the build output or old test output.
  ignorePatterns: ["/dist", "/test-output", "/MUTATION.md", "/BENCHMARKS.md"],
  // The sandboxes go under the git-ignored reports/ too (Biome and knip skip it; a crashed run leaves nothing to
  // commit).
  tempDirName: "reports/mutation/.stryker-tmp",
  thresholds: { high: 90, low: 85, break: null },
};
