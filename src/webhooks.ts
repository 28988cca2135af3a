// Webhook signatures, as the service's reference page Webhooks publishes them (the description does not give
// them): every webhook request carries `x-obiex-signature` (WEBHOOK_SIGNATURE_HEADER), the hex HMAC-SHA512 of
// the RAW request body keyed with the account's webhook Signature Secret (not the API secret). Only the body is
// signed. Web Crypto only (`crypto.subtle`), so one implementation serves Node ≥ 20 and browsers. Verification
// decodes the header and lets `subtle.verify` compare, which it does in constant time; the hex case of the
// header is not shown, so either case is accepted.

/** A webhook request's body exactly as received: UTF-8 text, or its bytes (a Node `Buffer` is a Uint8Array). */
export type WebhookBody = string | Uint8Array | ArrayBuffer;

/** An HMAC-SHA512 is 64 bytes: 128 hex digits. */
const SIGNATURE_HEX = /^[0-9a-fA-F]{128}$/;

function subtleCrypto(name: string): SubtleCrypto {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error(`${name}: webhook signatures need Web Crypto (crypto.subtle)`);
  return subtle;
}

/** The body's bytes, copied into a fresh ArrayBuffer (a view of a pooled or shared buffer is never passed on). */
function bodyBytes(name: string, rawBody: WebhookBody): Uint8Array<ArrayBuffer> {
  if (typeof rawBody === "string") return new TextEncoder().encode(rawBody);
  if (rawBody instanceof Uint8Array || rawBody instanceof ArrayBuffer) return new Uint8Array(rawBody);
  throw new TypeError(`${name}: rawBody must be the raw body as a string, Uint8Array or ArrayBuffer`);
}

function hmacKey(name: string, secret: string, usage: "sign" | "verify"): Promise<CryptoKey> {
  if (typeof secret !== "string" || secret === "")
    throw new TypeError(`${name}: the webhook Signature Secret is missing (a non-empty string is required)`);
  const raw = new TextEncoder().encode(secret);
  return subtleCrypto(name).importKey("raw", raw, { name: "HMAC", hash: "SHA-512" }, false, [usage]);
}

/**
 * The signature of a webhook body: lowercase hex HMAC-SHA512 of its bytes, keyed with the webhook Signature
 * Secret (UTF-8). For a receiver's own tests: send a body with this as its `x-obiex-signature`.
 */
export async function signWebhook(rawBody: WebhookBody, secret: string): Promise<string> {
  const name = "signWebhook";
  const key = await hmacKey(name, secret, "sign");
  const mac = await subtleCrypto(name).sign("HMAC", key, bodyBytes(name, rawBody));
  return Array.from(new Uint8Array(mac), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Whether `signatureHeader` (the `x-obiex-signature` value) is the signature of `rawBody` under `secret`.
 * Pass the body exactly as received, before any parsing: JSON parsed and serialised again has other bytes.
 * The header is trimmed; either hex case is accepted; anything but 128 hex digits (a missing header, an array
 * of values) is `false`, never a throw. The comparison is `crypto.subtle.verify`'s, in constant time. A missing
 * or empty secret is a TypeError.
 */
export async function verifyWebhookSignature(
  rawBody: WebhookBody,
  signatureHeader: string | readonly string[] | null | undefined,
  secret: string,
): Promise<boolean> {
  const name = "verifyWebhookSignature";
  const key = await hmacKey(name, secret, "verify");
  const bytes = bodyBytes(name, rawBody);
  if (typeof signatureHeader !== "string") return false;
  const hex = signatureHeader.trim();
  if (!SIGNATURE_HEX.test(hex)) return false;
  const signature = new Uint8Array(hex.length / 2);
  for (let i = 0; i < signature.length; i++) signature[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return subtleCrypto(name).verify("HMAC", key, signature, bytes);
}
