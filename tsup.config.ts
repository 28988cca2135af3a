// Builds dist/: ESM (.js) and CJS (.cjs) with declarations (.d.ts / .d.cts) for each public entry (., ./types,
// ./contract, ./mock, ./sandbox) but ./msw (ESM only: its `require` condition loads msw.require.cjs, which says
// so), and the `api-contract` command.
import { defineConfig } from "tsup";

// Runtime dependencies stay external: openapi-fetch (client), ajv + ajv-formats (./contract), and the
// optional peers: @stoplight/prism-http (./mock, the command's mock), msw and openapi-msw (./msw).
const external = [
  "openapi-fetch",
  "ajv",
  "ajv-formats",
  /^ajv\//,
  "@stoplight/prism-http",
  "msw",
  /^msw\//,
  "openapi-msw",
];

export default defineConfig([
  {
    entry: {
      index: "src/index.ts",
      types: "src/types.ts",
      contract: "src/contract/index.ts",
      mock: "src/mock/index.ts",
      // The sandbox engine: no Prism, no Node built-ins, so it runs in a browser too (its HTTP front is the command's).
      sandbox: "src/sandbox/index.ts",
    },
    format: ["esm", "cjs"],
    dts: true,
    clean: false, // npm run build:dist empties dist/ first: tsup runs both configs at once
    target: "es2022",
    platform: "neutral",
    splitting: false,
    sourcemap: false,
    treeshake: true,
    // import.meta.url (the mock loads Prism's engine with createRequire) works in the CJS build too.
    shims: true,
    external,
    outExtension: ({ format }) => ({ js: format === "cjs" ? ".cjs" : ".js" }),
  },
  {
    // What require() of ./msw loads: an error saying ./msw is ESM only and how to import it.
    entry: { "msw.require": "src/msw/require.ts" },
    format: ["cjs"],
    dts: false,
    clean: false,
    target: "es2022",
    platform: "neutral",
    splitting: false,
    sourcemap: false,
    treeshake: true,
    outExtension: () => ({ js: ".cjs" }),
  },
  {
    // ESM only: ./msw builds on openapi-msw, which is ESM only; the command is run, never imported. Its
    // declarations import openapi-msw's types, an optional peer: `npm run build:dist` then marks that import
    // (scripts/optional-peer-types.ts).
    entry: { msw: "src/msw/index.ts", cli: "src/cli.ts" },
    format: ["esm"],
    dts: { entry: { msw: "src/msw/index.ts" } },
    clean: false,
    target: "es2022",
    platform: "node",
    splitting: false,
    sourcemap: false,
    treeshake: true,
    external,
    outExtension: () => ({ js: ".js" }),
  },
]);
