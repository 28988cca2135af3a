// Validation of the required base URL: absolute http(s), no credentials, query or fragment, path ending in the
// servers' base path (the version segment, from the spec).
import { BASE_PATH } from "../../generated/client-meta.js";

/** The base URL without a trailing slash, or a TypeError that names what is wrong with it. */
export function validateBaseUrl(value: unknown): string {
  const problem = (what: string, got = `; got ${JSON.stringify(value)}`) =>
    new TypeError(`createClient: baseUrl ${what}${got}. Example: "https://api.example.com${BASE_PATH}".`);
  if (typeof value !== "string" || value.trim() === "") {
    throw problem("is required and must be a non-empty string", `; got ${value === "" ? '""' : typeof value}`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw problem("must be an absolute URL (with http:// or https://)");
  }
  const { protocol, pathname } = url;
  if (protocol !== "http:" && protocol !== "https:") throw problem(`must use http or https, not ${protocol.slice(0, -1)}`);
  // Credentials in a URL end up in logs; the API key goes in a header (apiKey option).
  if (url.username || url.password) throw problem("must not contain credentials (pass the key as apiKey)", "");
  if (url.search || value.includes("?")) throw problem("must not contain a query string");
  if (url.hash || value.includes("#")) throw problem("must not contain a fragment (#…)");
  const path = pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  if (!path.endsWith(BASE_PATH)) throw problem(`must end with the version segment "${BASE_PATH}" (its path is "${pathname}")`);
  return `${url.origin}${path}`;
}
