// Builds dist/: ESM (.js) and CJS (.cjs) with declarations (.d.ts / .d.cts) for each public entry.
import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    types: "src/types.ts",
    contract: "src/contract/index.ts",
  },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  target: "es2022",
  platform: "neutral",
  splitting: false,
  sourcemap: false,
  treeshake: true,
  // Runtime dependencies stay external: openapi-fetch (client), ajv + ajv-formats (./contract only).
  external: ["openapi-fetch", "ajv", "ajv-formats", /^ajv\//],
  outExtension: ({ format }) => ({ js: format === "cjs" ? ".cjs" : ".js" }),
});
