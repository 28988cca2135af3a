// createClient's options, checked once and resolved into the settings every call starts from, and the checks a
// call's own options get (timeout, size limit, path parameters). Each refusal is a TypeError that says what is
// wrong and never echoes a credential.
import { mergeHeaders } from "openapi-fetch";
import { API_KEY_HEADER } from "../../generated/client-meta.js";
import { validateBaseUrl } from "./base-url.js";
import { createRedactor, type Redactor } from "./redact.js";
import { DEFAULT_RETRY, type RetryOptions, resolveRetryOptions } from "./retry.js";
import { createSigner, type Signer } from "./signing.js";
import type { ClientHooks, ClientOptions, FetchLike } from "./types.js";

export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default `maxResponseBytes`: 16 MiB (the docs guide "The typed client" says why). */
const DEFAULT_MAX_RESPONSE_BYTES = 2 ** 24;
/** The longest delay setTimeout holds (2^31 − 1 ms, about 24.8 days): a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

/** A header value fetch sends unchanged: printable ASCII, no surrounding spaces (no line breaks or controls). */
const HEADER_SAFE = /^(?! )[ -~]+(?<! )$/;
/** A secret that is never sent: no control characters (a stray newline from a file), no surrounding white space. */
const SECRET_SAFE = /^(?!\s)[^\0-\x1f\x7f]+(?<!\s)$/;

/** What createClient's options resolve to: what every call of the client starts from. */
export interface ClientSettings {
  baseUrl: string;
  redact: Redactor;
  /** With an apiSecret: the secret lives on only inside it, as a non-extractable key. */
  signer: Signer | undefined;
  timeoutMs: number;
  maxBytes: number;
  retry: Readonly<RetryOptions>;
  hooks: ClientHooks;
  fetch: FetchLike | undefined;
  /** The headers every request carries (the extra headers, then the API key), as given to openapi-fetch. */
  headers: Record<string, string>;
  /** The same headers merged as openapi-fetch merges them, once: what a body serializer is given by default. */
  mergedHeaders: Headers;
}

/** Checks apiKey and apiSecret; the messages never echo the values. */
function validateCredentials(apiKey: unknown, apiSecret: unknown): void {
  const refuse = (what: string) => {
    throw new TypeError(`createClient: ${what}`);
  };
  const bad = " (no line breaks, control characters or surrounding spaces)";
  if (apiKey !== undefined && !(typeof apiKey === "string" && HEADER_SAFE.test(apiKey)))
    refuse(`apiKey must be printable ASCII${bad}`);
  if (apiSecret === undefined) return;
  if (!(typeof apiSecret === "string" && SECRET_SAFE.test(apiSecret)))
    refuse(`apiSecret must be a non-empty string${bad}`);
  if (apiKey === undefined) refuse("apiSecret signs an API key's requests: give apiKey too");
}

/** `value` when it is Infinity or `valid`, else a TypeError naming `name`, what it must be, and the value given. */
function limit(value: unknown, name: string, valid: boolean, what: string): number {
  if (value !== Infinity && !valid)
    throw new TypeError(`${name} must be ${what}, or Infinity to disable it; got ${String(value)}`);
  return value as number;
}

/** A timeout option (`name` for the message): a positive number of milliseconds setTimeout can hold. */
export const timeoutOf = (value: unknown, name: string) =>
  limit(
    value,
    name,
    typeof value === "number" && value > 0 && value <= MAX_TIMER_MS,
    `a positive number of milliseconds up to ${MAX_TIMER_MS}`,
  );

/** A size limit option (`name` for the message): a positive integer of bytes. */
export const maxBytesOf = (value: unknown, name: string) =>
  limit(value, name, Number.isInteger(value) && (value as number) > 0, "a positive integer (bytes)");

/** createClient's options, checked, with the defaults filled in. */
export function resolveClientSettings(options: ClientOptions): ClientSettings {
  if (options === null || typeof options !== "object") throw new TypeError("createClient: options are required");
  const baseUrl = validateBaseUrl(options.baseUrl);
  const { apiKey, apiSecret, fetch, timeoutMs, maxResponseBytes, retry } = options;
  validateCredentials(apiKey, apiSecret);
  const redact = createRedactor(apiKey, apiSecret);
  const signer = apiSecret === undefined ? undefined : createSigner(apiSecret);
  const settings = {
    baseUrl,
    redact,
    signer,
    timeoutMs: timeoutMs === undefined ? DEFAULT_TIMEOUT_MS : timeoutOf(timeoutMs, "createClient: timeoutMs"),
    maxBytes:
      maxResponseBytes === undefined
        ? DEFAULT_MAX_RESPONSE_BYTES
        : maxBytesOf(maxResponseBytes, "createClient: maxResponseBytes"),
    retry: resolveRetryOptions(DEFAULT_RETRY, retry === false ? { retries: 0 } : retry === true ? undefined : retry),
    hooks: { ...options.hooks },
  };
  if (fetch !== undefined && typeof fetch !== "function") throw new TypeError("createClient: fetch must be a function");
  const headers = { ...options.headers, ...(apiKey === undefined ? {} : { [API_KEY_HEADER]: apiKey }) };
  return { ...settings, fetch, headers, mergedHeaders: mergeHeaders(headers) };
}

/**
 * The path with its parameters filled in (to let a literal path win over a template). Refuses a missing value and
 * one that would send the request elsewhere: "." and ".." are dot segments that URL normalisation removes, and an
 * empty value leaves an empty segment (`/trades/quote/` instead of `/trades/quote/{quoteId}`).
 */
export function fillPath(method: string, template: string, values: Record<string, unknown> | undefined): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values?.[name];
    const text = String(value ?? "");
    if (/^\.{0,2}$/.test(text)) {
      const given = JSON.stringify(value);
      throw new TypeError(
        `${method} ${template}: path parameter "${name}" is ${given}, which sends the request to another path`,
      );
    }
    return text;
  });
}
