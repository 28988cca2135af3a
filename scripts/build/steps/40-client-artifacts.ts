// Writes what the client needs at run time, derived from openapi.json (through src/openapi, the one module
// that reads it; everything else imports these values from generated/ instead of deriving them again):
//   client-meta.ts  MOCK_BASE_URL (the local mock server), SPEC_VERSION, BASE_PATH (the servers' common path),
//                   API_KEY_HEADER, RATE_LIMIT_HEADERS, SIGNING_HEADERS, WEBHOOK_SIGNATURE_HEADER,
//                   method+path → operationId
//   enums.ts        closed enums (component schemas with `enum`) as `as const` arrays
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  apiKeyHeaderName,
  basePathOf,
  type JsonObject,
  listOperations,
  localServerUrl,
  type OpenApiDocument,
  rateLimitHeaderNames,
  signingHeaderNames,
  webhookSignatureHeaderName,
} from "../../../src/openapi/index.js";
import { headerFor } from "../generated-header.js";
import type { BuildContext } from "../index.js";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A JSDoc block from a schema description (first paragraph), or "". */
function jsDoc(text: unknown, indent = ""): string {
  if (typeof text !== "string" || !text.trim()) return "";
  const paragraph = text
    .trim()
    .split(/\n\s*\n/)[0]!
    .replace(/\*\//g, "*\\/");
  return `${indent}/**\n${paragraph
    .split("\n")
    .map((line) => `${indent} * ${line.trim()}`.trimEnd())
    .join("\n")}\n${indent} */\n`;
}

function operationIndex(doc: OpenApiDocument): Array<[string, string]> {
  const entries = listOperations(doc).map((operation): [string, string] => {
    if (operation.operationId === undefined)
      throw new Error(`40-client-artifacts: ${operation.key} has no operationId`);
    return [operation.key, operation.operationId];
  });
  return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function clientMeta(doc: OpenApiDocument): string {
  const lines = [
    headerFor("client-meta.ts").trimEnd(),
    "",
    "/** Base URL of the local mock (the spec's local server; `npm start`). */",
    `export const MOCK_BASE_URL = ${JSON.stringify(localServerUrl(doc))};`,
    "",
    "/** `info.version` of the contract this package was built from. */",
    `export const SPEC_VERSION = ${JSON.stringify(doc.info?.version ?? "")};`,
    "",
    "/** Path every server's URL ends with: the version segment a base URL must end with. */",
    `export const BASE_PATH = ${JSON.stringify(basePathOf(doc))};`,
    "",
    "/** Header carrying the API key (the apiKey security scheme), lower-cased. */",
    `export const API_KEY_HEADER = ${JSON.stringify(apiKeyHeaderName(doc))};`,
    "",
    "/** Rate-limit response headers (components.headers), lower-cased. */",
    `export const RATE_LIMIT_HEADERS = ${JSON.stringify(rateLimitHeaderNames(doc))} as const;`,
    "",
    "/** Request-signing headers (header parameters marked `x-signing`; observed in a real client), lower-cased. */",
    `export const SIGNING_HEADERS = ${JSON.stringify(signingHeaderNames(doc))} as const;`,
    "",
    "/** Webhook signature header (the header parameter marked `x-webhook-signature`; published), lower-cased. */",
    `export const WEBHOOK_SIGNATURE_HEADER = ${JSON.stringify(webhookSignatureHeaderName(doc))};`,
    "",
    '/** operationId of each operation, keyed by `"METHOD /path/template"`. */',
    "export const OPERATION_IDS: Readonly<Record<string, string>> = {",
    ...operationIndex(doc).map(([key, id]) => `  ${JSON.stringify(key)}: ${JSON.stringify(id)},`),
    "};",
    "",
  ];
  return lines.join("\n");
}

function enums(doc: OpenApiDocument): string {
  const lines = [
    headerFor("enums.ts").trimEnd(),
    "",
    "// Closed enums of the contract (schemas with `enum`). Open enums (`x-known-values`) accept any string " +
      "and are not listed.",
    "",
  ];
  const schemas = Object.entries((doc.components?.schemas ?? {}) as Record<string, JsonObject>).sort(([a], [b]) =>
    a < b ? -1 : 1,
  );
  for (const [name, schema] of schemas) {
    if (!Array.isArray(schema?.enum)) continue;
    if (!IDENTIFIER.test(name)) throw new Error(`40-client-artifacts: schema name ${name} is not an identifier`);
    lines.push(jsDoc(`Every value of \`${name}\`. ${String(schema.description ?? "")}`).trimEnd());
    lines.push(`export const ${name}Values = ${JSON.stringify(schema.enum)} as const;`, "");
  }
  return lines.join("\n");
}

export default async function clientArtifacts({ outDir }: BuildContext): Promise<void> {
  const doc = JSON.parse(await readFile(path.join(outDir, "openapi.json"), "utf8")) as OpenApiDocument;
  await writeFile(path.join(outDir, "client-meta.ts"), clientMeta(doc));
  await writeFile(path.join(outDir, "enums.ts"), enums(doc));
}
