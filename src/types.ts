// Types-only entry (`<package>/types`): openapi-typescript's `paths`, `components`, `operations` and its root
// types: one named type per component schema (`Quote`, `Trade`, …), plus `Parameter…`, `Header…`, `Response…`
// and `Example…` types for the other components. No runtime code.
export type * from "../generated/schema.js";
