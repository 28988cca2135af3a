// The mock's HTTP server: every request is read and checked here, answered by Prism's engine (engine.ts)
// in this process, and written here. What Prism would answer wrongly or not at all is answered from the
// contract instead, always with the documented error response and its headers (the rate-limit headers):
//   - a path no operation has (404), a method the path lacks (405, with Allow);
//   - a body that is too large (413), malformed JSON or only whitespace (400), or a falsy JSON value
//     (null, false, 0, "") where the body is optional (422: Prism would take it for no body);
//   - an empty query or header value a parameter's schema refuses (422: Prism lets `?status=` and an empty
//     `x-api-signature` through);
//   - whatever Prism refuses itself (an unknown `Prefer: example=`, an unacceptable Accept): its status,
//     the documented body and headers, and Prism's reason in `sl-violations`;
//   - a request that breaks a limit of limits.ts (408, 414, 431), and a JSON body over
//     FULL_REPORT_MAX_BYTES that does not match its schema (422 with its first violation, body-check.ts:
//     Prism would spend seconds collecting every violation of a large one);
//   - anything that fails inside the engine (400, logged): no request gets a 5xx or a non-JSON answer.
// Header values Prism echoes from the request are escaped, so no request can make a write throw, and a
// request Node's parser refuses gets a JSON 400 with the rate-limit headers too. A quote in an answer
// expires MOCK_QUOTE_VALIDITY_MS after the answer (quote-expiry.ts): the documented one is in the past; the
// rate-limit headers of every answer are those of its moment (rate-limit.ts), and every answer says it is
// this package's mock (identity.ts).
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  HTTP_METHODS,
  type JsonObject,
  listOperations,
  type OpenApiDocument,
  type Operation,
  OperationMatcher,
} from "../openapi/document.js";
import { flattenSchema } from "../openapi/schema.js";
import { type Answer, errorAnswer, parsePrefer, safeHeaderValue, violationsHeader } from "./answers.js";
import { createBodyCheck, FULL_REPORT_MAX_BYTES } from "./body-check.js";
import { createMockEngine, type MockEngine } from "./engine.js";
import { MOCK_IDENTITY } from "./identity.js";
import {
  DEFAULT_REQUEST_TIMEOUT_MS,
  headerBytes,
  headOverflowStatus,
  MAX_HEAD_BYTES,
  MAX_HEADER_BYTES,
  MAX_URL_BYTES,
} from "./limits.js";
import { quoteExpiry } from "./quote-expiry.js";
import { rateLimitHeaders } from "./rate-limit.js";

/** Requests larger than this are refused (413): every request body of the contract is a few hundred bytes. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface MockServerOptions {
  /** The mock-only contract (paths under the base path). */
  spec: OpenApiDocument;
  host: string;
  port: number;
  maxBodyBytes?: number;
  /** A request (head and body) that has not arrived within it is refused with 408. Default 60 s. */
  requestTimeoutMs?: number;
  /** One line per request (`GET /v1/... → 200 (2 ms)`) and per problem the mock absorbed. */
  log?: (line: string) => void;
}

export interface MockServer {
  port: number;
  close(): Promise<void>;
}

/** The headers of every answer: the mock's identity and CORS for any origin. */
const answerHeaders = (request: http.IncomingMessage): Record<string, string> => ({
  ...MOCK_IDENTITY,
  "access-control-allow-origin": safeHeaderValue(String(request.headers.origin ?? "*")),
  "access-control-allow-headers": safeHeaderValue(String(request.headers["access-control-request-headers"] ?? "*")),
  "access-control-allow-credentials": "true",
  "access-control-expose-headers": "*",
});

function isJsonContentType(value: string | undefined): boolean {
  const type = String(value ?? "")
    .split(";")[0]!
    .trim()
    .toLowerCase();
  return type === "application/json" || type.endsWith("+json");
}

/** Whether a query value of "" can satisfy the parameter's schema (enum, const, type, minLength, pattern). */
function acceptsEmpty(spec: OpenApiDocument, parameter: JsonObject): boolean {
  for (const part of flattenSchema(spec, parameter.schema)) {
    if (Array.isArray(part.enum) && !part.enum.includes("")) return false;
    if ("const" in part && part.const !== "") return false;
    const types = part.type === undefined ? undefined : Array.isArray(part.type) ? part.type : [part.type];
    if (types && !types.includes("string")) return false;
    if (typeof part.minLength === "number" && part.minLength > 0) return false;
    if (typeof part.pattern === "string" && !new RegExp(part.pattern, "u").test("")) return false;
  }
  return true;
}

function serialize(body: unknown, contentType: string | undefined): string {
  if (body === undefined || body === null) return body === null ? "null" : "";
  if (typeof body === "string" && !isJsonContentType(contentType)) return body;
  return JSON.stringify(body);
}

function write(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  answer: Answer,
  extra: Record<string, string> = {},
): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const text = answer.body === undefined ? "" : JSON.stringify(answer.body);
  const headers: Record<string, string | number> = {
    ...answerHeaders(request),
    ...answer.headers,
    ...extra,
    "content-length": Buffer.byteLength(text),
  };
  response.writeHead(answer.status, headers);
  response.end(request.method === "HEAD" ? undefined : text);
}

interface Route {
  operation: Operation;
  /** Documented query parameters that cannot be empty. */
  nonEmptyQuery: Set<string>;
  /** Documented header parameters that cannot be empty (lower-cased): the signing headers. */
  nonEmptyHeaders: Set<string>;
}

/** Starts the mock's server on host:port (0 = a free port). */
export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  const { spec, log } = options;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const engine: MockEngine = await createMockEngine(spec);
  const operations = listOperations(spec);
  const matcher = new OperationMatcher(operations, []);
  const quotes = quoteExpiry(spec);
  const limits = rateLimitHeaders(spec);
  const bodyCheck = createBodyCheck(spec);
  /** The documented error answer for `status`, its rate-limit headers those of this moment. */
  const refusal = (operation: Operation | undefined, status: number): Answer => {
    const answer = errorAnswer(spec, operation, status);
    return { ...answer, headers: limits.refresh(answer.headers, status) };
  };
  const routes = new Map<Operation, Route>(
    operations.map((operation) => [
      operation,
      {
        operation,
        nonEmptyQuery: new Set(
          operation.parameters.filter((p) => p.in === "query" && !acceptsEmpty(spec, p)).map((p) => String(p.name)),
        ),
        nonEmptyHeaders: new Set(
          operation.parameters
            .filter((p) => p.in === "header" && !acceptsEmpty(spec, p))
            .map((p) => String(p.name).toLowerCase()),
        ),
      },
    ]),
  );
  /** The methods some operation has at this concrete path (for 405 and Allow). */
  const allowedMethods = (path: string): string[] =>
    HTTP_METHODS.map((m) => m.toUpperCase()).filter((method) => matcher.find(method, path) !== undefined);

  const refuse = (
    request: http.IncomingMessage,
    response: http.ServerResponse,
    operation: Operation | undefined,
    status: number,
    why: string,
    extra: Record<string, string> = {},
  ) => {
    write(request, response, refusal(operation, status), {
      ...extra,
      "sl-violations": violationsHeader([{ location: ["request"], severity: "Error", message: why }]),
    });
    log?.(`${request.method} ${safeHeaderValue(String(request.url))} → ${status} (${why})`);
  };

  /** The request target as a URL, or undefined where it is none (Node's parser takes "//", the URL parser not). */
  function requestUrl(request: http.IncomingMessage): URL | undefined {
    try {
      return new URL(request.url ?? "/", "http://mock.invalid");
    } catch {
      return undefined;
    }
  }

  async function handle(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    body: Buffer,
    started: number,
  ): Promise<void> {
    const method = (request.method ?? "GET").toUpperCase();
    const url = requestUrl(request);
    if (url === undefined) return refuse(request, response, undefined, 400, "the request target is not a valid URL");
    const path = url.pathname;
    if (method === "OPTIONS" && request.headers.origin && request.headers["access-control-request-method"]) {
      response.writeHead(204, {
        ...answerHeaders(request),
        "access-control-allow-methods": safeHeaderValue(String(request.headers["access-control-request-method"])),
        vary: "origin",
        "content-length": "0",
      });
      response.end();
      return;
    }
    const operation = matcher.find(method, path);
    if (!operation) {
      const allowed = allowedMethods(path);
      if (allowed.length)
        return refuse(
          request,
          response,
          matcher.find(allowed[0]!, path),
          405,
          `${method} is not an operation of ${path}`,
          {
            allow: allowed.join(", "),
          },
        );
      return refuse(request, response, undefined, 404, `no operation of the contract has the path ${path}`);
    }
    const route = routes.get(operation)!;
    let parsedBody: unknown;
    if (body.length) {
      const text = body.toString("utf8");
      if (isJsonContentType(request.headers["content-type"])) {
        if (text.trim() === "") return refuse(request, response, operation, 400, "the JSON body is only whitespace");
        try {
          parsedBody = JSON.parse(text);
        } catch (error) {
          return refuse(request, response, operation, 400, `the body is not valid JSON (${(error as Error).message})`);
        }
        if (!parsedBody && operation.requestBody && operation.requestBody.required !== true) {
          return refuse(
            request,
            response,
            operation,
            422,
            'a JSON body that is null, false, 0 or "" is not an absent body',
          );
        }
      } else parsedBody = text;
    }
    for (const name of route.nonEmptyQuery) {
      if (url.searchParams.getAll(name).some((value) => value === ""))
        return refuse(request, response, operation, 422, `query parameter ${name} must not be empty`);
    }
    // Prism lets an empty value of these optional headers through; an empty value is a malformed one.
    for (const name of route.nonEmptyHeaders) {
      if (request.headers[name] === "")
        return refuse(request, response, operation, 422, `header ${name} must not be empty`);
    }
    if (body.length > FULL_REPORT_MAX_BYTES && parsedBody !== undefined && typeof parsedBody !== "string") {
      const first = bodyCheck.firstViolation(operation, parsedBody);
      if (first)
        return refuse(
          request,
          response,
          operation,
          422,
          `${first} (the body is over ${FULL_REPORT_MAX_BYTES} bytes: its first violation only)`,
        );
    }
    const prefer = parsePrefer(typeof request.headers.prefer === "string" ? request.headers.prefer : undefined);
    if ("error" in prefer) return refuse(request, response, operation, 422, prefer.error);
    const query: Record<string, string | string[]> = {};
    for (const key of new Set(url.searchParams.keys())) {
      const values = url.searchParams.getAll(key);
      query[key] = values.length === 1 ? values[0]! : values;
    }
    const answer = await engine.answer(
      { method: method.toLowerCase(), url: { path, query }, headers: request.headers, body: parsedBody },
      prefer,
    );
    if (answer.kind === "refused") {
      const status = answer.status >= 400 && answer.status < 500 ? answer.status : 400;
      return refuse(request, response, operation, status, `Prism refused the request: ${answer.reason}`);
    }
    const own: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(answer.headers))
      own[name.toLowerCase()] = Array.isArray(value) ? value.map(safeHeaderValue) : safeHeaderValue(String(value));
    const headers = { ...answerHeaders(request), ...limits.refresh(own, answer.status) };
    if (answer.violations.length) headers["sl-violations"] = violationsHeader(answer.violations);
    const answered = quotes.refresh(operation, answer.status, answer.body);
    const text = serialize(answered, String(headers["content-type"] ?? ""));
    response.writeHead(answer.status, { ...headers, "content-length": Buffer.byteLength(text) });
    response.end(method === "HEAD" ? undefined : text);
    log?.(`${method} ${path} → ${answer.status} (${Math.round(performance.now() - started)} ms)`);
  }

  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const serverOptions: http.ServerOptions = {
    keepAliveTimeout: 30_000,
    requestTimeout,
    headersTimeout: requestTimeout,
    // How often Node looks for requests past their time (its default, 30 s, would answer 408 up to 30 s late).
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(requestTimeout / 4))),
    maxHeaderSize: MAX_HEAD_BYTES,
  };
  const server = http.createServer(serverOptions, (request, response) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    /** Refuses before the body is read (and drains it), closing the connection. */
    const refuseEarly = (status: number, why: string) => {
      refused = true;
      const url = requestUrl(request);
      const operation = url === undefined ? undefined : matcher.find(String(request.method), url.pathname);
      refuse(request, response, operation, status, why, { connection: "close" });
      request.resume();
    };
    const urlBytes = Buffer.byteLength(String(request.url));
    if (urlBytes > MAX_URL_BYTES) refuseEarly(414, `the URL is ${urlBytes} bytes long, over ${MAX_URL_BYTES}`);
    else if (headerBytes(request.rawHeaders) > MAX_HEADER_BYTES)
      refuseEarly(431, `the header fields are ${headerBytes(request.rawHeaders)} bytes, over ${MAX_HEADER_BYTES}`);
    request.on("data", (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > maxBodyBytes) {
        refuseEarly(413, `the body is larger than ${maxBodyBytes} bytes`);
        return;
      }
      chunks.push(chunk);
    });
    request.on("error", () => response.destroy());
    request.on("end", () => {
      if (refused) return;
      handle(request, response, Buffer.concat(chunks), started).catch((error: unknown) => {
        log?.(
          `mock: ${request.method} ${request.url} failed inside the mock and was answered 400: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
        refuse(request, response, undefined, 400, "the mock could not answer this request (see its log)");
      });
    });
  });
  // A request Node's HTTP parser refuses gets JSON too: 408 when it did not arrive in time, 414 or 431 when
  // its head is over the parser's limit (limits.ts), else 400 (bad header bytes, a broken request line…).
  server.on("clientError", (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    if (!socket.writable || error.code === "ECONNRESET") return socket.destroy();
    const status =
      error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? 408
        : error.code === "HPE_HEADER_OVERFLOW"
          ? headOverflowStatus(error.rawPacket)
          : 400;
    const answer = refusal(undefined, status);
    const text = JSON.stringify(answer.body);
    const headers = Object.entries({
      ...answer.headers,
      ...MOCK_IDENTITY,
      "content-length": String(Buffer.byteLength(text)),
      connection: "close",
    })
      .map(([name, value]) => `${name}: ${value}`)
      .join("\r\n");
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${headers}\r\n\r\n${text}`);
    log?.(`mock: refused a request Node could not parse (${error.code ?? error.message})`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
