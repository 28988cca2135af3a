// In-process mocking for a consumer's unit tests, without any server: MSW request handlers for every
// operation of the contract, answering its documented examples; handlers that hand every request to a sandbox
// (./sandbox: the API with state) instead; and openapi-msw's `http` typed by the contract for handlers of your
// own. Needs the optional peer dependency msw, 2 or 3 (createHandlers and createSandboxHandlers work with
// either). createHttp needs the optional peer openapi-msw as well, and so only works with msw 2: openapi-msw 2.0.0
// supports msw 2 alone (its peer range is msw ^2.10.5, and npm refuses to install it next to msw 3); with msw 3,
// write your own handlers with msw's `http`. ESM only (openapi-msw and msw 3 are), so a require() of it gets the
// error of require.ts.
import type { HttpHandler } from "msw";
import { MOCK_BASE_URL } from "../../generated/client-meta.js";
import type { paths } from "../../generated/schema.js";
import { openApiDocument } from "../contract/bundled.js";
import { createDocumentedSource } from "../pipeline/documented-source.js";
import { answerFetchRequest } from "../pipeline/fetch-front.js";
import { createRequestPipeline } from "../pipeline/pipeline.js";
import { MockUnavailableError } from "../mock/unavailable.js";
import { listOperations } from "../openapi/document.js";
import { loadPeers } from "./peers.js";

export { MOCK_IDENTITY_HEADER } from "../pipeline/identity.js";
export { MOCK_QUOTE_VALIDITY_MS } from "../pipeline/quote-expiry.js";
export { MockUnavailableError };

// Loading ./msw without msw fails here with what to install; without openapi-msw, createHttp does (peers.ts).
const { msw, openapiMsw } = await loadPeers();

/**
 * openapi-msw's `http`, typed by the contract: paths, parameters, bodies and responses are checked. Only with
 * msw 2: it needs the optional peer openapi-msw, whose 2.0.0 supports msw 2 alone (peer range msw ^2.10.5).
 * Without openapi-msw it throws a MockUnavailableError that says so; with msw 3, use msw's own `http`.
 */
export function createHttp(baseUrl: string = MOCK_BASE_URL) {
  // A new error for a missing openapi-msw, so that its stack shows this call rather than the entry's loading.
  if (openapiMsw instanceof MockUnavailableError) throw new MockUnavailableError(openapiMsw.message);
  if (openapiMsw instanceof Error) throw openapiMsw;
  return openapiMsw.createOpenApiHttp<paths>({ baseUrl });
}

export interface HandlerOptions {
  /** The base URL your client is configured with (it ends in the base path). Default: MOCK_BASE_URL. */
  baseUrl?: string;
  /** The clock of quote expiry and rate-limit headers (ms since the epoch). Default Date.now. */
  now?: () => number;
}

/**
 * One handler per operation, each the MSW front of the mock's request pipeline (src/pipeline/pipeline.ts) with the
 * documented examples as its answer source. So a request is checked as the mock checks it: a keyed operation
 * called without the API key gets 401, an invalid parameter or body 422, malformed JSON 400 (the mock's
 * refusals, each with the published error body: a message saying what went wrong and one item per finding,
 * the findings in sl-violations too). Else the answer is the operation's first documented success example with
 * the documented headers (the rate-limit headers of the moment of the answer, as the mock writes them) and
 * X-Api-Contract-Mock; `Prefer: code=<status>` and `Prefer: example=<name>` pick another documented answer (an
 * unknown one is refused with 404). A quote expires its own `expiresIn` seconds after the answer (the
 * documented example's expiryDate is in the past). With msw 2 or 3 (msw alone: openapi-msw is not needed).
 */
export function createHandlers(options: HandlerOptions = {}): HttpHandler[] {
  const spec = openApiDocument;
  // Without its trailing slashes, as a client joins it: "…/v1/" and "…/v1" serve the same paths.
  const baseUrl = (options.baseUrl ?? MOCK_BASE_URL).replace(/\/+$/, "");
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, "");
  const source = createDocumentedSource(spec);
  const pipeline = createRequestPipeline({ spec, source, basePaths: basePath ? [basePath] : [], now: options.now });
  return listOperations(spec).map((operation) => {
    const register = msw.http[operation.method.toLowerCase() as keyof typeof msw.http];
    if (!register) throw new Error(`msw: no handler factory for ${operation.method}`);
    // MSW's path syntax, as openapi-msw writes it: the base URL, then each {parameter} as :parameter.
    const path = `${baseUrl}${operation.path.replaceAll("{", ":").replaceAll("}", "")}`;
    return register(path, ({ request }) => answerFetchRequest(pipeline, request));
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
 * with setupWorker) and over HTTP (`api-contract sandbox`). With msw 2 or 3 (msw alone: openapi-msw is not needed).
 */
export function createSandboxHandlers(
  sandbox: { fetch(request: Request): Promise<Response> },
  options: SandboxHandlerOptions = {},
): HttpHandler[] {
  const baseUrl = new URL(options.baseUrl ?? SANDBOX_DEFAULT_BASE_URL);
  const base = `${baseUrl.origin}${baseUrl.pathname.replace(/\/+$/, "")}`;
  const answer = ({ request }: { request: Request }) => sandbox.fetch(request);
  return [
    msw.http.all(base, answer),
    msw.http.all(`${base}/*`, answer),
    msw.http.all(`${baseUrl.origin}/_sandbox`, answer),
    msw.http.all(`${baseUrl.origin}/_sandbox/*`, answer),
  ];
}
