// pins: answers.http
// What the mock and the sandbox (one HTTP front, src/pipeline/http-front.ts) answer a request that breaks one of its
// limits, on raw sockets: a request that does not arrive in time (an idle connection, a head or a body that
// stops) 408; a URL over MAX_URL_BYTES 414; header fields over MAX_HEADER_BYTES 431; a head too large for Node's
// parser (over MAX_HEAD_BYTES) 414 or 431 by what the parser was reading. Each is the documented error response
// with the published error body saying which limit it broke, with the rate-limit headers and the mock's
// identity, and closes the connection. The time limit is an option of startMock and startSandbox: set small
// here, and the test waits for the server's own timer to fire (it is the event under test).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MAX_HEAD_BYTES,
  MAX_HEADER_BYTES,
  MAX_URL_BYTES,
  MOCK_IDENTITY_HEADER,
  startMock,
} from "../../src/mock/index.js";
import { headOverflowStatus } from "../../src/pipeline/limits.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { type RawAnswer, sendRaw } from "./support/raw-http.js";
import { expectErrorBody } from "../support/error-body.js";
import { API_KEY_HEADER, BASE_PATH, RATE_LIMIT_HEADERS } from "../support/spec.js";

const REQUEST_TIMEOUT_MS = 150;
const SUMMARY = `${BASE_PATH}/trades/summary/me`;

/** Both HTTP fronts apply these limits (src/pipeline/http-front.ts): the mock's server and the sandbox's. */
const FRONTS: Record<string, () => Promise<Array<{ port: number; stop(): Promise<void> }>>> = {
  mock: () => Promise.all([startMock(), startMock({ requestTimeoutMs: REQUEST_TIMEOUT_MS })]),
  sandbox: () =>
    Promise.all([startSandbox({ port: 0 }), startSandbox({ port: 0, requestTimeoutMs: REQUEST_TIMEOUT_MS })]),
};

/** A request head; as latin1, each character is sent as one byte (a byte outside ASCII). */
const head = (target: string, headers: string[] = [], encoding: BufferEncoding = "utf8") =>
  Buffer.from(
    [`GET ${target} HTTP/1.1`, "Host: 127.0.0.1", `${API_KEY_HEADER}: k`, ...headers, "", ""].join("\r\n"),
    encoding,
  );
/** `count` header lines of 100 bytes each (with their CRLF). */
const headerLines = (count: number) =>
  Array.from({ length: count }, (_, i) => `x-pad-${String(i).padStart(4, "0")}: ${"v".repeat(86)}`);

/** What each refusal's error body says went wrong. */
const CAUSES: Record<number, RegExp> = {
  408: new RegExp(`^the request did not arrive within ${REQUEST_TIMEOUT_MS} ms `),
  414: /^the (URL is \d+ bytes long, over \d+|request line is over the \d+ bytes Node reads of a head)/,
  431: /^the header fields (are \d+ bytes, over \d+|are over the \d+ bytes Node reads of a head)/,
};

function expectRefusal(answer: RawAnswer | undefined, status: number): void {
  expect(answer?.status).toBe(status);
  expect(answer?.headers.connection).toBe("close");
  expect(answer?.headers[MOCK_IDENTITY_HEADER]).toBeDefined();
  for (const name of Object.values(RATE_LIMIT_HEADERS)) expect(answer?.headers[name], name).toMatch(/^\d+$/);
  expectErrorBody(JSON.parse(answer!.body.toString("utf8")), status, CAUSES[status]!);
}

describe.each(Object.keys(FRONTS))("the %s's HTTP front", (front) => {
  // The short time limit only where it is under test: a request that must be answered could take longer than
  // 150 ms to arrive on a loaded machine (and get 408 instead).
  const servers = { port: 0, impatientPort: 0 };
  let stops: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    const [patient, impatient] = await FRONTS[front]!();
    stops = [patient!, impatient!].map((server) => () => server.stop());
    Object.assign(servers, { port: patient!.port, impatientPort: impatient!.port });
  });
  afterAll(() => Promise.all(stops.map((stop) => stop())));

  describe("a request that does not arrive in time: 408", () => {
    it("an idle connection (nothing sent)", async () => {
      expectRefusal(await sendRaw(servers.impatientPort, Buffer.alloc(0), { keepOpen: true }), 408);
    });

    it("a head that stops half-way", async () => {
      const partial = Buffer.from(`GET ${SUMMARY} HTTP/1.1\r\nHost: x\r\n`);
      expectRefusal(await sendRaw(servers.impatientPort, partial, { keepOpen: true }), 408);
    });

    it("a body that stops half-way", async () => {
      const partial =
        `POST ${BASE_PATH}/trades/quote HTTP/1.1\r\nHost: x\r\n` +
        "content-type: application/json\r\ncontent-length: 100\r\n\r\n{";
      expectRefusal(await sendRaw(servers.impatientPort, Buffer.from(partial), { keepOpen: true }), 408);
    });
  });

  describe("a URL over MAX_URL_BYTES: 414", () => {
    const path = `${BASE_PATH}/trades/summary/me?pad=`;
    it("refuses one byte over the limit, answers at the limit", async () => {
      expectRefusal(await sendRaw(servers.port, head(path + "a".repeat(MAX_URL_BYTES - path.length + 1))), 414);
      const atLimit = await sendRaw(
        servers.port,
        head(path + "a".repeat(MAX_URL_BYTES - path.length), ["connection: close"]),
      );
      expect(atLimit?.status).toBe(200);
    });

    it("refuses a URL too long for Node's parser", async () => {
      expectRefusal(await sendRaw(servers.port, head(`${BASE_PATH}/${"a".repeat(MAX_HEAD_BYTES)}`)), 414);
    });
  });

  describe("header fields over MAX_HEADER_BYTES: 431", () => {
    // The request's own header lines (Host, the key, connection) and 100-byte padding lines; an x-fill line of
    // FILL characters then makes the header fields MAX_HEADER_BYTES.
    const own = ["Host: 127.0.0.1", `${API_KEY_HEADER}: k`, "connection: close"].reduce(
      (sum, line) => sum + line.length + 2,
      0,
    );
    const lines = headerLines(Math.floor((MAX_HEADER_BYTES - own) / 100));
    const FILL = MAX_HEADER_BYTES - own - lines.length * 100 - "x-fill: ".length - 2;
    /** The head with `value` in its x-fill line, each character sent as one byte. */
    const padded = (value: string) => head(SUMMARY, [...lines, `x-fill: ${value}`, "connection: close"], "latin1");

    it("refuses one byte over the limit, answers at the limit", async () => {
      expect((await sendRaw(servers.port, padded("f".repeat(FILL))))?.status).toBe(200);
      expectRefusal(await sendRaw(servers.port, padded("f".repeat(FILL + 1))), 431);
    });

    it("counts the bytes sent: a byte outside ASCII (obs-text, which a value may hold) is one byte", async () => {
      expect((await sendRaw(servers.port, padded("\u00e9".repeat(FILL))))?.status).toBe(200);
      const over = await sendRaw(servers.port, padded("\u00e9".repeat(FILL + 1)));
      expectRefusal(over, 431);
      expect(JSON.parse(over!.body.toString("utf8")).message).toBe(
        `the header fields are ${MAX_HEADER_BYTES + 1} bytes, over ${MAX_HEADER_BYTES}`,
      );
    });

    it("refuses a header set too large for Node's parser", async () => {
      expectRefusal(await sendRaw(servers.port, head(SUMMARY, headerLines(MAX_HEAD_BYTES / 100 + 1))), 431);
    });

    it("says so when Node's parser stopped at the head's header fields (40 KiB of them)", async () => {
      const answer = await sendRaw(servers.port, head(SUMMARY, headerLines(400)));
      expect(answer?.status).toBe(431);
      const { message } = JSON.parse(answer!.body.toString("utf8")) as { message: string };
      expect(message).toBe(
        `the header fields are over the ${MAX_HEAD_BYTES} bytes Node reads of a head (HPE_HEADER_OVERFLOW)`,
      );
    });
  });
});

describe("headOverflowStatus: which part of a head Node's parser could not take, from the bytes it was reading", () => {
  it("a head that came whole: 414 when its request line is the larger part, else 431", () => {
    expect(headOverflowStatus(Buffer.from(`GET /${"a".repeat(100)}`))).toBe(414);
    expect(headOverflowStatus(Buffer.from(`GET /${"a".repeat(100)} HTTP/1.1\r\nx: y\r\n`))).toBe(414);
    expect(headOverflowStatus(Buffer.from(`GET / HTTP/1.1\r\nx: ${"y".repeat(100)}\r\n`))).toBe(431);
  });

  it("a later piece of a head: 414 while it holds no line end (still the request line), else 431", () => {
    expect(headOverflowStatus(Buffer.from("a".repeat(100)))).toBe(414);
    expect(headOverflowStatus(Buffer.from(`${"a".repeat(100)} HTTP/1.1\r\nx: y`))).toBe(431);
    expect(headOverflowStatus(undefined)).toBe(431);
  });

  it("a request line as long as the rest of the head is blamed: 414", () => {
    const text = `GET /ab\r\nxyzab`;
    expect(text.indexOf("\r\n")).toBe(text.length - text.indexOf("\r\n"));
    expect(headOverflowStatus(Buffer.from(text))).toBe(414);
  });

  it("a later piece with a capitalised word and a space in a header line is no request line: 431", () => {
    expect(headOverflowStatus(Buffer.from(`x-note: SEE ${"a".repeat(100)}\r\ny: z`))).toBe(431);
  });
});
