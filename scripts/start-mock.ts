// `npm start`: rebuilds generated/ when its inputs changed (by content), then serves the mock of the whole
// API on http://127.0.0.1:4010/v1 and the docs on port+1 (the site when `npm run docs` has built it, else the Redoc
// page; --docs-dir serves another built site). Host and port: --host/--port, or MOCK_HOST/MOCK_PORT; port 0 picks
// free ports for both (the banner says which). Ctrl-C, SIGTERM, or npm stopping (kill -TERM <npm's pid>) stops
// everything it started.
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { API_KEY_HEADER } from "../generated/client-meta.js";
import { startMock } from "../src/mock/index.js";
import { describeStop, stopWithLauncher } from "../src/mock/lifetime.js";
import { listOperations, type OpenApiDocument } from "../src/openapi/index.js";
import { ensureFresh } from "./lib/freshness.js";
import { BUNDLE_JSON } from "./lib/paths.js";
import { withSourceLocations } from "./lib/source-map.js";
import { type DocsServer, servedDocsDir, startDocsServer } from "./serve-docs.js";

const { values } = parseArgs({
  options: {
    host: { type: "string", default: process.env.MOCK_HOST ?? "127.0.0.1" },
    port: { type: "string", default: process.env.MOCK_PORT ?? "4010" },
    "no-docs": { type: "boolean", default: false },
    "docs-dir": { type: "string" },
    "no-build": { type: "boolean", default: false },
    quiet: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});

if (values.help) {
  console.log(`Usage: npm start -- [--host 127.0.0.1] [--port 4010] [--no-docs] [--docs-dir <dir>] [--no-build]
                 [--quiet]
Serves the API mock at http://<host>:<port>/v1 (env MOCK_HOST, MOCK_PORT) and the docs (the built site, else the
Redoc page; or <dir>) at port+1. Port 0: free ports for both.`);
  process.exit(0);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65534) {
  console.error(`start-mock: invalid port ${values.port}`);
  process.exit(2);
}

if (!values["no-build"]) {
  try {
    await ensureFresh();
  } catch (error) {
    console.error(withSourceLocations(error instanceof Error ? error.message : String(error)));
    console.error(
      "start-mock: the build failed; generated/ is unchanged and nothing is served. " +
        "Fix openapi/ and run npm start again.",
    );
    process.exit(1);
  }
}
const spec = JSON.parse(await readFile(BUNDLE_JSON, "utf8")) as OpenApiDocument;
const mock = await startMock({
  host: values.host,
  port,
  spec,
  log: values.quiet ? undefined : (line) => console.log(line),
});

let docs: DocsServer | undefined;
if (!values["no-docs"]) {
  try {
    const dir = values["docs-dir"] ?? (await servedDocsDir());
    docs = await startDocsServer({ host: values.host, port: port === 0 ? 0 : port + 1, dir });
  } catch (error) {
    console.error(`start-mock: docs not served (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** One curl for the first GET operation without path parameters (with a key when it requires one). */
function exampleCurl(): string {
  const operation = listOperations(spec).find((op) => op.method === "GET" && !op.path.includes("{"));
  if (!operation) return `curl -s ${mock.baseUrl}/`;
  const header = operation.security === "required" ? ` -H '${API_KEY_HEADER}: any-value'` : "";
  return `curl -s${header} ${mock.baseUrl}${operation.path}`;
}

/**
 * How many mock-only changes the served spec has, and where they are told: the list (about 2,000 characters) is the
 * docs site's (guide "The mock") and `startMock().fixes`, not a banner line that reads like an error.
 */
function fixesLine(count: number): string {
  return (
    `Mock-only changes to the served spec: ${count} (what Prism gets wrong, answered as the contract says; ` +
    'the docs site\'s guide "The mock")'
  );
}

console.log(`
Mock of ${spec.info?.title ?? "the API"} ${spec.info?.version ?? ""} listening on ${mock.baseUrl}
  (Prism's engine in this process, pid ${process.pid}; stateless; answers with the documented examples; \
any ${API_KEY_HEADER} value is accepted)
  try:   ${exampleCurl()}
  other documented responses:  -H 'Prefer: code=429'   -H 'Prefer: example=<example name>'
${docs ? `Docs at ${docs.url}\n` : ""}${fixesLine(mock.fixes.length)}
Ctrl-C to stop.`);

stopWithLauncher(async (cause) => {
  if (cause.kind === "launcher-exited") console.error(`start-mock: stopping: ${describeStop(cause)}`);
  await Promise.allSettled([mock.stop(), docs?.close()]);
  process.exit(0);
});
