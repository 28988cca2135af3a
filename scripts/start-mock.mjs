#!/usr/bin/env node
// `npm start`: builds generated/ when stale, then serves the contract with Prism on
// http://127.0.0.1:4010/v1 (and the docs on port+1 when scripts/serve-docs.mjs exists).
// Host and port: --host/--port, or MOCK_HOST/MOCK_PORT. Ctrl-C stops everything it started.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { apiKeyHeaderName, ensureBuilt, loadBundledSpec, root, startMock } from "./lib/mock-server.mjs";

const { values } = parseArgs({
  options: {
    host: { type: "string", default: process.env.MOCK_HOST ?? "127.0.0.1" },
    port: { type: "string", default: process.env.MOCK_PORT ?? "4010" },
    "no-docs": { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
    quiet: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});

if (values.help) {
  console.log(`Usage: npm start -- [--host 127.0.0.1] [--port 4010] [--no-docs] [--no-build] [--quiet]
Serves the API mock at http://<host>:<port>/v1 (env MOCK_HOST, MOCK_PORT) and the docs at port+1.`);
  process.exit(0);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65534) {
  console.error(`start-mock: invalid port ${values.port}`);
  process.exit(2);
}

if (!values["no-build"]) await ensureBuilt();
const spec = loadBundledSpec();
const keyHeader = apiKeyHeaderName(spec);
// Prism's start-up lines name its internal port and the readiness probe; show its request log only.
let showPrismLog = false;
const mock = await startMock({
  host: values.host,
  port,
  spec,
  log: values.quiet ? undefined : (line) => showPrismLog && console.log(line),
});

let docs;
const docsScript = path.join(root, "scripts", "serve-docs.mjs");
if (!values["no-docs"] && existsSync(docsScript)) {
  try {
    const { startDocsServer } = await import(pathToFileURL(docsScript).href);
    docs = await startDocsServer({ host: values.host, port: port + 1 });
  } catch (error) {
    console.error(`start-mock: docs not served (${error?.message ?? error})`);
  }
}

/** One curl for the first GET operation without path parameters (with a key when it takes one). */
function exampleCurl() {
  for (const [p, item] of Object.entries(spec.paths ?? {})) {
    const op = item.get;
    if (!op || p.includes("{")) continue;
    const requirements = op.security ?? spec.security ?? [];
    const keyed = requirements.length > 0 && requirements.every((requirement) => Object.keys(requirement).length > 0);
    const header = keyed && keyHeader ? ` -H '${keyHeader}: any-value'` : "";
    return `curl -s${header} ${mock.baseUrl}${p}`;
  }
  return `curl -s ${mock.baseUrl}/`;
}

console.log(`
Mock of ${spec.info?.title ?? "the API"} ${spec.info?.version ?? ""} listening on ${mock.baseUrl}
  (Prism pid ${mock.pid} on internal port ${mock.prismPort}; stateless; answers with the documented examples${keyHeader ? `; any ${keyHeader} value is accepted` : ""})
  try:   ${exampleCurl()}
  other documented responses:  -H 'Prefer: code=429'   -H 'Prefer: example=<example name>'
${docs ? `Docs at ${docs.url}\n` : ""}Mock-only changes to the served spec: ${mock.fixes.join("; ")}.
Ctrl-C to stop.`);
showPrismLog = true;

let stopping = false;
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled([mock.stop(), docs?.close()]);
  process.exit(code);
}
process.on("SIGINT", () => shutdown(0));
process.on("SIGTERM", () => shutdown(0));
mock.child.once("exit", (exitCode, signal) => {
  if (stopping) return;
  console.error(`start-mock: Prism exited (${exitCode ?? signal})`);
  shutdown(1);
});
