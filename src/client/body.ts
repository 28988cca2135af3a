// Reading the body of the response that ends a call, inside its last attempt (so the attempt's timeout and the
// network errors cover it): the size limit (Content-Length first, else counted as it arrives), the content type a
// JSON call needs, parsing for `parseAs` as openapi-fetch would, and the readable copy handed on when someone else
// (openapi-fetch for an error body, middleware for any body) reads it too.
import { isJsonMediaType } from "../openapi/document.js";
import { InvalidResponseError, type InvalidResponseReason, type RequestInfo } from "./errors.js";
import { type Redactor, redactError } from "./redact.js";

const PREVIEW_LENGTH = 200;
const decoder = new TextDecoder();
const ignore = () => {};

/** How one call reads its answer. */
export interface BodyReading {
  /** openapi-fetch's `parseAs` of the call: "json" (default), "text", "blob", "arrayBuffer" or "stream". */
  parseAs: string;
  maxBytes: number;
  redact: Redactor;
  /** The call's facts, for the InvalidResponseError that refuses a body. */
  info: RequestInfo;
  /** Whether middleware sees the call: it may read any body, so every body is handed on as a readable copy. */
  middlewareSees: boolean;
}

/** What was read of the response that ended a call. */
export interface ReadAnswer {
  /** The response as it came from the network (what the caller gets back). */
  network: Response;
  /** What openapi-fetch gets: the network response, or a readable copy of it when its body is read again. */
  forOpenApiFetch: Response;
  /** The parsed success body (undefined for an error, an answer without a body, or a stream). */
  data: unknown;
  /** True when the caller reads the body itself (`parseAs: "stream"`): the attempt's timeout stays armed. */
  streaming: boolean;
}

function refuse(
  response: Response,
  reading: BodyReading,
  reason: InvalidResponseReason,
  preview?: string,
  cause?: unknown,
) {
  const type = response.headers.get("content-type");
  return new InvalidResponseError(reading.info, response.status, type, reason, preview, cause, reading.maxBytes);
}

/** The whole body as bytes, counted as it arrives: over `max` bytes, reading stops and `tooLarge()` is thrown. */
async function readBytes(response: Response, max: number, tooLarge: () => Error): Promise<Uint8Array<ArrayBuffer>> {
  const reader = response.body?.getReader();
  const chunks: Array<Uint8Array<ArrayBuffer>> = [];
  let size = 0;
  for (;;) {
    const chunk = await reader?.read();
    if (!chunk || chunk.done) break;
    size += chunk.value.byteLength;
    if (size > max) {
      reader!.cancel().catch(ignore);
      throw tooLarge();
    }
    chunks.push(chunk.value);
  }
  return chunks.length === 1 ? chunks[0]! : new Uint8Array(await new Blob(chunks).arrayBuffer());
}

/**
 * Whether the body's size is known before reading: a Content-Length within the limit (checked before) and no
 * content coding (fetch decodes one, and a decoded body can be larger than its length says). Such a body is read in
 * one go, no chunk loop: the common case, where the loop's promise per chunk is most of the client's own cost.
 */
function hasDeclaredLength(response: Response, length: string | null): boolean {
  const coding = response.headers.get("content-encoding");
  return length !== null && /^\d+$/.test(length) && (coding === null || coding.toLowerCase() === "identity");
}

/** Whether the body is wanted as text: JSON and text success bodies (every error body is text too). */
const isTextual = (parseAs: string) => parseAs === "json" || parseAs === "text";

/** A success body parsed for `parseAs` (openapi-fetch's values); JSON that does not parse is refused. */
function parseBody(body: string | Uint8Array<ArrayBuffer>, response: Response, reading: BodyReading): unknown {
  const { parseAs } = reading;
  if (typeof body !== "string")
    return parseAs === "blob"
      ? new Blob([body], { type: response.headers.get("content-type") ?? "" })
      : body.slice().buffer;
  try {
    return parseAs === "text" ? body : body ? JSON.parse(body) : undefined;
  } catch (error) {
    throw refuse(response, reading, "invalid-json", undefined, redactError(error, reading.redact));
  }
}

/** Refuses a JSON call's success body whose content type is not JSON, with the start of the body, redacted. */
function checkJsonContentType(response: Response, body: string, reading: BodyReading): void {
  const type = response.headers.get("content-type");
  // Redacted whole, then cut: a cut first could leave part of a credential.
  if (type !== null && !isJsonMediaType(type))
    throw refuse(response, reading, "content-type", reading.redact(body).slice(0, PREVIEW_LENGTH));
}

/**
 * Reads the body of `response`, the answer to a `method` call that is not retried. Answers without a body (204,
 * HEAD, Content-Length 0) and streams are handed on unread; a body over the limit is refused unread when its
 * Content-Length says so.
 */
export async function readAnswer(response: Response, method: string, reading: BodyReading): Promise<ReadAnswer> {
  const { status, ok, headers } = response;
  const length = headers.get("content-length");
  if (Number(length) > reading.maxBytes) throw refuse(response, reading, "too-large");
  if (status === 204 || method === "HEAD" || length === "0")
    return { network: response, forOpenApiFetch: response, data: undefined, streaming: false };
  if (ok && reading.parseAs === "stream")
    return { network: response, forOpenApiFetch: response, data: undefined, streaming: true };
  const bytes = hasDeclaredLength(response, length)
    ? new Uint8Array(await response.arrayBuffer())
    : await readBytes(response, reading.maxBytes, () => refuse(response, reading, "too-large"));
  const body = isTextual(reading.parseAs) || !ok ? decoder.decode(bytes) : bytes;
  if (!ok)
    return { network: response, forOpenApiFetch: readableCopy(response, body), data: undefined, streaming: false };
  if (reading.parseAs === "json") checkJsonContentType(response, body as string, reading);
  const data = parseBody(body, response, reading);
  const forOpenApiFetch = reading.middlewareSees ? readableCopy(response, body) : response;
  return { network: response, forOpenApiFetch, data, streaming: false };
}

/** A response like `response` whose body (already read) can be read again; 205 and 304 cannot carry one. */
function readableCopy(response: Response, body: string | Uint8Array<ArrayBuffer>): Response {
  const { status, statusText, headers } = response;
  return new Response(status === 205 || status === 304 ? null : body, { status, statusText, headers });
}

/** The success body of a response a middleware answered with or replaced, read and parsed like the client's own. */
export async function readReplacedBody(response: Response, reading: BodyReading): Promise<unknown> {
  const bytes = await readBytes(response, reading.maxBytes, () => refuse(response, reading, "too-large"));
  return parseBody(isTextual(reading.parseAs) ? decoder.decode(bytes) : bytes, response, reading);
}
