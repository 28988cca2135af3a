// Request signing as the sandbox checks it (choices.ts, "signing"): an account with an API secret needs the two
// signing headers, the signature being the hex HMAC-SHA256 of METHOD + PATH + TIMESTAMP that the package's client
// computes (src/client/signing.ts: the same signing string and header names), over the query as sent or as the
// later official client encodes it, with a timestamp near the client's wall clock (transport time, not business
// time) or the sandbox clock. Web Crypto only, so it runs in a browser too.
import { SIGNING_HEADERS, signingString } from "../client/signing.js";
import type { PipelineRequest } from "../pipeline/pipeline.js";
import { SIGNATURE_WINDOW_MS } from "./rules.js";
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
type SignatureCheck = (secret: string, request: SignedRequest, clocks: SigningClocks) => Promise<string | undefined>;

/** The moments a timestamp may be near (ms): the client's wall clock, and the sandbox's clock (choices.ts). */
interface SigningClocks {
  wall: number;
  sandbox: number;
}

const toHex = (bytes: ArrayBuffer): string =>
  Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");

/**
 * The query as the later official client signs it (observed, C2): each name and value percent-encoded with
 * encodeURIComponent (`:` as `%3A`), while its HTTP library sends `:` as is. Undefined when that is the target.
 */
function clientEncodedTarget(target: string): string | undefined {
  const mark = target.indexOf("?");
  if (mark < 0) return undefined;
  const pairs = [...new URLSearchParams(target.slice(mark + 1))].map(
    ([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`,
  );
  const encoded = `${target.slice(0, mark)}?${pairs.join("&")}`;
  return encoded === target ? undefined : encoded;
}

/** Whether `timestamp` is within the window of either clock. */
const timely = (timestamp: string, { wall, sandbox }: SigningClocks): boolean =>
  /^[0-9]+$/.test(timestamp) &&
  (Math.abs(Number(timestamp) - wall) <= SIGNATURE_WINDOW_MS ||
    Math.abs(Number(timestamp) - sandbox) <= SIGNATURE_WINDOW_MS);

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
  const signatureOf = async (secret: string, method: string, target: string, timestamp: string) =>
    toHex(
      await crypto.subtle.sign("HMAC", await keyOf(secret), encoder.encode(signingString(method, target, timestamp))),
    );
  return async (secret, { method, target, headers }, clocks) => {
    const timestamp = single(headers[SIGNING_HEADERS.timestamp]);
    const signature = single(headers[SIGNING_HEADERS.signature]);
    if (timestamp === undefined || signature === undefined)
      return `this API key signs its requests: ${SIGNED_BY} are required`;
    if (!timely(timestamp, clocks))
      return (
        `${SIGNING_HEADERS.timestamp} must be within ${WINDOW_SECONDS} s of the time (${clocks.wall}) or of the ` +
        `sandbox clock (${clocks.sandbox})`
      );
    if ((await signatureOf(secret, method, target, timestamp)) === signature) return undefined;
    const encoded = clientEncodedTarget(target);
    if (encoded !== undefined && (await signatureOf(secret, method, encoded, timestamp)) === signature)
      return undefined;
    return `${SIGNING_HEADERS.signature} does not match the request`;
  };
}
