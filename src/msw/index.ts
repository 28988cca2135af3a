// In-process mocking for a consumer's unit tests, without any server: MSW request handlers for every
// operation of the contract, answering its documented examples; handlers that hand every request to a sandbox
// (./sandbox: the API with state) instead; and openapi-msw's `http` typed by the contract for handlers of your
// own. Needs the optional peer dependencies msw (2.x) and openapi-msw; ESM only (openapi-msw is), so a require()
// of it gets the error of require.ts.
import type { HttpHandler } from "msw";
import { MOCK_BASE_URL } from "../../generated/client-meta.js";
import type { paths } from "../../generated/schema.js";
import { openApiDocument } from "../contract/bundled.js";
import { createDocumentedSource } from "../pipeline/documented-source.js";
import { answerFetchRequest } from "../pipeline/fetch-front.js";
import { createRequestPipeline } from "../pipeline/pipeline.js";
import { listOperations } from "../openapi/document.js";
import { loadPeers } from "./peers.js";

export { MOCK_IDENTITY_HEADER } from "../pipeline/identity.js";
export { MOCK_QUOTE_VALIDITY_MS } from "../pipeline/quote-expiry.js";
export { MockUnavailableError } from "../mock/unavailable.js";

// Loading ./msw without its peers fails here with what to install (peers.ts).
const [{ http: mswHttp }, { createOpenApiHttp }] = await loadPeers();

/** openapi-msw's `http`, typed by the contract: paths, parameters, bodies and responses are checked. */
export function createHttp(baseUrl: string = MOCK_BASE_URL) {
  return createOpenApiHttp<paths>({ baseUrl });
}

export interface HandlerOptions {
  /** The base URL your client is configured with (it ends in the base path). Default: MOCK_BASE_URL. */
  baseUrl?: string;
  /** The clock of quote expiry and rate-limit headers (ms since the epoch). Default Date.now. */
  now?: () => number;
}

type Register = (path: string, resolver: (info: { request: Request }) => Promise<Response>) => HttpHandler;

/**
 * One handler per operation, each the MSW front of the mock's request pipeline (src/pipeline/pipeline.ts) with the
 * documented examples as its answer source. So a request is checked as the mock checks it: a keyed operation
 * called without the API key gets 401, an invalid parameter or body 422, malformed JSON 400 (the mock's
 * refusals, each with the published error body: a message saying what went wrong and one item per finding,
 * the findings in sl-violations too). Else the answer is the operation's first documented success example with
 * the documented headers (the rate-limit headers of the moment of the answer, as the mock writes them) and
 * X-Api-Contract-Mock; `Prefer: code=<status>` and `Prefer: example=<name>` pick another documented answer (an
 * unknown one is refused with 404). A quote expires its own `expiresIn` seconds after the answer (the
 * documented example's expiryDate is in the past).
 */
export function createHandlers(options: HandlerOptions = {}): HttpHandler[] {
  const spec = openApiDocument;
  const basePath = new URL(options.baseUrl ?? MOCK_BASE_URL).pathname.replace(/\/$/, "");
  const source = createDocumentedSource(spec);
  const pipeline = createRequestPipeline({ spec, source, basePaths: basePath ? [basePath] : [], now: options.now });
  const http = createHttp(options.baseUrl) as unknown as Record<string, Register>;
  return listOperations(spec).map((operation) => {
    const register = http[operation.method.toLowerCase()];
    if (!register) throw new Error(`msw: no handler factory for ${operation.method}`);
    return register(operation.path, ({ request }) => answerFetchRequest(pipeline, request));
  });
}

/** Where the sandbox's handlers answer by default: `api-contract sandbox`'s own address (port 4020). */
const SANDBOX_DEFAULT_BASE_URL = (() => {
  const url = new URL(MOCK_BASE_URL);
  url.port = "4020";
  return url.href.replace(/\/$/, "");
})();

export interface SandboxHandlerOptions {
  /** The base URL your client is configured with (it ends in the base path). Default: http://127.0.0.1:4020/v1. */
  baseUrl?: string;
}

/**
 * Handlers that hand every request under `baseUrl` (the API, any path: one the contract lacks gets the
 * sandbox's 404) and under its origin's `/_sandbox` (the control API) to `sandbox.fetch`, and answer what it
 * answers. The same engine then serves a test in-process, through MSW (in Node with setupServer, in a browser
 * with setupWorker) and over HTTP (`api-contract sandbox`).
 */
export function createSandboxHandlers(
  sandbox: { fetch(request: Request): Promise<Response> },
  options: SandboxHandlerOptions = {},
): HttpHandler[] {
  const baseUrl = new URL(options.baseUrl ?? SANDBOX_DEFAULT_BASE_URL);
  const base = `${baseUrl.origin}${baseUrl.pathname.replace(/\/+$/, "")}`;
  const answer = ({ request }: { request: Request }) => sandbox.fetch(request);
  return [
    mswHttp.all(base, answer),
    mswHttp.all(`${base}/*`, answer),
    mswHttp.all(`${baseUrl.origin}/_sandbox`, answer),
    mswHttp.all(`${baseUrl.origin}/_sandbox/*`, answer),
  ];
}
