// Request signing, as observed in a real client of the service (the description does not mention it):
// `x-api-timestamp` (ms since the epoch, decimal) and `x-api-signature` = lowercase hex of
// HMAC-SHA256(apiSecret, METHOD + PATH + TIMESTAMP), PATH being the request's path with the base path
// (`/v1`) and the query string exactly as sent. Web Crypto only, so it runs in Node ≥ 20 and browsers.
import { SIGNING_HEADERS } from "../../generated/client-meta.js";

export { SIGNING_HEADERS };

const encoder = new TextEncoder();

/** The string that is signed: upper-case method, path with query as sent, timestamp. */
export function signingString(method: string, pathWithQuery: string, timestamp: string): string {
  return `${method.toUpperCase()}${pathWithQuery}${timestamp}`;
}

/** The two signing headers of one attempt. */
export interface Signature {
  timestamp: string;
  signature: string;
}

export type Signer = (method: string, url: string) => Promise<Signature>;

/**
 * A signer for one secret. The secret is imported once as a non-extractable key and not kept as a
 * string. `now` is the clock (ms since the epoch); each call takes a fresh timestamp.
 */
export function createSigner(secret: string, now: () => number = Date.now): Signer {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error("request signing needs Web Crypto (crypto.subtle)");
  const key = subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  key.catch(() => {}); // reported by the first signed request
  return async (method, url) => {
    const timestamp = String(now());
    // The path and query exactly as fetch sends them (`/v1/transactions/me?page=1`).
    const { pathname, search } = new URL(url);
    const mac = await subtle.sign(
      "HMAC",
      await key,
      encoder.encode(signingString(method, pathname + search, timestamp)),
    );
    return {
      timestamp,
      signature: Array.from(new Uint8Array(mac), (byte) => byte.toString(16).padStart(2, "0")).join(""),
    };
  };
}
