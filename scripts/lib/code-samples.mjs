// Generates each operation's TypeScript code sample (`x-codeSamples`) from the bundled spec.
// Nothing here is written per operation: method, path, path/query parameters and body all come
// from the spec (parameter examples, the request body's example). A value the spec does not give
// for a required input is an error, so a sample can never show an invented value.
import { readFileSync } from "node:fs";
import { mockBasePath } from "./mock-spec.mjs";
import { listOperations, resolveRef } from "./openapi-walk.mjs";

export { listOperations, resolveRef };

/** The name users import the client from: package.json's `name`. */
export const PACKAGE_NAME = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).name;
export const SAMPLE_LANG = "TypeScript";

const PARAM_LOCATIONS = ["path", "query", "header"];

/** The first example a parameter or media type gives: `example`, then `examples`, then its schema's. */
function exampleOf(doc, holder) {
  if (!holder) return { found: false };
  if (holder.example !== undefined) return { found: true, value: holder.example };
  const named = Object.values(holder.examples ?? {});
  if (named.length > 0) {
    const example = resolveRef(doc, named[0]);
    if (example && "value" in example) return { found: true, value: example.value };
  }
  const schema = resolveRef(doc, holder.schema);
  if (schema?.example !== undefined) return { found: true, value: schema.example };
  if (Array.isArray(schema?.examples) && schema.examples.length > 0) return { found: true, value: schema.examples[0] };
  return { found: false };
}

/** Operation parameters merged over path-item parameters (same name and location: the operation's wins). */
function parametersOf(doc, pathItem, operation) {
  const byKey = new Map();
  for (const raw of [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])]) {
    const param = resolveRef(doc, raw);
    byKey.set(`${param.in}:${param.name}`, param);
  }
  return [...byKey.values()];
}

/** Whether a schema (through $ref and allOf) declares a top-level property. */
function declaresProperty(doc, rawSchema, name, depth = 0) {
  const schema = resolveRef(doc, rawSchema);
  if (!schema || typeof schema !== "object" || depth > 20) return false;
  if (schema.properties && name in schema.properties) return true;
  return (schema.allOf ?? []).some((part) => declaresProperty(doc, part, name, depth + 1));
}

function successSchema(doc, operation) {
  const entry = Object.entries(operation.responses ?? {}).find(([code]) => /^2/.test(code));
  if (!entry) return undefined;
  const response = resolveRef(doc, entry[1]);
  return response?.content?.["application/json"]?.schema;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const MAX_LINE = 72;

function keyLiteral(key) {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

/** A value as a one-line TypeScript literal. */
function inlineLiteral(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return value.length === 0 ? "[]" : `[${value.map(inlineLiteral).join(", ")}]`;
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  return `{ ${entries.map(([key, item]) => `${keyLiteral(key)}: ${inlineLiteral(item)}`).join(", ")} }`;
}

/** A value as a TypeScript literal, on one line when it fits, else one entry per line, nested at `indent`. */
export function toTsLiteral(value, indent = "", prefixLength = 0) {
  const inline = inlineLiteral(value);
  if (value === null || typeof value !== "object" || indent.length + prefixLength + inline.length <= MAX_LINE) return inline;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    return `[\n${value.map((item) => `${inner}${toTsLiteral(item, inner)},`).join("\n")}\n${indent}]`;
  }
  const lines = Object.entries(value).map(([key, item]) => {
    const prefix = `${keyLiteral(key)}: `;
    return `${inner}${prefix}${toTsLiteral(item, inner, prefix.length)},`;
  });
  return `{\n${lines.join("\n")}\n${indent}}`;
}

function operationLabel(method, path, operation) {
  return operation.operationId ?? `${method.toUpperCase()} ${path}`;
}

/**
 * The request options object (`params`, `body`) of one operation, as a value, or undefined when
 * the operation takes none. Throws when a required input has no example in the spec.
 */
export function requestInitOf(doc, { path, method, operation, pathItem }) {
  const label = operationLabel(method, path, operation);
  const params = {};
  for (const param of parametersOf(doc, pathItem, operation)) {
    // The signing headers are the client's job (its apiSecret option), never passed by hand.
    if (!PARAM_LOCATIONS.includes(param.in) || param["x-signing"] !== undefined) continue;
    const required = param.in === "path" || param.required === true;
    const example = exampleOf(doc, param);
    if (!example.found) {
      if (required) throw new Error(`code samples: ${label}: required ${param.in} parameter "${param.name}" has no example`);
      continue;
    }
    params[param.in] ??= {};
    params[param.in][param.name] = example.value;
  }
  const init = {};
  if (Object.keys(params).length > 0) {
    init.params = Object.fromEntries(PARAM_LOCATIONS.filter((where) => params[where]).map((where) => [where, params[where]]));
  }
  const requestBody = resolveRef(doc, operation.requestBody);
  if (requestBody) {
    const media = requestBody.content?.["application/json"];
    const example = exampleOf(doc, media);
    if (example.found) init.body = example.value;
    else if (requestBody.required) throw new Error(`code samples: ${label}: the required request body has no example`);
  }
  return Object.keys(init).length > 0 ? init : undefined;
}

/** Whether the spec declares request-signing headers (parameters marked `x-signing`). */
function signsRequests(doc) {
  return Object.values(doc.components?.parameters ?? {}).some((param) => param?.["x-signing"] !== undefined);
}

/** The TypeScript source of one operation's sample. */
export function codeSampleFor(doc, entry) {
  const { path, method, operation } = entry;
  const init = requestInitOf(doc, entry);
  const head = `const { data, error } = await client.${method.toUpperCase()}(${JSON.stringify(path)}`;
  const call = init ? `${head}, ${toTsLiteral(init, "", MAX_LINE)});` : `${head});`;
  const printed = declaresProperty(doc, successSchema(doc, operation), "data") ? "data.data" : "data";
  const basePath = mockBasePath(doc);
  return [
    `import { createClient, MOCK_BASE_URL } from "${PACKAGE_NAME}";`,
    "",
    `// The local mock (npm start); elsewhere, a base URL${basePath ? ` ending in ${basePath}` : ""}.`,
    "const client = createClient({",
    "  baseUrl: MOCK_BASE_URL,",
    '  apiKey: "YOUR_API_KEY",',
    ...(signsRequests(doc) ? ['  // apiSecret: "YOUR_API_SECRET", // signs every request (observed in a real client); server side only'] : []),
    "});",
    "",
    call,
    `if (data) console.log(${printed});`,
    "else console.error(error);",
    "",
  ].join("\n");
}

/** One `{ operationId, method, path, source }` per operation, in document order. */
export function generateCodeSamples(doc) {
  return listOperations(doc).map((entry) => ({
    operationId: entry.operation.operationId,
    method: entry.method.toUpperCase(),
    path: entry.path,
    source: codeSampleFor(doc, entry),
  }));
}

/** A copy of the document with `x-codeSamples` set on every operation (the input is not changed). */
export function withCodeSamples(doc) {
  const copy = structuredClone(doc);
  for (const entry of listOperations(copy)) {
    entry.operation["x-codeSamples"] = [{ lang: SAMPLE_LANG, source: codeSampleFor(copy, entry) }];
  }
  return copy;
}
