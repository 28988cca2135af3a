// Vitest config of the mutation run (`npm run test:mutation`, stryker.config.mjs): only the tests that exercise
// the mutated code in this process, quickly. Stryker reruns the tests covering a mutant once per mutant, so what
// it gets from each left-out file below is nothing (no in-process coverage) or not worth its time.
// The groups of src/ (client, contract, mock, verify) run the tests of src/ (the sandbox's groups and the
// pipeline's, fewer: see TESTS_OF_GROUP); left out:
//   test/consumer, test/scripts, test/cli       pack the package, build generated/, run scripts or the
//                                                `api-contract` command as child processes: src/ runs there only
//                                                in child processes or from dist/
//   test/release                                 the release tooling (the release group's tests, below)
//   test/docs                                    the docs build, tsc over the code samples and Chromium; src/openapi
//                                                is covered by test/openapi
//   test/spec/conformance, schema-names          the spec itself; no src/ import
//   test/mock/requests-fuzz.test.ts              1000 requests against the mock per mutant that its code
//                                                covers: too slow to run per mutant
//   test/msw/handlers-match-mock.test.ts         generated requests to the mock and the handlers (seconds per run)
//                                                for every pipeline mutant; the pipeline's own tests run instead
//   test/verify/package-contract, deployment-safety
//                                                start the whole mock and run all of verify against it (seconds
//                                                each) for every mock mutant; src/verify's rules are checked by the
//                                                other test/verify files, the mock against the contract by
//                                                test/contract
//   test/msw/browser.test.ts                     src/msw runs bundled in Chromium there, not in this process
//   test/sandbox/state-journal-crash.test.ts     the sandbox runs bundled in child processes, killed 200 times
//   test/sandbox/control-origin-browser.test.ts  Chromium's requests for each mutant of the server it covers;
//                                                control-origin.test.ts sends the same requests in-process
//   test/webhooks/browser, readme-receiver       src/webhooks.ts runs in Chromium or in a child process there
//   test/msw/entry-errors.test.ts                builds the package with tsup and runs it in child processes
//   test/mock/lifetime.test.ts, npm-start.test.ts  src/mock/lifetime.ts (not mutated) and `npm start` run in
//                                                child processes there
//   *.test-d.ts                                  compile-time type tests: no run-time code to kill a mutant
// The release group (scripts/release, scripts/build/provenance.ts) runs the only tests that import them
// in-process: test/release (but the two below) and test/spec/provenance.test.ts. Left out:
//   test/release/done.test.ts                    builds a copy of the repository and runs the release steps
//                                                with npm: child processes only, minutes per run
//   test/release/publish.test.ts                 `npm publish --dry-run` of a copy: child processes only
//   test/docs/docs-page.test.ts                  imports provenance.ts for its headings only; the docs build
//                                                and Chromium
// (gate.test.ts's two command-line tests spawn check-breaking.ts: they run in the dry run only, since they
// cover nothing in this process.)
// The property-based tests that stay (test/mock/robustness, test/validator/date-time-fast-path,
// test/webhooks/round-trip) get fixed seeds
// below, so that the same inputs are tried for every mutant and a kill can be reproduced.
import { defineConfig } from "vitest/config";

const SRC_TESTS = [
  "test/client/**/*.test.ts",
  "test/contract/**/*.test.ts",
  "test/mock/**/*.test.ts",
  "test/msw/**/*.test.ts",
  "test/openapi/**/*.test.ts",
  "test/sandbox/**/*.test.ts",
  "test/spec/examples.test.ts",
  "test/spec/provenance.test.ts",
  "test/validator/**/*.test.ts",
  "test/verify/**/*.test.ts",
  "test/webhooks/**/*.test.ts",
];
const RELEASE_TESTS = ["test/release/**/*.test.ts", "test/spec/provenance.test.ts"];
// The sandbox's groups run the sandbox's tests, the pipeline's those of the three fronts that share it (mock, ./msw,
// sandbox). The rest of test/ reaches this code only on its way to what it tests (a client against the mock, verify
// against a sandbox): each surviving mutant of the pipeline ran all of it, which made the group an 8-hour run.
const SANDBOX_TESTS = ["test/sandbox/**/*.test.ts"];
const PIPELINE_TESTS = ["test/mock/**/*.test.ts", "test/msw/**/*.test.ts", ...SANDBOX_TESTS];
const TESTS_OF_GROUP: Record<string, string[]> = {
  release: RELEASE_TESTS,
  sandbox: SANDBOX_TESTS,
  "sandbox-state": SANDBOX_TESTS,
  "sandbox-server": SANDBOX_TESTS,
  "sandbox-journal": SANDBOX_TESTS,
  "sandbox-operations": SANDBOX_TESTS,
  pipeline: PIPELINE_TESTS,
  all: [...SRC_TESTS, ...RELEASE_TESTS],
};
/** The group Stryker runs (stryker.config.mjs); without one, every group's tests. */
const group = process.env.MUTATION_GROUP || "all";

export default defineConfig({
  test: {
    include: TESTS_OF_GROUP[group] ?? SRC_TESTS,
    exclude: [
      "test/mock/requests-fuzz.test.ts",
      "test/msw/handlers-match-mock.test.ts",
      "test/verify/package-contract.test.ts",
      "test/verify/deployment-safety.test.ts",
      "test/msw/browser.test.ts",
      "test/msw/sandbox-browser.test.ts",
      "test/sandbox/browser.test.ts",
      "test/sandbox/state-journal-crash.test.ts",
      "test/sandbox/control-origin-browser.test.ts",
      "test/webhooks/browser.test.ts",
      "test/webhooks/readme-receiver.test.ts",
      "test/msw/entry-errors.test.ts",
      "test/mock/lifetime.test.ts",
      "test/mock/npm-start.test.ts",
      "test/release/done.test.ts",
      "test/release/publish.test.ts",
      "**/node_modules/**",
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    typecheck: { enabled: false },
    env: { MOCK_FUZZ_SEED: "20261123", FUZZ_SEED: "20261123" },
    // The sandbox's properties (and any other without a seed of its own) on one seed for every mutant.
    setupFiles: ["test/support/fixed-fast-check-seed.ts"],
  },
});
