// Writes what the client needs at run time and as named types, derived from generated/openapi.json:
//   generated/client-meta.ts     MOCK_BASE_URL (the local mock server), SPEC_VERSION, BASE_PATH (the servers' common path),
//                                API_KEY_HEADER, RATE_LIMIT_HEADERS, SIGNING_HEADERS, method+path → operationId
//   generated/enums.ts           closed enums (component schemas with `enum`) as `as const` arrays
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { headerFor } from "../lib/generated-header.mjs";
import { listOperations } from "../lib/openapi-walk.mjs";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A JSDoc block from a schema description (first paragraph), or "". */
function jsDoc(text, indent = "") {
  if (typeof text !== "string" || !text.trim()) return "";
  const paragraph = text
    .trim()
    .split(/\n\s*\n/)[0]
    .replace(/\*\//g, "*\\/");
  return `${indent}/**\n${paragraph
    .split("\n")
    .map((line) => `${indent} * ${line.trim()}`.trimEnd())
    .join("\n")}\n${indent} */\n`;
}

function mockServerUrl(doc) {
  const local = (doc.servers ?? []).filter((s) => /^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(s.url ?? ""));
  if (local.length !== 1) throw new Error(`40-client-artifacts: expected exactly one local mock server in servers, found ${local.length}`);
  return local[0].url;
}

/** The path every server URL ends with (e.g. "/v1"); the client requires it at the end of its baseUrl. */
function basePath(doc) {
  const paths = new Set((doc.servers ?? []).map((s) => (s.url ?? "").replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "").replace(/\/$/, "")));
  const [only] = paths;
  if (paths.size !== 1 || !only)
    throw new Error(`40-client-artifacts: servers must share one non-empty base path, found ${JSON.stringify([...paths])}`);
  return only;
}

/** Name of the header of the one apiKey-in-header security scheme. */
function apiKeyHeader(doc) {
  const schemes = Object.values(doc.components?.securitySchemes ?? {}).filter((s) => s?.type === "apiKey" && s.in === "header");
  if (schemes.length !== 1) throw new Error(`40-client-artifacts: expected exactly one apiKey header security scheme, found ${schemes.length}`);
  return schemes[0].name.toLowerCase();
}

/** The rate-limit header names of components.headers (…-Limit, …-Remaining, …-Reset), lower-cased. */
function rateLimitHeaders(doc) {
  const names = Object.keys(doc.components?.headers ?? {}).map((name) => name.toLowerCase());
  const pick = (suffix) => {
    const found = names.filter((name) => name.includes("ratelimit") && name.endsWith(`-${suffix}`));
    if (found.length !== 1)
      throw new Error(`40-client-artifacts: expected one rate-limit …-${suffix} header in components.headers, found ${JSON.stringify(found)}`);
    return found[0];
  };
  return { limit: pick("limit"), remaining: pick("remaining"), reset: pick("reset") };
}

/** The request-signing headers: the header parameters of components.parameters marked `x-signing`, lower-cased. */
function signingHeaders(doc) {
  const marked = Object.values(doc.components?.parameters ?? {}).filter((p) => p?.in === "header" && typeof p["x-signing"] === "string");
  const pick = (role) => {
    const found = marked.filter((p) => p["x-signing"] === role);
    if (found.length !== 1) throw new Error(`40-client-artifacts: expected one header parameter with x-signing: ${role}, found ${found.length}`);
    return found[0].name.toLowerCase();
  };
  return { timestamp: pick("timestamp"), signature: pick("signature") };
}

function operationIndex(doc) {
  const entries = listOperations(doc).map(({ path: route, method, operation }) => {
    if (typeof operation.operationId !== "string") throw new Error(`40-client-artifacts: ${method.toUpperCase()} ${route} has no operationId`);
    return [`${method.toUpperCase()} ${route}`, operation.operationId];
  });
  return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function clientMeta(doc) {
  const lines = [
    headerFor("client-meta.ts").trimEnd(),
    "",
    "/** Base URL of the local mock (the spec's local server; `npm start`). */",
    `export const MOCK_BASE_URL = ${JSON.stringify(mockServerUrl(doc))};`,
    "",
    "/** `info.version` of the contract this package was built from. */",
    `export const SPEC_VERSION = ${JSON.stringify(doc.info?.version ?? "")};`,
    "",
    "/** Path every server's URL ends with: the version segment a base URL must end with. */",
    `export const BASE_PATH = ${JSON.stringify(basePath(doc))};`,
    "",
    "/** Header carrying the API key (the apiKey security scheme), lower-cased. */",
    `export const API_KEY_HEADER = ${JSON.stringify(apiKeyHeader(doc))};`,
    "",
    "/** Rate-limit response headers (components.headers), lower-cased. */",
    `export const RATE_LIMIT_HEADERS = ${JSON.stringify(rateLimitHeaders(doc))} as const;`,
    "",
    "/** Request-signing headers (header parameters marked `x-signing`; observed in a real client), lower-cased. */",
    `export const SIGNING_HEADERS = ${JSON.stringify(signingHeaders(doc))} as const;`,
    "",
    '/** operationId of each operation, keyed by `"METHOD /path/template"`. */',
    "export const OPERATION_IDS: Readonly<Record<string, string>> = {",
    ...operationIndex(doc).map(([key, id]) => `  ${JSON.stringify(key)}: ${JSON.stringify(id)},`),
    "};",
    "",
  ];
  return lines.join("\n");
}

function enums(doc) {
  const lines = [
    headerFor("enums.ts").trimEnd(),
    "",
    "// Closed enums of the contract (schemas with `enum`). Open enums (`x-known-values`) accept any string and are not listed.",
    "",
  ];
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!Array.isArray(schema?.enum)) continue;
    if (!IDENTIFIER.test(name)) throw new Error(`40-client-artifacts: schema name ${name} is not an identifier`);
    lines.push(jsDoc(`Every value of \`${name}\`. ${schema.description ?? ""}`).trimEnd());
    lines.push(`export const ${name}Values = ${JSON.stringify(schema.enum)} as const;`, "");
  }
  return lines.join("\n");
}

export default async function clientArtifacts({ outDir }) {
  const doc = JSON.parse(await readFile(path.join(outDir, "openapi.json"), "utf8"));
  await writeFile(path.join(outDir, "client-meta.ts"), clientMeta(doc));
  await writeFile(path.join(outDir, "enums.ts"), enums(doc));
}
