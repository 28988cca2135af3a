// The saved state's shape, declared once: the control document's SandboxState (openapi-sandbox/control.yaml, built
// into generated/sandbox-control.json), every part and record with its fields. A restore checks a state against it
// with the package's own validator (src/contract), as the control API checks its bodies and answers: first against
// PUT /_sandbox/state's body (an object of format 1 or 2), then, a format-1 state brought to format 2, against what
// GET /_sandbox/state answers (SandboxState, closed), so a restore takes back exactly what a snapshot gives. A
// problem is told as the first violation, with its JSON pointer. What an older state lacks is filled in from the
// schema's `default`s (a walk of the schema here: the validator's ajv is shared with every other use, so its
// `useDefaults`, which changes the value it checks, is not turned on for this one).
import controlJson from "../../generated/sandbox-control.json" with { type: "json" };
import { type ContractValidator, createContractValidator } from "../contract/validator.js";
import { isObject, type JsonObject, type OpenApiDocument, resolvePointer } from "../openapi/document.js";

const controlDocument = controlJson as unknown as OpenApiDocument;

const STATE_PATH = "/_sandbox/state";
const STATE_SCHEMA = { $ref: "#/components/schemas/SandboxState" };
/** What the validator puts before a violation of GET /_sandbox/state's answer (its message follows). */
const ANSWER_PREFIX = `GET ${STATE_PATH} 200: `;
const REQUEST_PREFIX = "request body: ";

let validator: ContractValidator | undefined;
const stateValidator = () => (validator ??= createContractValidator(controlDocument, { basePaths: [] }));

const withoutPrefix = (message: string, prefix: string) =>
  message.startsWith(prefix) ? message.slice(prefix.length) : message;

/**
 * What keeps `saved` from being a state to restore (PUT /_sandbox/state's body: an object of format 1 or 2), as
 * "<JSON pointer> <why>", or undefined.
 */
export function savedStateProblem(saved: unknown): string | undefined {
  const [first] = stateValidator().validateRequestBody("PUT", STATE_PATH, saved ?? null);
  return first && withoutPrefix(first.message, REQUEST_PREFIX);
}

/** What keeps `state` from being a SandboxState (format 2), as "<JSON pointer> <why>" (the first), or undefined. */
export function stateShapeProblem(state: unknown): string | undefined {
  const headers = { "content-type": "application/json" };
  const result = stateValidator().validateResponse({
    method: "GET",
    path: STATE_PATH,
    status: 200,
    headers,
    body: state,
  });
  const [first] = result.violations;
  return first && withoutPrefix(first.message, ANSWER_PREFIX);
}

/** `schema`, then the schemas its `$ref`s lead to (the control document's own), in that order. */
function schemasOf(schema: unknown): JsonObject[] {
  const found: JsonObject[] = [];
  for (let current = schema; isObject(current) && !found.includes(current); ) {
    found.push(current);
    current = typeof current.$ref === "string" ? resolvePointer(controlDocument, current.$ref) : undefined;
  }
  return found;
}

const defaultOf = (schema: unknown): unknown => schemasOf(schema).find((part) => "default" in part)?.default;

/** holdsDefaults' answers, by schema object. */
const withDefaults = new WeakMap<object, boolean>();

/** The schemas of the values `schema` holds: its properties', its map entries', its items'. */
const innerSchemas = (schema: unknown): unknown[] =>
  schemasOf(schema).flatMap((part) => [
    ...Object.values(isObject(part.properties) ? part.properties : {}),
    part.additionalProperties,
    part.items,
  ]);

/** Whether a value `schema` describes may lack a part with a default, at any depth (a state's records may not). */
function holdsDefaults(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  let holds = withDefaults.get(schema);
  if (holds === undefined) {
    withDefaults.set(schema, false); // a schema that holds itself adds nothing
    holds = innerSchemas(schema).some((inner) => defaultOf(inner) !== undefined || holdsDefaults(inner));
    withDefaults.set(schema, holds);
  }
  return holds;
}

/**
 * Gives `value`, as `schema` describes it, each property it lacks (or holds as undefined) whose schema has a
 * `default`, a copy of that default, at every depth: through `$ref`, `properties`, `additionalProperties` and
 * `items`, the keywords SandboxState's parts are made of; a part whose schema holds no default is not walked. A
 * value not of its schema's type is left to the check.
 */
function fillDefaults(schema: unknown, value: unknown): void {
  if (!holdsDefaults(schema)) return; // the records, thousands of them: nothing to fill in
  for (const part of schemasOf(schema)) {
    if (Array.isArray(value)) {
      if (isObject(part.items)) for (const item of value) fillDefaults(part.items, item);
      continue;
    }
    if (!isObject(value)) return;
    const properties = isObject(part.properties) ? part.properties : {};
    for (const [name, property] of Object.entries(properties)) {
      const fallback = value[name] === undefined ? defaultOf(property) : undefined;
      if (fallback !== undefined) value[name] = structuredClone(fallback);
      fillDefaults(property, value[name]);
    }
    if (isObject(part.additionalProperties))
      for (const [name, entry] of Object.entries(value))
        if (!Object.hasOwn(properties, name)) fillDefaults(part.additionalProperties, entry);
  }
}

const STORE_SCHEMA = { $ref: "#/components/schemas/SandboxAccountStore" };
/** The route whose request body is one store (any key: the check is of the body). */
const STORE_PATH = "/_sandbox/accounts/key/state";

/** What keeps `store` from being a SandboxAccountStore, as "<JSON pointer> <why>" (the first), or undefined. */
export function storeShapeProblem(store: unknown): string | undefined {
  const [first] = stateValidator().validateRequestBody("PUT", STORE_PATH, store ?? null);
  return first && withoutPrefix(first.message, REQUEST_PREFIX);
}

/** Fills in, in `store` (changed in place), what an older store lacks: SandboxAccountStore's defaults. */
export function withStoreDefaults<T>(store: T): T {
  fillDefaults(STORE_SCHEMA, store);
  return store;
}

/** Fills in, in `state` (a SandboxState, changed in place), what an older state lacks: SandboxState's defaults. */
export function withStateDefaults<T>(state: T): T {
  fillDefaults(STATE_SCHEMA, state);
  return state;
}
