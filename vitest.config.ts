import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Tests that start servers (Prism, Chromium) are heavy on a 2-core machine.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
