// The contract of this package, embedded: generated/openapi.json is imported as JSON, which the
// bundler (tsup/esbuild) inlines into dist, so consumers need no file access at run time.
import bundledSpec from "../../generated/openapi.json" with { type: "json" };
import type { ContractValidatorOptions, OpenApiDocument } from "./types.js";
import { createContractValidator, type ContractValidator } from "./validator.js";

/** The bundled OpenAPI document this package was built from (generated/openapi.json). */
export const openApiDocument = bundledSpec as unknown as OpenApiDocument;

let shared: ContractValidator | undefined;

/**
 * A validator for this package's own contract. Without options it is created once and shared
 * (compiling is the expensive part); with options a new one is made.
 */
export function createBundledContractValidator(options?: ContractValidatorOptions): ContractValidator {
  if (options) return createContractValidator(openApiDocument, options);
  shared ??= createContractValidator(openApiDocument);
  return shared;
}
