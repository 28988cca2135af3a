// The client tests' view of generated/openapi.json (untyped, for terse lookups), on the shared test helpers.
import { deref, jsonMedia, listSpecOperations, loadSpec, mediaExamples, repoRoot, type JsonObject } from "../../support/spec.js";

export { repoRoot };

type Json = Record<string, any>;
export const spec: Json = loadSpec();

export function resolveRef<T = Json>(value: Json): T {
  return deref(loadSpec(), value) as T;
}

export function specOperations() {
  return listSpecOperations();
}

/** The first example value of an operation's 200 JSON response. */
export function successExample(operationId: string): Json {
  const op = listSpecOperations().find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  const [first] = mediaExamples(loadSpec(), jsonMedia(op.responses["200"] as JsonObject));
  if (!first) throw new Error(`no example for ${operationId}`);
  return first.value as Json;
}
