// Generates each operation's TypeScript code sample (`x-codeSamples`) from the bundled spec.
// Nothing here is written per operation: method, path, path/query parameters and body all come
// from the spec (parameter examples, the request body's example). A value the spec does not give
// for a required input is an error, so a sample can never show an invented value.
import { readFileSync } from "node:fs";
import {
  basePathOf,
  firstExample,
  type JsonObject,
  jsonMedia,
  listOperations,
  multipartMedia,
  type OpenApiDocument,
  type Operation,
  schemaView,
  successKey,
} from "../../src/openapi/index.js";

/** The name users import the client from: package.json's `name`. */
export const PACKAGE_NAME: string = JSON.parse(
  readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
).name;
const SAMPLE_LANG = "TypeScript";

const PARAM_LOCATIONS = ["path", "query", "header"] as const;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const MAX_LINE = 72;

function keyLiteral(key: string): string {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

/** A value as a one-line TypeScript literal. */
function inlineLiteral(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return value.length === 0 ? "[]" : `[${value.map(inlineLiteral).join(", ")}]`;
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  return `{ ${entries.map(([key, item]) => `${keyLiteral(key)}: ${inlineLiteral(item)}`).join(", ")} }`;
}

/** A value as a TypeScript literal, on one line when it fits, else one entry per line, nested at `indent`. */
export function toTsLiteral(value: unknown, indent = "", prefixLength = 0): string {
  const inline = inlineLiteral(value);
  if (value === null || typeof value !== "object" || indent.length + prefixLength + inline.length <= MAX_LINE)
    return inline;
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

interface RequestInit {
  params?: Partial<Record<(typeof PARAM_LOCATIONS)[number], Record<string, unknown>>>;
  body?: unknown;
}

/**
 * The request options object (`params`, `body`) of one operation, as a value, or undefined when
 * the operation takes none. Throws when a required input has no example in the spec.
 */
export function requestInitOf(doc: OpenApiDocument, operation: Operation): RequestInit | undefined {
  const label = operation.operationId ?? operation.key;
  const params: NonNullable<RequestInit["params"]> = {};
  for (const param of operation.parameters) {
    const location = PARAM_LOCATIONS.find((where) => where === param.in);
    // The signing headers are the client's job (its apiSecret option), never passed by hand.
    if (!location || param["x-signing"] !== undefined) continue;
    const required = location === "path" || param.required === true;
    const example = firstExample(doc, param);
    if (!example.found) {
      if (required)
        throw new Error(
          `code samples: ${label}: required ${location} parameter "${String(param.name)}" has no example`,
        );
      continue;
    }
    params[location] ??= {};
    params[location][String(param.name)] = example.value;
  }
  const init: RequestInit = {};
  if (Object.keys(params).length > 0)
    init.params = Object.fromEntries(
      PARAM_LOCATIONS.filter((where) => params[where]).map((where) => [where, params[where]]),
    );
  if (operation.requestBody) {
    const example = firstExample(doc, jsonMedia(operation.requestBody) ?? multipartMedia(operation.requestBody));
    if (example.found) init.body = example.value;
    else if (operation.requestBody.required)
      throw new Error(`code samples: ${label}: the required request body has no example`);
  }
  return Object.keys(init).length > 0 ? init : undefined;
}

/** Whether the spec declares request-signing headers (parameters marked `x-signing`). */
function signsRequests(doc: OpenApiDocument): boolean {
  return Object.values(doc.components?.parameters ?? {}).some(
    (param) => (param as JsonObject)?.["x-signing"] !== undefined,
  );
}

/** Stands for the serializer's name in a multipart sample's request options, until the literal is printed. */
const FORM_DATA_SERIALIZER = "\u0000toFormData";

/** The lines a multipart/form-data sample starts with: a body serializer that makes each field one part. */
const FORM_DATA_LINES = [
  "// multipart/form-data: each field of the body is one part (a file may be a Blob).",
  "const toFormData = (fields: Record<string, string | Blob>) => {",
  "  const form = new FormData();",
  "  for (const [name, value] of Object.entries(fields)) form.append(name, value);",
  "  return form;",
  "};",
  "",
];

/** The call of one operation's sample, with the lines it needs before it. */
function callOf(doc: OpenApiDocument, operation: Operation): string[] {
  const init = requestInitOf(doc, operation);
  const head = `const { data, error } = await client.${operation.method}(${JSON.stringify(operation.path)}`;
  if (!init) return [`${head});`];
  if (init.body === undefined || jsonMedia(operation.requestBody) || !multipartMedia(operation.requestBody))
    return [`${head}, ${toTsLiteral(init, "", MAX_LINE)});`];
  const options = toTsLiteral({ ...init, bodySerializer: FORM_DATA_SERIALIZER }, "", MAX_LINE);
  return [...FORM_DATA_LINES, `${head}, ${options.replace(JSON.stringify(FORM_DATA_SERIALIZER), "toFormData")});`];
}

/** The TypeScript source of one operation's sample. */
function codeSampleFor(doc: OpenApiDocument, operation: Operation): string {
  const call = callOf(doc, operation);
  const success = successKey(operation);
  const successSchema = success === undefined ? undefined : jsonMedia(operation.responses[success])?.schema;
  const printed = schemaView(doc, successSchema).properties.has("data") ? "data.data" : "data";
  const basePath = basePathOf(doc);
  return [
    `import { createClient, MOCK_BASE_URL } from "${PACKAGE_NAME}";`,
    "",
    `// The local mock (npm start); elsewhere, a base URL${basePath ? ` ending in ${basePath}` : ""}.`,
    "const client = createClient({",
    "  baseUrl: MOCK_BASE_URL,",
    '  apiKey: "YOUR_API_KEY",',
    ...(signsRequests(doc)
      ? ['  // apiSecret: "YOUR_API_SECRET", // signs every request (observed in a real client); server side only']
      : []),
    "});",
    "",
    ...call,
    `if (data) console.log(${printed});`,
    "else console.error(error);",
    "",
  ].join("\n");
}

interface CodeSample {
  operationId: string | undefined;
  method: string;
  path: string;
  source: string;
}

/** One sample per operation, in document order. */
export function generateCodeSamples(doc: OpenApiDocument): CodeSample[] {
  return listOperations(doc).map((operation) => ({
    operationId: operation.operationId,
    method: operation.method,
    path: operation.path,
    source: codeSampleFor(doc, operation),
  }));
}

/** A copy of the document with `x-codeSamples` set on every operation (the input is not changed). */
export function withCodeSamples<T extends OpenApiDocument>(doc: T): T {
  const copy = structuredClone(doc);
  for (const operation of listOperations(copy)) {
    operation.operation["x-codeSamples"] = [{ lang: SAMPLE_LANG, source: codeSampleFor(copy, operation) }];
  }
  return copy;
}
