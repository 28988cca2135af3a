// The limits of one request to the mock, and the statuses that say which one a request broke. The mock's
// own server (src/mock/server.ts) applies them:
//   - the whole request (head and body) must arrive within `requestTimeoutMs` (startMock's option, default
//     DEFAULT_REQUEST_TIMEOUT_MS), else 408: an idle connection, or a head or body that stops;
//   - a URL (the request target) of at most MAX_URL_BYTES, else 414;
//   - header fields of at most MAX_HEADER_BYTES (each line counted with its ": " and CRLF), else 431;
//   - Node's parser reads at most MAX_HEAD_BYTES of request line and header fields together; past it, it stops
//     and reports only the bytes it was reading (headOverflowStatus tells 414 from 431 by them).
// A body over maxBodyBytes is 413 (src/mock/server.ts).

/** Requests larger than this are refused (413): every request body of the contract is a few hundred bytes. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Time a client has to send a whole request, head and body: 60 s. Every request of the contract is small. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** Longest request target (path and query): 8 KiB, the length RFC 9110 §4.1 asks every recipient to support. */
export const MAX_URL_BYTES = 8 * 1024;

/** Largest header section (every header line with its CRLF): 16 KiB, Node's default limit for a whole head. */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Node's parser limit (`maxHeaderSize`) for request line and header fields together: beyond the two above, and
 * below the 64 KiB Node reads from a socket at once, so that a head sent at once is over it in its first piece.
 */
export const MAX_HEAD_BYTES = 32 * 1024;

/**
 * The bytes of a request's header fields as sent: `name: value` and CRLF per line. Node's parser gives each name
 * and value as text of one character per byte received (latin1), so a byte outside ASCII counts one, as sent.
 */
export function headerBytes(rawHeaders: readonly string[]): number {
  let total = 0;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) total += rawHeaders[i]!.length + rawHeaders[i + 1]!.length + 4;
  return total;
}

/**
 * 414 or 431 for a head Node's parser refused as too large (HPE_HEADER_OVERFLOW), from the bytes it was
 * reading when it stopped (the error's rawPacket: the last piece received, not the whole head). When they
 * begin with the request line (the head came in one piece), the larger of the request line and the header
 * lines after it is blamed. A later piece is still the request line while it holds no line end: 414 (or one
 * header line longer than the limit by itself, which cannot be told apart); with a line end, 431.
 */
export function headOverflowStatus(bytes: Buffer | undefined): 414 | 431 {
  if (!bytes?.length) return 431;
  const text = bytes.toString("latin1");
  const lineEnd = text.indexOf("\r\n");
  if (/^[A-Z]+ /.test(text)) {
    const requestLine = lineEnd === -1 ? text.length : lineEnd;
    return requestLine >= text.length - requestLine ? 414 : 431;
  }
  return lineEnd === -1 ? 414 : 431;
}
