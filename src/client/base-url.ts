// Validation of the required base URL: absolute http(s), no credentials, query or fragment, path ending in the
// servers' base path (the version segment, from the spec).
import { BASE_PATH } from "../../generated/client-meta.js";

/**
 * The base URL without a trailing slash, or a TypeError that names what is wrong with it (and the value, unless it
 * holds credentials).
 */
export function validateBaseUrl(value: unknown): string {
  const problem = (what: string, got = JSON.stringify(value)) =>
    new TypeError(
      `createClient: baseUrl ${what}${got && `; got ${got}`}. Example: "https://api.example.com${BASE_PATH}"`,
    );
  if (typeof value !== "string" || !value.trim())
    throw problem("is required and must be a non-empty string", value === "" ? '""' : typeof value);
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {}
  if (!url || !/^https?:$/.test(url.protocol)) throw problem("must be an absolute http:// or https:// URL");
  // Credentials in a URL end up in logs; the API key goes in a header (apiKey option).
  if (url.username || url.password) throw problem("must not contain credentials (pass the key as apiKey)", "");
  if (/[?#]/.test(value)) throw problem("must not contain a query string or a fragment");
  const { pathname } = url;
  const path = pathname.replace(/\/$/, "");
  if (!path.endsWith(BASE_PATH))
    throw problem(`must end with the version segment "${BASE_PATH}" (its path is "${pathname}")`);
  return url.origin + path;
}
