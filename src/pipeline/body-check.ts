// Bounds the work one request body can cost the mock. Prism validates a body collecting every violation
// (ajv's allErrors) and then maps each one: a 1 MiB body of 500,000 violations held the event loop for
// seconds, and no other request was answered meanwhile. So a body over FULL_REPORT_MAX_BYTES is checked
// here first by a validator that stops at its first violation (the contract validator's fast pass: linear
// in the body, nothing allocated per item); an invalid one is refused with 422 and that violation, without
// reaching the full check. Smaller bodies and valid ones get the contract validator's full check in the
// request pipeline (pipeline.ts); the violations reported are capped at MAX_VIOLATIONS.
import type { ErrorObject } from "ajv/dist/2020.js";
import { SchemaCompiler } from "../contract/schemas.js";
import { jsonMedia, type OpenApiDocument, type Operation } from "../openapi/document.js";

/**
 * Bodies up to 8 KiB get every violation Prism finds (a few thousand at most, some 20 ms); larger ones only
 * their first when invalid. Every request body of the contract is a few hundred bytes.
 */
export const FULL_REPORT_MAX_BYTES = 8 * 1024;

export interface BodyCheck {
  /**
   * The first violation of `body` against `operation`'s JSON request body schema, as Prism words one;
   * undefined when it conforms.
   */
  firstViolation(operation: Pick<Operation, "key" | "requestBody">, body: unknown): string | undefined;
}

/** Prism's wording: `Request body property ids.0 must be string`. */
function describe(error: ErrorObject | undefined): string {
  if (!error) return "Request body is invalid";
  const path = error.instancePath.split("/").slice(1).join(".");
  const extra = (error.params as { additionalProperty?: unknown }).additionalProperty;
  const found = typeof extra === "string" ? `; found '${extra}'` : "";
  return `Request body${path ? ` property ${path}` : ""} ${error.message ?? "is invalid"}${found}`;
}

export function createBodyCheck(spec: OpenApiDocument): BodyCheck {
  let compiler: SchemaCompiler | undefined;
  return {
    firstViolation(operation, body) {
      const schema = jsonMedia(operation.requestBody)?.schema;
      if (schema === undefined) return undefined;
      compiler ??= new SchemaCompiler(spec);
      const { fast } = compiler.compile(`${operation.key} request`, schema);
      return fast(body) ? undefined : describe(fast.errors?.[0]);
    },
  };
}
