// The mock of the whole API: Prism's engine answering from the contract's examples, in this process,
// behind the mock's own server (server.ts) and request pipeline (pipeline.ts, shared with ./msw), every
// operation under the contract's base path (`/v1`).
import type { OpenApiDocument } from "../openapi/document.js";
import { FULL_REPORT_MAX_BYTES } from "../pipeline/body-check.js";
import { MAX_VIOLATIONS } from "./engine.js";
import { MOCK_IDENTITY_HEADER, PACKAGE_VERSION } from "../pipeline/identity.js";
import { startMockServer } from "./server.js";
import { deriveMockSpec } from "./spec.js";

export { FULL_REPORT_MAX_BYTES } from "../pipeline/body-check.js";
export { MAX_VIOLATIONS, MockUnavailableError, PRISM_ENGINE_PACKAGE } from "./engine.js";
export { MOCK_IDENTITY_HEADER, PACKAGE_VERSION } from "../pipeline/identity.js";
export { MOCK_QUOTE_VALIDITY_MS } from "../pipeline/quote-expiry.js";
export { DEFAULT_REQUEST_TIMEOUT_MS, MAX_HEAD_BYTES, MAX_HEADER_BYTES, MAX_URL_BYTES } from "../pipeline/limits.js";
export { DEFAULT_MAX_BODY_BYTES } from "../pipeline/limits.js";

export interface StartMockOptions {
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** 0 or absent: a free port. */
  port?: number;
  /** The bundled contract to serve. Default: this package's. */
  spec?: OpenApiDocument;
  /** Receives one line per request and per problem the mock absorbed. */
  log?: (line: string) => void;
  /** Larger request bodies are refused with 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** A request (head and body) that has not arrived within this many ms is refused with 408. Default 60 s. */
  requestTimeoutMs?: number;
}

export interface StartedMock {
  /** e.g. http://127.0.0.1:4010/v1 */
  baseUrl: string;
  /** e.g. http://127.0.0.1:4010 */
  origin: string;
  host: string;
  port: number;
  /** What the served copy of the contract changes (for Prism) and what the mock answers itself. */
  fixes: string[];
  stop(): Promise<void>;
}

const MOCK_FIXES = [
  "a path no operation has answers 404, a method the path lacks 405 with Allow, " +
    "both with the documented error response and headers",
  'malformed or whitespace-only JSON answers 400; a null, false, 0 or "" JSON body where the body is optional 422 ' +
    "(Prism takes it for no body); a body over the size limit 413; an empty query or header value the parameter " +
    "refuses 422 (Prism lets it through)",
  "a request parameter or body that does not match its schema answers 422 with the contract validator's findings, " +
    "as the ./msw handlers answer it",
  "what Prism refuses (an unknown Prefer example, an unacceptable Accept) keeps Prism's status with the documented " +
    "error response and headers, Prism's reason in sl-violations",
  "a body in a content type the operation does not take answers 415, as the ./msw handlers answer it",
  "every error the mock answers with findings about the request (its own refusals, and Prism's, such as an " +
    "unknown Prefer example) has " +
    "the published error body: a message saying what went wrong, and errors naming each finding, with its " +
    "property (a JSON pointer into the body, or a parameter or header name) where it has one; " +
    "sl-violations lists the same findings",
  "header values echoed from the request are escaped, so no request can stop the mock",
  "a request not received in time answers 408, a URL too long 414, header fields too large 431 " +
    "(Node's parser says 400)",
  `a JSON body over ${FULL_REPORT_MAX_BYTES} bytes that does not match its schema answers 422 with its first ` +
    `violation only (Prism would collect every one); at most ${MAX_VIOLATIONS} violations are reported`,
  "a quote's expiryDate is its own expiresIn seconds after the answer (the documented example's is in the past)",
  "X-RateLimit-Reset is the end of the current window (the documented example's is in the past), " +
    "X-RateLimit-Remaining 0 on a 429 and never above X-RateLimit-Limit",
  `every answer carries ${MOCK_IDENTITY_HEADER}: ${PACKAGE_VERSION}, the mock's own header ` +
    "(the contract does not declare it)",
];

/**
 * Starts the mock in this process on host:port and resolves once it listens. `stop()` closes it.
 * Usable from a vitest globalSetup. Needs the optional peer dependency @stoplight/prism-http.
 */
export async function startMock(options: StartMockOptions = {}): Promise<StartedMock> {
  const host = options.host ?? "127.0.0.1";
  const input = options.spec ?? (await import("../contract/bundled.js")).openApiDocument;
  const { spec, basePath, fixes } = deriveMockSpec(input);
  const server = await startMockServer({
    spec,
    host,
    port: options.port ?? 0,
    log: options.log,
    maxBodyBytes: options.maxBodyBytes,
    requestTimeoutMs: options.requestTimeoutMs,
  });
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${server.port}`;
  return {
    baseUrl: `${origin}${basePath}`,
    origin,
    host,
    port: server.port,
    fixes: [...fixes, ...MOCK_FIXES],
    stop: () => server.close(),
  };
}
