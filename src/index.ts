// Public surface: the typed client, its errors and helpers, the webhook signature helpers, the closed enums, and
// every contract type.
import type { paths } from "../generated/schema.js";
import { OPERATION_IDS } from "../generated/client-meta.js";
import { createTypedClient } from "./client/create-client.js";
import type { ClientOptions, TypedClient } from "./client/types.js";

/** The client of this API: an openapi-fetch client typed by the contract's `paths`. */
export type ApiClient = TypedClient<paths>;

/**
 * Creates a client. `baseUrl` (absolute http(s), ending in `/v1`) is required; `apiKey` is sent as `x-api-key`;
 * with `apiSecret`, every attempt is signed (`x-api-timestamp`, `x-api-signature`; observed, not in the description).
 * Defaults: 30 s timeout per attempt; GET retried twice on network errors, 429, 502, 503, 504; POST never retried.
 */
export function createClient(options: ClientOptions): ApiClient {
  return createTypedClient<paths>(options, OPERATION_IDS);
}

export { MOCK_BASE_URL, SPEC_VERSION, SIGNING_HEADERS, WEBHOOK_SIGNATURE_HEADER } from "../generated/client-meta.js";
export { createSigner, signingString, type Signer, type Signature } from "./client/signing.js";
// Receiving webhooks (published on the service's page Webhooks): check `x-obiex-signature` over the raw body.
export { signWebhook, verifyWebhookSignature, type WebhookBody } from "./webhooks.js";
export * from "../generated/enums.js";
export { DEFAULT_TIMEOUT_MS } from "./client/options.js";
export { DEFAULT_RETRY, type RetryOptions } from "./client/retry.js";
export {
  ClientError,
  ApiError,
  TimeoutError,
  NetworkError,
  InvalidResponseError,
  type RequestInfo,
} from "./client/errors.js";
export type { RateLimitState } from "./client/rate-limit.js";
export { unwrap, type FetchResult } from "./client/unwrap.js";
// The methods a typed call names (`get`, `post`…): public so that declarations built from the client's types can
// name it (it lives in the OpenAPI module, a chunk of its own in dist/).
export type { HttpMethod } from "./openapi/document.js";
export { isQuoteExpired, quoteTimeLeftMs, hasMorePages } from "./client/helpers.js";
export type {
  ClientOptions,
  ClientHooks,
  FetchLike,
  RequestOverrides,
  RequestEvent,
  ResponseEvent,
  RetryEvent,
  RateLimitWaitEvent,
} from "./client/types.js";
export type * from "./types.js";
