// The bundled spec's success responses as the validator tests use them: each operation's documented status, example
// headers, examples and schema, and the first example field that matches a predicate (found, never hard-coded).
import { walk } from "./schema-walk.js";
import {
  deref,
  jsonMedia,
  type JsonObject,
  listSpecOperations,
  loadSpec,
  mediaExamples,
  type SpecOperation,
  successKey,
} from "../../support/spec.js";

const spec = loadSpec();

/** An operation's success: status, example headers (content type included), examples and body schema. */
export function successOf(op: SpecOperation) {
  const key = successKey(op);
  const response = op.responses[key]!;
  const headers: Record<string, string> = { "content-type": Object.keys(response.content as JsonObject)[0]! };
  for (const [name, raw] of Object.entries(response.headers as JsonObject)) {
    const header = deref(spec, raw) as JsonObject;
    headers[name.toLowerCase()] = String(header.example ?? (header.schema as JsonObject).example);
  }
  const examples = mediaExamples(spec, jsonMedia(response));
  return { status: Number(key), headers, examples, schema: jsonMedia(response)!.schema };
}

/** An operation whose success example has a field matching `predicate`, with that field. */
export function findField(predicate: (entry: ReturnType<typeof walk>[number]) => boolean) {
  for (const op of listSpecOperations(spec)) {
    const success = successOf(op);
    for (const example of success.examples) {
      const entry = walk(spec, success.schema, example.value).find(predicate);
      if (entry) return { op, success, body: example.value, entry };
    }
  }
  throw new Error("no such field in any example");
}

/** The first GET without path parameters: its success example is a whole valid response. */
export const plainGet = (): SpecOperation =>
  listSpecOperations(spec).find((op) => op.method === "GET" && !op.path.includes("{"))!;
