// Request signing as the sandbox checks it (choices.ts, "signing"): an account with an API secret needs the two
// signing headers, the signature being the hex HMAC-SHA256 of METHOD + PATH + TIMESTAMP that the package's client
// computes (src/client/signing.ts: the same signing string and header names), with a timestamp near the sandbox
// clock. Web Crypto only, so it runs in a browser too.
import { SIGNING_HEADERS, signingString } from "../client/signing.js";
import type { PipelineRequest } from "../pipeline/pipeline.js";
import { SIGNATURE_WINDOW_MS } from "./choices.js";
import { single } from "./engine.js";

const encoder = new TextEncoder();
/** The two headers a signed request carries, as refusals name them. */
const SIGNED_BY = `${SIGNING_HEADERS.timestamp} and ${SIGNING_HEADERS.signature}`;
const WINDOW_SECONDS = SIGNATURE_WINDOW_MS / 1000;

interface SignedRequest {
  method: string;
  /** Path and query as sent (what the client signs). */
  target: string;
  headers: PipelineRequest["headers"];
}

/** Checks signatures; undefined when the request is signed as it should be, else what is wrong. */
type SignatureCheck = (secret: string, request: SignedRequest, now: number) => Promise<string | undefined>;

const toHex = (bytes: ArrayBuffer): string =>
  Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");

export function createSignatureCheck(): SignatureCheck {
  const keys = new Map<string, Promise<CryptoKey>>();
  const keyOf = (secret: string): Promise<CryptoKey> => {
    let key = keys.get(secret);
    if (!key) {
      const raw = encoder.encode(secret);
      key = crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
      keys.set(secret, key);
    }
    return key;
  };
  return async (secret, { method, target, headers }, now) => {
    const timestamp = single(headers[SIGNING_HEADERS.timestamp]);
    const signature = single(headers[SIGNING_HEADERS.signature]);
    if (timestamp === undefined || signature === undefined)
      return `this API key signs its requests: ${SIGNED_BY} are required`;
    if (!/^[0-9]+$/.test(timestamp) || Math.abs(Number(timestamp) - now) > SIGNATURE_WINDOW_MS)
      return `${SIGNING_HEADERS.timestamp} must be within ${WINDOW_SECONDS} s of the sandbox clock (${now})`;
    const mac = await crypto.subtle.sign(
      "HMAC",
      await keyOf(secret),
      encoder.encode(signingString(method, target, timestamp)),
    );
    return toHex(mac) === signature ? undefined : `${SIGNING_HEADERS.signature} does not match the request`;
  };
}
