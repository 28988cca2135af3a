// `npm run test:quick`: the inner loop for people working on the package. Every test of `npm test` but those that
// drive a browser, download or install anything, copy the repository, build the package, or start TypeScript in a
// child process (each start loads tsx, about a second: the command line's and the README examples' files were half
// of the run), or run verify's flows against sandboxes (seconds a run; those files summed half of the rest); servers
// on 127.0.0.1 stay (they are most of what the package does). `npm test` runs them all.
import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

/** Why a test file is left out of the quick run, as what its source shows (test/scripts/test-quick.test.ts). */
export const QUICK_RUN_LEAVES_OUT = {
  "drives Chromium": /from "playwright-core"|from "\.\.\/support\/browser-page\.js"/,
  "downloads Node and TypeScript, installs the packed package": /from "\.\/toolchain\.js"/,
  "copies the repository to build, lint or release it": /from "\.\.\/support\/fixture-repo\.js"/,
  "builds the package (tsup) to publish it": /"publish", "--dry-run"/,
  "kills and restarts a sandbox process 200 times (the journal's crash test)": /const KILLS = 200;/,
  "starts TypeScript in a child process (the command line, npm start, README examples)":
    /from "\.\/run-cli\.js"|binPath\("tsx"\)|"--import", "tsx"|"tsx", "dist", "loader\.mjs"|npm_execpath/,
  "runs verify's flows against sandboxes over HTTP (half the quick run's test time)":
    /from "\.\/support\/flow-runs\.js"/,
} as const;

const CHILD_TYPESCRIPT = "starts TypeScript in a child process (the command line, npm start, README examples)";
const VERIFY_FLOWS = "runs verify's flows against sandboxes over HTTP (half the quick run's test time)";

/** The files left out, each with its reason (a key of QUICK_RUN_LEAVES_OUT). */
export const LEFT_OUT_OF_QUICK_RUN: Record<string, keyof typeof QUICK_RUN_LEAVES_OUT> = {
  "test/consumer/consumer.test.ts": "downloads Node and TypeScript, installs the packed package",
  "test/docs/docs-page.test.ts": "drives Chromium",
  "test/docs/site-in-chromium.test.ts": "drives Chromium",
  "test/msw/browser.test.ts": "drives Chromium",
  "test/msw/sandbox-browser.test.ts": "drives Chromium",
  "test/sandbox/browser.test.ts": "drives Chromium",
  "test/sandbox/control-origin-browser.test.ts": "drives Chromium",
  "test/sandbox/state-journal-crash.test.ts":
    "kills and restarts a sandbox process 200 times (the journal's crash test)",
  "test/webhooks/browser.test.ts": "drives Chromium",
  "test/scripts/lint.test.ts": "copies the repository to build, lint or release it",
  "test/scripts/generated.test.ts": "copies the repository to build, lint or release it",
  "test/release/done.test.ts": "copies the repository to build, lint or release it",
  "test/release/publish.test.ts": "builds the package (tsup) to publish it",
  "test/cli/ci-recipe.test.ts": CHILD_TYPESCRIPT,
  "test/cli/help-and-version.test.ts": CHILD_TYPESCRIPT,
  "test/cli/sandbox-command.test.ts": CHILD_TYPESCRIPT,
  "test/cli/verify-exit-codes.test.ts": CHILD_TYPESCRIPT,
  "test/cli/verify-flags.test.ts": CHILD_TYPESCRIPT,
  "test/cli/verify-rate-limits.test.ts": CHILD_TYPESCRIPT,
  "test/docs/readme-first-example.test.ts": CHILD_TYPESCRIPT,
  "test/docs/sandbox-guide.test.ts": CHILD_TYPESCRIPT,
  "test/docs/site-code-samples.test.ts": CHILD_TYPESCRIPT,
  "test/docs/site-shell-samples.test.ts": CHILD_TYPESCRIPT,
  "test/docs/webhooks-guide.test.ts": CHILD_TYPESCRIPT,
  "test/mock/lifetime.test.ts": CHILD_TYPESCRIPT,
  "test/mock/npm-start.test.ts": CHILD_TYPESCRIPT,
  "test/scripts/mutation-report.test.ts": CHILD_TYPESCRIPT,
  "test/webhooks/guide-receiver.test.ts": CHILD_TYPESCRIPT,
  "test/verify/deployment-webhooks.test.ts": VERIFY_FLOWS,
  "test/verify/flows-account-rules.test.ts": VERIFY_FLOWS,
  "test/verify/flows-money-rules.test.ts": VERIFY_FLOWS,
  "test/verify/flows-quote-rules.test.ts": VERIFY_FLOWS,
  "test/verify/flows-service-rules.test.ts": VERIFY_FLOWS,
  "test/verify/flows.test.ts": VERIFY_FLOWS,
  "test/verify/sandbox-self-verify.test.ts": VERIFY_FLOWS,
  "test/verify/second-key-isolation.test.ts": VERIFY_FLOWS,
};

// Files share their workers (no fresh module graph per file), which saves reloading modules for each of the files.
// `npm test` keeps isolation, so a test that leans on another file's leftovers still fails there.
const quick = { isolate: false, exclude: ["**/node_modules/**", ...Object.keys(LEFT_OUT_OF_QUICK_RUN)] };

export default mergeConfig(base, defineConfig({ test: quick }));
