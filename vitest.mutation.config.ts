// Vitest config of the mutation run (`npm run test:mutation`, stryker.config.mjs): only the tests that exercise
// src/ in this process, quickly. Stryker reruns the tests covering a mutant once per mutant, so what it
// gets from each left-out file below is nothing (no in-process coverage of src/) or not worth its time:
//   test/consumer, test/release, test/scripts   pack the package, build generated/, run the release steps:
//                                                src/ runs there only in child processes or from dist/
//   test/docs (but code-samples)                 the docs build and Chromium; no src/ import
//   test/docs/code-samples.test.ts               scripts/build's samples compiled with tsc (5 s); src/openapi
//                                                is covered by test/spec and test/contract too
//   test/spec/conformance, schema-names          the spec itself; no src/ import
//   test/contract/fuzz.test.ts                   1000 requests against the mock per mutant that its code
//                                                covers: too slow to run per mutant
//   test/contract/verify.test.ts                 its command tests spawn `api-contract verify` (tsx, 1-2 s each)
//                                                against the in-process mock, so every mock mutant would pay for
//                                                them; src/verify's rules are checked in-process by verify-edges
//                                                and verify-run-edges, the mock against the contract by contract.test
//   test/msw/msw-browser.test.ts                 src/msw runs bundled in Chromium there, not in this process
//   test/contract/mock-lifetime.test.ts          src/mock/lifetime.ts (not mutated) runs in child processes there
//   *.test-d.ts                                  compile-time type tests: no run-time code to kill a mutant
// The property-based tests that stay (mock-robustness, date-time) get fixed seeds below, so that the same
// inputs are tried for every mutant and a kill can be reproduced.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "test/client/**/*.test.ts",
      "test/contract/**/*.test.ts",
      "test/msw/**/*.test.ts",
      "test/spec/examples.test.ts",
      "test/spec/provenance.test.ts",
      // The edge tests written against the mutation report (in test/spec, test/contract, test/client…).
      "test/**/*-edges.test.ts",
    ],
    exclude: [
      "test/contract/fuzz.test.ts",
      "test/contract/verify.test.ts",
      "test/contract/mock-lifetime.test.ts",
      "test/msw/msw-browser.test.ts",
      "**/node_modules/**",
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    typecheck: { enabled: false },
    env: { MOCK_FUZZ_SEED: "20261123", FUZZ_SEED: "20261123" },
  },
});
