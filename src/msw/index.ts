// In-process mocking for a consumer's unit tests, without any server: MSW request handlers for every
// operation of the contract, answering its documented examples, and openapi-msw's `http` typed by the
// contract for handlers of your own. Needs the optional peer dependencies msw (2.x) and openapi-msw; ESM only
// (openapi-msw is), so a require() of it gets the error of require.ts.
import type { HttpHandler } from "msw";
import { API_KEY_HEADER, MOCK_BASE_URL } from "../../generated/client-meta.js";
import type { paths } from "../../generated/schema.js";
import { openApiDocument } from "../contract/bundled.js";
import { type Answer, documentedAnswer, errorAnswer, parsePrefer } from "../mock/answers.js";
import { MOCK_IDENTITY } from "../mock/identity.js";
import { quoteExpiry } from "../mock/quote-expiry.js";
import { rateLimitHeaders } from "../mock/rate-limit.js";
import { listOperations, successKey } from "../openapi/document.js";
import { loadPeers } from "./peers.js";

export { MOCK_IDENTITY_HEADER } from "../mock/identity.js";
export { MOCK_QUOTE_VALIDITY_MS } from "../mock/quote-expiry.js";
export { MockUnavailableError } from "../mock/unavailable.js";

// Loading ./msw without its peers fails here with what to install (peers.ts).
const [{ HttpResponse }, { createOpenApiHttp }] = await loadPeers();

/** openapi-msw's `http`, typed by the contract: paths, parameters, bodies and responses are checked. */
export function createHttp(baseUrl: string = MOCK_BASE_URL) {
  return createOpenApiHttp<paths>({ baseUrl });
}

export interface HandlerOptions {
  /** The base URL your client is configured with (it ends in the base path). Default: MOCK_BASE_URL. */
  baseUrl?: string;
}

/**
 * One handler per operation. Each answers the operation's first documented success example with the
 * documented headers (the rate-limit headers included, their Reset and Remaining those of the moment of
 * the answer, as the mock writes them) and X-Api-Contract-Mock. Like the mock: a keyed operation called without
 * the API key gets its documented 401; `Prefer: code=<status>` and `Prefer: example=<name>` pick another
 * documented answer (an unknown one gets the documented 4XX with status 404). Requests are not validated
 * further: use the contract validator (`./contract`) for that. A quote expires MOCK_QUOTE_VALIDITY_MS after
 * the answer (the documented example's expiryDate is in the past); its other fields are the example's.
 */
export function createHandlers(options: HandlerOptions = {}): HttpHandler[] {
  const spec = openApiDocument;
  const quotes = quoteExpiry(spec);
  const limits = rateLimitHeaders(spec);
  /** The answer as written: rate-limit headers of this moment, and the mock's identity. */
  const respond = (answer: Answer): Response =>
    HttpResponse.json(answer.body ?? null, {
      status: answer.status,
      headers: { ...limits.refresh(answer.headers, answer.status), ...MOCK_IDENTITY },
    });
  const http = createHttp(options.baseUrl) as unknown as Record<
    string,
    (path: string, resolver: (info: { request: Request }) => Response) => HttpHandler
  >;
  return listOperations(spec).map((operation) => {
    const register = http[operation.method.toLowerCase()];
    if (!register) throw new Error(`msw: no handler factory for ${operation.method}`);
    const success = Number(successKey(operation) ?? 200);
    return register(operation.path, ({ request }) => {
      if (operation.security === "required" && !request.headers.get(API_KEY_HEADER))
        return respond(errorAnswer(spec, operation, 401));
      const prefer = parsePrefer(request.headers.get("prefer"));
      if ("error" in prefer) return respond(errorAnswer(spec, operation, 422));
      const answer = documentedAnswer(spec, operation, prefer.code ?? success, prefer.example);
      if (!answer) return respond(errorAnswer(spec, operation, 404));
      return respond({ ...answer, body: quotes.refresh(operation, answer.status, answer.body) });
    });
  });
}
