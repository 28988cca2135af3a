// Writing into JSON data at a JSON pointer, for tests that derive a variant of an example or a fixture:
// the release fixtures' set/remove steps and the validator tests' mutated bodies. Reading is src/openapi's
// resolvePointer and the tokens are its pointerTokens, so a pointer means the same when read and written.
import { isObject, type JsonObject, pointerTokens } from "../../src/openapi/index.js";

/** The object or array that holds the value at `pointer`, and the key of the value in it. */
function parentOf(data: unknown, pointer: string): { parent: JsonObject | unknown[]; key: string } {
  const tokens = pointerTokens(pointer);
  const key = tokens.pop();
  let parent: unknown = data;
  for (const token of tokens)
    parent = Array.isArray(parent) ? parent[Number(token)] : isObject(parent) ? parent[token] : undefined;
  if (key === undefined || (!Array.isArray(parent) && !isObject(parent)))
    throw new Error(`json pointer: no parent for ${pointer}`);
  return { parent, key };
}

/** Sets the value at `pointer` (not the root) in `data` itself. */
export function setAtPointer(data: unknown, pointer: string, value: unknown): void {
  const { parent, key } = parentOf(data, pointer);
  if (Array.isArray(parent)) parent[Number(key)] = value;
  else parent[key] = value;
}

/** Removes the value at `pointer` from `data` itself (an array item is spliced out); throws when there is none. */
export function removeAtPointer(data: unknown, pointer: string): void {
  const { parent, key } = parentOf(data, pointer);
  if (!(key in parent)) throw new Error(`json pointer: nothing to remove at ${pointer}`);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete parent[key];
}
