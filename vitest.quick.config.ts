// `npm run test:quick`: the inner loop for people working on the package. Every test of `npm test` but those that
// drive a browser, download or install anything, copy the repository, or build the package; servers on 127.0.0.1
// stay (they are most of what the package does). `npm test`, which CI runs, runs them all.
import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

/** Why a test file is left out of the quick run, as what its source shows (test/scripts/test-quick.test.ts). */
export const QUICK_RUN_LEAVES_OUT = {
  "drives Chromium": /from "playwright-core"|from "\.\.\/support\/browser-page\.js"/,
  "downloads Node and TypeScript, installs the packed package": /from "\.\/toolchain\.js"/,
  "copies the repository to build, lint or release it": /from "\.\.\/support\/fixture-repo\.js"/,
  "builds the package (tsup) to publish it": /"publish", "--dry-run"/,
} as const;

/** The files left out, each with its reason (a key of QUICK_RUN_LEAVES_OUT). */
export const LEFT_OUT_OF_QUICK_RUN: Record<string, keyof typeof QUICK_RUN_LEAVES_OUT> = {
  "test/consumer/consumer.test.ts": "downloads Node and TypeScript, installs the packed package",
  "test/docs/docs-page.test.ts": "drives Chromium",
  "test/msw/browser.test.ts": "drives Chromium",
  "test/msw/sandbox-browser.test.ts": "drives Chromium",
  "test/sandbox/browser.test.ts": "drives Chromium",
  "test/webhooks/browser.test.ts": "drives Chromium",
  "test/scripts/lint.test.ts": "copies the repository to build, lint or release it",
  "test/scripts/generated.test.ts": "copies the repository to build, lint or release it",
  "test/release/done.test.ts": "copies the repository to build, lint or release it",
  "test/release/publish.test.ts": "builds the package (tsup) to publish it",
};

// Files share their workers (no fresh module graph per file): 30 s instead of 58 s here. `npm test` keeps
// isolation, so a test that leans on another file's leftovers still fails there.
const quick = { isolate: false, exclude: ["**/node_modules/**", ...Object.keys(LEFT_OUT_OF_QUICK_RUN)] };

export default mergeConfig(base, defineConfig({ test: quick }));
