// Types-only entry (`<package>/types`): openapi-typescript's `paths`, `components`, `operations`
// and one named type per component schema. No runtime code.
export type { paths, components, operations } from "../generated/schema.js";
export type * from "../generated/schema-aliases.js";
