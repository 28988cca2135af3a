import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Tests that start servers (Prism, Chromium) are heavy on a 2-core machine.
    fileParallelism: true,
    maxWorkers: 2,
    // Type tests (*.test-d.ts) run through tsc and count as tests of their own.
    typecheck: {
      enabled: true,
      include: ["test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
  },
});
