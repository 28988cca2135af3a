// Error classes of the client. None of them holds the API key, the request or its headers.
import type { RateLimitState } from "./rate-limit.js";

/** Where a failed call was going. `path` is the spec's path template, e.g. `/trades/quote/{quoteId}`. */
export interface RequestInfo {
  method: string;
  path: string;
  operationId: string | undefined;
  /** The final URL including the query string (the URL the call was made for when a middleware answers it itself). */
  url: string;
}

function describe(info: RequestInfo): string {
  return `${info.method} ${info.path}${info.operationId ? ` (${info.operationId})` : ""}`;
}

/** Base class of every error the client raises. */
export class ClientError extends Error {
  // `declare`: assigned in the constructor, no field initialisers emitted (smaller bundle).
  declare readonly method: string;
  declare readonly path: string;
  declare readonly operationId: string | undefined;
  declare readonly url: string;

  constructor(message: string, info: RequestInfo, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.method = info.method;
    this.path = info.path;
    this.operationId = info.operationId;
    this.url = info.url;
  }

  /** JSON of an error keeps its name and message (plain Error JSON drops both). */
  toJSON(): Record<string, unknown> {
    return { ...(this as object), name: this.name, message: this.message };
  }
}

const MESSAGE_PREVIEW = 200;

/** ": <message>" of the published error body (`{ message, errors }`), shortened; "" for any other body. */
function bodyMessage(body: unknown): string {
  const message = (body as { message?: unknown } | null)?.message;
  if (typeof body !== "object" || typeof message !== "string" || message.trim() === "") return "";
  const flat = message.replace(/\s+/g, " ").trim();
  return `: ${flat.length > MESSAGE_PREVIEW ? `${flat.slice(0, MESSAGE_PREVIEW - 1)}…` : flat}`;
}

/**
 * A non-2xx answer, raised by `unwrap()`. The `{ data, error, response }` result carries the same facts. Its message
 * ends with the error body's own message, when the body has one.
 */
export class ApiError<Body = unknown> extends ClientError {
  declare readonly status: number;
  declare readonly statusText: string;
  /**
   * The parsed error body (the published `{ message, errors }` when the answer has it, else any JSON), or its text;
   * redacted.
   */
  declare readonly body: Body;
  /** Rate-limit headers of this response. */
  declare readonly rateLimit: RateLimitState | undefined;
  /** The Response (not enumerable: kept out of logs and JSON). */
  declare readonly response: Response;

  constructor(
    info: RequestInfo,
    status: number,
    statusText: string,
    body: Body,
    rateLimit: RateLimitState | undefined,
    response: Response,
  ) {
    const reason = bodyMessage(body);
    super(`${describe(info)} failed with HTTP ${status}${statusText ? ` ${statusText}` : ""}${reason}`, info);
    this.status = status;
    this.statusText = statusText;
    this.body = body;
    this.rateLimit = rateLimit;
    Object.defineProperty(this, "response", { value: response }); // not enumerable
  }
}

/** No complete response within `timeoutMs` (per attempt). */
export class TimeoutError extends ClientError {
  declare readonly timeoutMs: number;
  /** Number of attempts made, retries included. */
  declare readonly attempts: number;

  constructor(info: RequestInfo, timeoutMs: number, attempts: number) {
    super(`${describe(info)} timed out after ${timeoutMs} ms${attempts > 1 ? ` (attempt ${attempts})` : ""}`, info);
    this.timeoutMs = timeoutMs;
    this.attempts = attempts;
  }
}

/** The request could not be sent or its response not received (refused, reset, DNS…). `cause` has the details. */
export class NetworkError extends ClientError {
  declare readonly attempts: number;

  constructor(info: RequestInfo, attempts: number, cause: unknown) {
    const reason = networkReason(cause);
    const after = attempts > 1 ? ` after ${attempts} attempts` : "";
    super(`${describe(info)} failed: network error${reason ? ` (${reason})` : ""}${after}`, info, { cause });
    this.attempts = attempts;
  }
}

/** Why a response was refused: see `InvalidResponseError.reason`. */
export type InvalidResponseReason = "content-type" | "invalid-json" | "too-large";

/**
 * A successful status whose body is not the JSON the operation documents, or a body (any status) over
 * `maxResponseBytes`.
 */
export class InvalidResponseError extends ClientError {
  declare readonly status: number;
  declare readonly contentType: string | null;
  /**
   * `content-type`: the media type is not JSON; `invalid-json`: the body does not parse; `too-large`: the body is
   * longer than `maxResponseBytes` (by its Content-Length, or counted while it arrived). Never retried.
   */
  declare readonly reason: InvalidResponseReason;
  /** The start of the body (at most 200 characters, after redaction), when it could be read. */
  declare readonly bodyPreview: string | undefined;

  constructor(
    info: RequestInfo,
    status: number,
    contentType: string | null,
    reason: InvalidResponseReason,
    bodyPreview: string | undefined,
    cause?: unknown,
    /** The limit a `too-large` body went over, for the message. */
    maxResponseBytes?: number,
  ) {
    const what =
      reason === "content-type"
        ? `content-type ${contentType ?? "(none)"} instead of JSON`
        : reason === "invalid-json"
          ? "a body that is not valid JSON"
          : `a body over maxResponseBytes (${maxResponseBytes} bytes)`;
    super(`${describe(info)} answered HTTP ${status} with ${what}`, info, cause === undefined ? undefined : { cause });
    this.status = status;
    this.contentType = contentType;
    this.reason = reason;
    this.bodyPreview = bodyPreview;
  }
}

/** The error code (ECONNREFUSED, UND_ERR_SOCKET…) of the failure or its cause (fetch wraps it), else its message. */
function networkReason(cause: unknown): string | undefined {
  const error = cause as { code?: string; message?: string; cause?: { code?: string } } | undefined;
  return error?.code ?? error?.cause?.code ?? error?.message;
}
