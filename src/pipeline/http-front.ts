// The node:http front shared by the mock's server (src/mock/server.ts) and the sandbox's (src/sandbox/server.ts):
// it reads requests and writes answers, and refuses what only a transport can see, always with the answering side's
// documented error answer (its `refuse`), never a bare Node error:
//   - a body that is too large (413), a request that breaks a limit of limits.ts (408, 414, 431);
//   - a CORS preflight gets 204 with CORS headers; every answer carries CORS headers for any origin, but those of
//     requests the side keeps to its own origin (sameOriginOnly: the sandbox's control API), whose preflights it
//     answers itself;
//   - anything that fails inside the answering side, or an answer Node refuses to write (400, logged): no request
//     gets a 5xx from the transport or a non-JSON answer.
// The body is read chunk by chunk as it arrives (and decoded as it arrives, for a side that reads text) and dropped
// once over the limit, so a slow or large request holds nothing but its own connection, and a large one costs
// little at its end, when the other requests wait (one of many MiB is joined there in steps). Header values echoed
// from the request are escaped, so no request can make a write throw, and a request Node's parser refuses gets a
// JSON 400 with the rate-limit headers.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { safeHeaderValue } from "./answers.js";
import { headerBytes, headOverflowStatus, MAX_HEAD_BYTES, MAX_HEADER_BYTES, MAX_URL_BYTES } from "./limits.js";
import { type Eventually, isPromise, type PipelineAnswer, parseUrl } from "./pipeline.js";

/** What answers behind the front: a request read whole, and the documented error answer of a refusal. */
export interface AnsweringSide {
  /** The name log lines and the 400 of a failure give it ("mock", "sandbox"). */
  name: string;
  answer(request: http.IncomingMessage, body: Buffer): Eventually<PipelineAnswer>;
  /** The documented error answer for `status`, `why` in its findings; `request`'s operation's where it has one. */
  refuse(status: number, why: string, request?: { method: string; url: string }): PipelineAnswer;
  /** Headers every preflight answer carries besides CORS (the mock's identity). */
  preflightHeaders?: Record<string, string>;
  /**
   * Whether `request` is one only the side's own origin may make: its answers carry no CORS header, and a preflight
   * for it is not answered 204 but handed to the side as any request is (for it to refuse). None when not given.
   */
  sameOriginOnly?(request: http.IncomingMessage): boolean;
  /** The Date header of its answers, where it is not this machine's time (the sandbox's: its own clock). */
  date?(): string;
  /** The most bytes of a body the side takes for `request`, where it is not the front's maxBodyBytes. */
  bodyLimit?(request: http.IncomingMessage): number | undefined;
}

interface HttpFrontOptions {
  side: AnsweringSide;
  host: string;
  port: number;
  maxBodyBytes: number;
  /** A request (head and body) that has not arrived within it is refused with 408. */
  requestTimeout: number;
  log?: (line: string) => void;
}

interface HttpFront {
  port: number;
  close(): Promise<void>;
}

/** The CORS headers of a request that names no origin and no headers (most): the same for each, made once. */
const ANY_ORIGIN_CORS: Readonly<Record<string, string>> = Object.freeze({
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "*",
  "access-control-allow-credentials": "true",
  "access-control-expose-headers": "*",
});

/** The CORS headers of an answer the side keeps to its own origin: none. */
const NO_CORS: Readonly<Record<string, string>> = Object.freeze({});

/** The CORS headers of every answer: any origin, any header. */
const corsHeaders = (request: http.IncomingMessage): Readonly<Record<string, string>> => {
  const { origin, "access-control-request-headers": requested } = request.headers;
  if (origin === undefined && requested === undefined) return ANY_ORIGIN_CORS;
  return {
    "access-control-allow-origin": safeHeaderValue(String(origin ?? "*")),
    "access-control-allow-headers": safeHeaderValue(String(requested ?? "*")),
    "access-control-allow-credentials": "true",
    "access-control-expose-headers": "*",
  };
};

function isPreflight(request: http.IncomingMessage): boolean {
  return request.method === "OPTIONS" && !!request.headers.origin && !!request.headers["access-control-request-method"];
}

/** Answers a CORS preflight: 204, the requested method allowed. */
function writePreflight(request: http.IncomingMessage, response: http.ServerResponse, extra: Record<string, string>) {
  response.writeHead(204, {
    ...corsHeaders(request),
    ...extra,
    "access-control-allow-methods": safeHeaderValue(String(request.headers["access-control-request-method"])),
    vary: "origin",
    "content-length": "0",
  });
  response.end();
}

/**
 * When answers go out. With more than one connection open, an answer waits for the end of the event loop's turn
 * (setImmediate), and the answers of one turn are written together: the work of every request that arrived in
 * the turn runs first, then the writes (each a syscall that wakes the client). Interleaved, each write evicted
 * the caches the next request's work needed. The sandbox against the same build writing at once, in alternating
 * rounds (2026-11-28, 16 connections): 2–30% more answers a second and 14–29% less CPU per answer, GET and Create
 * Quote alike. With one connection an answer is written at once: waiting would only add latency; and while a
 * large body arrives, answers are written at once too, so that none waits behind its decoding and
 * parsing (the turns are long then, and a GET's latency is what the stall bench measures).
 */
class AnswerWriter {
  private openConnections = 0;
  /** Requests whose body is large, until they are answered or their connection closes. */
  private readonly large = new Set<http.ServerResponse>();
  private queue: Array<() => void> = [];

  /** Counts the connections of `server` open. */
  watch(server: http.Server): void {
    server.on("connection", (socket: Duplex) => {
      this.openConnections++;
      socket.once("close", () => this.openConnections--);
    });
  }

  /** `response`'s request has a large body: answers go out at once until it is answered. */
  largeBody(response: http.ServerResponse): void {
    if (this.large.has(response)) return;
    this.large.add(response);
    this.flush();
    response.once("close", () => this.large.delete(response));
  }

  /** Sends an answer at once, or at the end of the turn with the others of the turn (see above). */
  send(send: () => void): void {
    if (this.openConnections <= 1 || this.large.size > 0) {
      send();
      return;
    }
    this.queue.push(send);
    if (this.queue.length === 1) setImmediate(() => this.flush());
  }

  /** Sends what waits (at the end of the turn, and before the server closes). */
  flush(): void {
    const waiting = this.queue;
    this.queue = [];
    for (const send of waiting) send();
  }
}

/** Resolves once `response`'s socket has taken what was written ('drain'), or the connection has closed. */
function drained(response: http.ServerResponse): Promise<void> {
  if (response.destroyed) return Promise.resolve(); // closed already: no 'close' to wait for
  return new Promise((resolve) => {
    const settle = () => {
      response.off("drain", settle);
      response.off("close", settle);
      resolve();
    };
    response.on("drain", settle);
    response.on("close", settle);
  });
}

/** Stops `chunks` unread (a HEAD, an answer that cannot go out): what makes them is ended. */
const dropChunks = (chunks: AsyncIterable<Uint8Array>) => void chunks[Symbol.asyncIterator]().return?.();

/**
 * Sends `chunks` after the head, each once the socket has taken the one before ('drain' where `write` finds its
 * buffer full), so a client that reads slowly holds the making of the chunks, not memory. A client that goes ends
 * them unread (leaving the loop returns their iterator).
 */
async function sendChunks(response: http.ServerResponse, chunks: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const chunk of chunks) {
    if (response.destroyed) return;
    if (!response.write(chunk)) await drained(response);
  }
  if (!response.destroyed) response.end();
}

/**
 * Writes an answer whose body is made as it is sent (`answer.stream`), when `writer` sends it: its head with no
 * content-length (the body goes chunked), then its chunks as the socket takes them; a HEAD gets the head only. Its
 * status is out before its end, so a stream that fails after the head cannot become another answer: the
 * connection is closed at once, the client sees a body cut short, and `broken` is told why. `done` as write's.
 */
function writeStreamed(
  writer: AnswerWriter,
  [request, response]: [http.IncomingMessage, http.ServerResponse],
  { status, stream }: { status: number; stream: AsyncIterable<Uint8Array> },
  headers: Record<string, string | string[]>,
  { done, broken }: { done?: (error?: unknown) => void; broken?: (error: unknown) => void },
): void {
  writer.send(() => {
    if (response.headersSent) {
      dropChunks(stream);
      return void response.end();
    }
    try {
      response.writeHead(status, headers);
    } catch (error) {
      dropChunks(stream);
      if (done) return done(error);
      return void response.destroy();
    }
    done?.();
    if (request.method === "HEAD") {
      dropChunks(stream);
      return void response.end();
    }
    sendChunks(response, stream).catch((error) => {
      broken?.(error);
      response.destroy();
    });
  });
}

/**
 * Writes an answer (no body to a HEAD), with `cors` headers and `extra`, when `writer` sends it; then calls `done`,
 * with the error when Node refused to write it (a header value with a line break…): at once or at the end of the
 * turn alike. Without `done`, such a failure closes the connection: no client waits for an answer that is lost.
 * An answer with a stream goes by writeStreamed (`broken`: told why its stream failed).
 */
function write(
  writer: AnswerWriter,
  request: http.IncomingMessage,
  response: http.ServerResponse,
  answer: PipelineAnswer,
  cors: Readonly<Record<string, string>>,
  extra: Record<string, string> = {},
  done?: (error?: unknown) => void,
  broken?: (error: unknown) => void,
): void {
  if (answer.stream) {
    const streamed = { status: answer.status, stream: answer.stream };
    writeStreamed(writer, [request, response], streamed, { ...cors, ...answer.headers, ...extra }, { done, broken });
    return;
  }
  const headers = {
    ...cors,
    ...answer.headers,
    ...extra,
    "content-length": Buffer.byteLength(answer.body),
  };
  writer.send(() => {
    if (response.headersSent) return void response.end(); // an answer went out first: it stands
    try {
      response.writeHead(answer.status, headers);
      response.end(request.method === "HEAD" ? undefined : answer.body);
    } catch (error) {
      if (done) return done(error);
      return void response.destroy();
    }
    done?.();
  });
}

/** `log` as the front calls it: a log function that throws costs no answer (said once, as a process warning). */
function neverThrowing(log: (line: string) => void): (line: string) => void {
  let said = false;
  return (line) => {
    try {
      log(line);
    } catch (error) {
      if (said) return;
      said = true;
      process.emitWarning(`the HTTP front's log function threw (its lines are dropped when it does): ${error}`);
    }
  };
}

/**
 * A body over this many bytes is far over any of the contract's (a few hundred bytes): from there on it is read
 * one chunk per turn of the event loop (paceLargeBody).
 */
const LARGE_BODY_BYTES = 64 * 1024;

/**
 * Reads no more of `request` in this turn of the event loop: Node reads up to 32 chunks of a socket in one go, so a
 * large body would otherwise arrive, be decoded and be parsed whole before any other request is looked at.
 */
function paceLargeBody(request: http.IncomingMessage): void {
  request.pause();
  setImmediate(() => request.resume());
}

/**
 * A body over this many bytes is joined at its end a step of this many bytes at a time, with a turn of the event
 * loop between two steps: joined in one go, a body of hundreds of MiB (a whole state put back into the sandbox)
 * held every other request meanwhile (222 MiB: 0.15 to 0.5 s).
 */
const JOIN_STEP_BYTES = 8 * 1024 * 1024;

/** A request body as it arrives: its chunks, joined once at its end. */
class BodyReader {
  size = 0;
  private readonly chunks: Buffer[] = [];

  add(chunk: Buffer): void {
    this.size += chunk.length;
    this.chunks.push(chunk);
  }

  /** Whether the body is joined in steps (bytesInTurns), not at once (bytes). */
  get large(): boolean {
    return this.size > JOIN_STEP_BYTES && this.chunks.length > 1;
  }

  /** The body as one Buffer (one chunk as it is: no copy). */
  readonly bytes = (): Buffer => (this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size));

  /** The body as one Buffer, its chunks copied into it JOIN_STEP_BYTES at a time, a turn of the event loop between. */
  async bytesInTurns(): Promise<Buffer> {
    const joined = Buffer.allocUnsafe(this.size);
    let at = 0;
    let step = 0;
    for (const chunk of this.chunks) {
      if (step >= JOIN_STEP_BYTES) {
        await new Promise((resolve) => setImmediate(resolve));
        step = 0;
      }
      chunk.copy(joined, at);
      at += chunk.length;
      step += chunk.length;
    }
    return joined;
  }
}

/** Logs that the streamed answer to `request` broke off after its head (its connection closed). */
const brokenLine = (request: http.IncomingMessage, log: (line: string) => void) => (error: unknown) => {
  const target = safeHeaderValue(String(request.url));
  const why = error instanceof Error ? error.message : String(error);
  log(`${request.method} ${target}: the answer's body broke off after its head, the connection is closed (${why})`);
};

/**
 * How the front answers its requests, each answer logged: `answer`, the side's answer to a request read whole (a
 * failure to give or write it answered 400), and `refuse`, a refusal of the front's own that closes the connection.
 */
function createRequestAnswerer(side: AnsweringSide, writer: AnswerWriter, log?: (line: string) => void) {
  /** The CORS headers of `request`'s answer (one call a request: each answer below is written once). */
  const corsOf = (request: http.IncomingMessage) => (side.sameOriginOnly?.(request) ? NO_CORS : corsHeaders(request));
  /** `extra` with the side's Date header, when it writes its own. */
  const dated = (extra?: Record<string, string>) => (side.date ? { ...extra, date: side.date() } : extra);
  const refuse = (request: http.IncomingMessage, response: http.ServerResponse, status: number, why: string) => {
    const answer = side.refuse(status, why, { method: String(request.method), url: String(request.url) });
    write(writer, request, response, answer, corsOf(request), dated({ connection: "close" }));
    log?.(`${request.method} ${safeHeaderValue(String(request.url))} → ${status} (${why})`);
  };
  /** Writes `answered` and logs it; a failure to write it is answered 400 (`failed`). */
  const respond = (
    request: http.IncomingMessage,
    response: http.ServerResponse,
    answered: PipelineAnswer,
    started: number,
  ) => {
    const done = (error?: unknown) => {
      if (error !== undefined) return failed(request, response, error);
      if (!log) return;
      const url = String(request.url ?? "/");
      const path = (answered.why === undefined && parseUrl(url)?.pathname) || safeHeaderValue(url);
      const outcome = answered.why ?? `${Math.round(performance.now() - started)} ms`;
      log(`${String(request.method ?? "GET").toUpperCase()} ${path} → ${answered.status} (${outcome})`);
    };
    // Only an answer with a stream can break off after its head.
    const broken = answered.stream && log && brokenLine(request, log);
    write(writer, request, response, answered, corsOf(request), dated(), done, broken);
  };
  /**
   * Answers a request read whole. An answer given at once is written in this turn, with no promise made for it
   * (most answers, and a promise per request is work for the collector); a thrown error is answered 400. A large
   * body is joined in steps first (BodyReader.bytesInTurns).
   */
  const answer = (request: http.IncomingMessage, response: http.ServerResponse, body: BodyReader) => {
    if (!body.large) return answerBytes(request, response, body.bytes());
    body.bytesInTurns().then(
      (bytes) => answerBytes(request, response, bytes),
      (error) => failed(request, response, error),
    );
  };
  const answerBytes = (request: http.IncomingMessage, response: http.ServerResponse, bytes: Buffer) => {
    const started = log ? performance.now() : 0;
    try {
      const given = side.answer(request, bytes);
      if (!isPromise(given)) return respond(request, response, given, started);
      given
        .then((answered) => respond(request, response, answered, started))
        .catch((error) => failed(request, response, error));
    } catch (error) {
      failed(request, response, error);
    }
  };
  const failed = (request: http.IncomingMessage, response: http.ServerResponse, error: unknown) => {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    log?.(
      `${side.name}: ${request.method} ${request.url} failed inside the ${side.name} and was answered 400: ${detail}`,
    );
    const why = `the ${side.name} could not answer this request (see its log)`;
    write(writer, request, response, side.refuse(400, why), corsOf(request), dated());
    log?.(`${request.method} ${safeHeaderValue(String(request.url))} → 400 (${why})`);
  };
  return { refuse, answer };
}

/** The front's request handler: one request read whole (within maxBodyBytes), answered, logged. */
function createRequestHandler(
  side: AnsweringSide,
  maxBodyBytes: number,
  writer: AnswerWriter,
  log?: (line: string) => void,
) {
  const { refuse, answer } = createRequestAnswerer(side, writer, log);
  return (request: http.IncomingMessage, response: http.ServerResponse) => {
    if (isPreflight(request) && !side.sameOriginOnly?.(request))
      return void request.resume().on("end", () => writePreflight(request, response, side.preflightHeaders ?? {}));
    const body = new BodyReader();
    const limit = side.bodyLimit?.(request) ?? maxBodyBytes;
    let refused = false;
    /** Refuses before the body is read (and drains it), closing the connection. */
    const refuseEarly = (status: number, why: string) => {
      refused = true;
      refuse(request, response, status, why);
      request.resume();
    };
    // One character per byte received, as Node's parser gives the target (see headerBytes).
    const urlBytes = String(request.url).length;
    const headBytes = headerBytes(request.rawHeaders);
    if (urlBytes > MAX_URL_BYTES) refuseEarly(414, `the URL is ${urlBytes} bytes long, over ${MAX_URL_BYTES}`);
    else if (headBytes > MAX_HEADER_BYTES)
      refuseEarly(431, `the header fields are ${headBytes} bytes, over ${MAX_HEADER_BYTES}`);
    request.on("data", (chunk: Buffer) => {
      if (refused) return;
      if (body.size + chunk.length > limit) return refuseEarly(413, `the body is larger than ${limit} bytes`);
      body.add(chunk);
      if (body.size <= LARGE_BODY_BYTES) return;
      writer.largeBody(response);
      paceLargeBody(request);
    });
    request.on("error", () => response.destroy());
    request.on("end", () => {
      if (!refused) answer(request, response, body);
    });
  };
}

/** The status of a request Node's parser refused: 408 late, 414 or 431 over the head limit, else 400. */
function clientErrorStatus(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): number {
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") return 408;
  return error.code === "HPE_HEADER_OVERFLOW" ? headOverflowStatus(error.rawPacket) : 400;
}

/** What went wrong with a request Node's parser refused with `status`, for the error body. */
function clientErrorWhy(status: number, code: string | undefined, requestTimeout: number): string {
  if (status === 408) return `the request did not arrive within ${requestTimeout} ms (${code})`;
  if (status === 414) return `the request line is over the ${MAX_HEAD_BYTES} bytes Node reads of a head (${code})`;
  if (status === 431) return `the header fields are over the ${MAX_HEAD_BYTES} bytes Node reads of a head (${code})`;
  return `Node could not parse the request (${code})`;
}

/**
 * A request Node's HTTP parser refuses gets JSON too: 408 when it did not arrive in time, 414 or 431 when
 * its head is over the parser's limit (limits.ts), else 400 (bad header bytes, a broken request line…).
 */
function createClientErrorHandler(side: AnsweringSide, requestTimeout: number, log?: (line: string) => void) {
  return (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (!socket.writable || error.code === "ECONNRESET") return socket.destroy();
    const status = clientErrorStatus(error);
    const answer = side.refuse(status, clientErrorWhy(status, error.code, requestTimeout));
    const { "sl-violations": _findings, ...documented } = answer.headers;
    const headers = Object.entries({
      ...documented,
      "content-length": String(Buffer.byteLength(answer.body)),
      connection: "close",
    })
      .map(([name, value]) => `${name}: ${value}`)
      .join("\r\n");
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${headers}\r\n\r\n${answer.body}`);
    log?.(`${side.name}: refused a request Node could not parse (${error.code ?? error.message})`);
  };
}

function serverOptions(requestTimeout: number): http.ServerOptions {
  return {
    keepAliveTimeout: 30_000,
    requestTimeout,
    headersTimeout: requestTimeout,
    // How often Node looks for requests past their time (its default, 30 s, would answer 408 up to 30 s late).
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(requestTimeout / 4))),
    maxHeaderSize: MAX_HEAD_BYTES,
  };
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** Starts the front on host:port (0 = a free port); `close()` ends every connection and the server. */
export async function startHttpFront(options: HttpFrontOptions): Promise<HttpFront> {
  const { side, requestTimeout } = options;
  const log = options.log && neverThrowing(options.log);
  const writer = new AnswerWriter();
  const server = http.createServer(
    serverOptions(requestTimeout),
    createRequestHandler(side, options.maxBodyBytes, writer, log),
  );
  writer.watch(server);
  // A client may end its side of the connection once its request is sent (a half-close). By default Node then
  // ends the socket at once, and an answer not yet written (one waiting for the turn's end, or for Web Crypto to
  // check a signature) is lost; half-open, Node ends it after the answer. (A property of http.Server that Node
  // sets itself and its own tests change; test/sandbox/http-server.test.ts fails without it.)
  (server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on("clientError", createClientErrorHandler(side, requestTimeout, log));
  await listen(server, options.port, options.host);
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        writer.flush();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
