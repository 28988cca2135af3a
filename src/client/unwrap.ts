// Opt-in throwing style: `const quote = await unwrap(client.POST(...))` returns `data` or throws ApiError.
import { ApiError, type RequestInfo } from "./errors.js";
import { readRateLimit } from "./rate-limit.js";

/**
 * Key of the non-enumerable property on a call's result that holds the call's RequestInfo. `Symbol.for`, so that
 * every copy of this package (the ESM and the CJS build, two versions side by side) finds the same key: `unwrap`
 * from one copy reads a result made by another. The error body on the result is already redacted by the client.
 */
export const REQUEST_INFO: unique symbol = Symbol.for("trading-wallet-settlement.request") as never;

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
  const settled = (await result) as R & { [REQUEST_INFO]?: RequestInfo };
  const { data, error, response } = settled;
  if (response.ok && error === undefined) return data as Exclude<R["data"], undefined>;
  const info = settled[REQUEST_INFO] ?? {
    method: "UNKNOWN",
    path: pathOf(response.url),
    operationId: undefined,
    url: response.url,
  };
  throw new ApiError(info, response.status, response.statusText, error, readRateLimit(response.headers), response);
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
