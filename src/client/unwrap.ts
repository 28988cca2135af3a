// Opt-in throwing style: `const quote = await unwrap(client.POST(...))` returns `data` or throws ApiError.
import { callRecords } from "./create-client.js";
import { ApiError, type RequestInfo } from "./errors.js";
import { readRateLimit } from "./rate-limit.js";
import { redactValue, noRedaction } from "./redact.js";

/** The shape openapi-fetch resolves to. */
export interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * The `data` of a successful call; throws `ApiError` (status, method, path, operationId, body, rate limit) for a
 * non-2xx answer. Timeouts and network failures already reject the call itself (TimeoutError, NetworkError).
 */
export async function unwrap<R extends FetchResult>(result: R | Promise<R>): Promise<Exclude<R["data"], undefined>> {
  const { data, error, response } = await result;
  if (response.ok && error === undefined) return data as Exclude<R["data"], undefined>;
  const record = callRecords.get(response);
  const info: RequestInfo = record ?? { method: "UNKNOWN", path: pathOf(response.url), operationId: undefined, url: response.url };
  throw new ApiError(
    info,
    response.status,
    response.statusText,
    redactValue(error, record?.redact ?? noRedaction),
    readRateLimit(response.headers),
    response,
  );
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
