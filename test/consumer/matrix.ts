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
