// The consumer test's matrix: the one place that names the Node and TypeScript versions a consumer of the
// packed package is tested with (the docs' "Supported versions" cites this file). Exact versions: the Node
// binaries come from the npm registry's node-<platform>-<arch> package at that version, TypeScript from the
// typescript package (test/consumer/toolchain.ts installs both under node_modules/.cache/).

/** Node for consumers: one release of each supported major (engines.node >=20), Node 26 the current one. */
export const NODE_VERSIONS = ["20.20.2", "22.23.3", "24.21.0", "26.12.1"] as const;

/** TypeScript for consumers: 5.9 (the JavaScript compiler) and 7 (the native one). */
export const TYPESCRIPT_VERSIONS = ["5.9.3", "7.0.2"] as const;

/** The module resolutions a consumer's tsconfig.json is checked under, with the `module` each goes with. */
export const RESOLUTIONS = [
  { moduleResolution: "bundler", module: "esnext" },
  { moduleResolution: "nodenext", module: "nodenext" },
] as const;

/**
 * msw 3 for consumers of ./msw (peer range ^2.10.5 || ^3.0.0; msw 2 is the version package-lock.json holds, and
 * the lowest of the range), on the Nodes its engines accept: `node` is msw 3.0.5's engines.node (not Node 20).
 * Without openapi-msw, which supports msw 2 only (createHttp is msw 2's).
 */
export const MSW_3 = { version: "3.0.5", node: ">=22.12.0" } as const;
