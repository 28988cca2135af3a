// The mock's HTTP server: the Node front (http-front.ts, shared with the sandbox) of the request pipeline
// (pipeline.ts), whose answer source is Prism's engine (engine.ts) in this process. The pipeline checks and
// answers every request (see there for its refusals: 400, 401, 404, 405, 422); the front reads requests and
// writes answers, and refuses what only a transport can see (413, 408, 414, 431, a request Node cannot parse),
// each with the pipeline's documented error response and its headers (the rate-limit headers).
import type { OpenApiDocument } from "../openapi/document.js";
import { createPrismSource } from "./engine.js";
import { type AnsweringSide, startHttpFront } from "../pipeline/http-front.js";
import { MOCK_IDENTITY } from "../pipeline/identity.js";
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_REQUEST_TIMEOUT_MS } from "../pipeline/limits.js";
import { createRequestPipeline } from "../pipeline/pipeline.js";

interface MockServerOptions {
  /** The mock-only contract (paths under the base path). */
  spec: OpenApiDocument;
  host: string;
  port: number;
  maxBodyBytes?: number;
  /** A request (head and body) that has not arrived within it is refused with 408. Default 60 s. */
  requestTimeoutMs?: number;
  /** One line per request (`GET /v1/... → 200 (2 ms)`) and per problem the mock absorbed. */
  log?: (line: string) => void;
  /** The clock of quote expiry and rate-limit headers (ms since the epoch). Default Date.now. */
  now?: () => number;
}

export interface MockServer {
  port: number;
  close(): Promise<void>;
}

/** Starts the mock's server on host:port (0 = a free port). */
export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  const { spec, log } = options;
  const source = await createPrismSource(spec);
  const pipeline = createRequestPipeline({ spec, source, now: options.now });
  const side: AnsweringSide = {
    name: "mock",
    answer: (request, body) =>
      pipeline.handle({
        method: String(request.method ?? "GET"),
        url: String(request.url ?? "/"),
        headers: request.headers,
        body: body.toString("utf8"),
      }),
    refuse: (status, why, request) => pipeline.refuse(status, why, request),
    preflightHeaders: MOCK_IDENTITY,
  };
  return startHttpFront({
    side,
    host: options.host,
    port: options.port,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    requestTimeout: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    log,
  });
}
