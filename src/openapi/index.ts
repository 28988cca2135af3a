// The one OpenAPI module of this package (see document.ts and schema.ts).
export * from "./document.js";
export * from "./schema.js";
