// The sandbox's HTTP front reads a request from a socket and hands it to `sandbox.fetch`: it must answer exactly
// what `sandbox.fetch` answers to the same request. Each request below is sent over a socket to a sandbox and, as
// a Fetch Request built from the same bytes, to its twin (a sandbox restored from its snapshot, so the same ids,
// clock and counters); the status, the headers the engine writes and the body must be the same. The requests are
// the odd ones: a repeated field (one of them a field Node keeps only the first of), a set-cookie field, a body
// with a byte-order mark or bytes that are not UTF-8, a large one of multi-byte characters, HEAD, a body on GET, the
// control API. A method Fetch refuses to take (TRACE) has no twin: the front answers it as any method that is no
// operation of the path.
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createSandbox } from "../../src/sandbox/index.js";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";
import { API_KEY_HEADER, BASE_PATH } from "../support/spec.js";

const started: StartedSandbox[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()));
});

interface RawRequest {
  method: string;
  path: string;
  /** Header fields in order, a name repeated as it is sent. */
  fields: Array<[string, string]>;
  body?: Buffer;
}

interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What the front itself adds (CORS, connection management), not the engine. */
const FRONT_HEADERS = /^(access-control-|connection$|keep-alive$|date$|content-length$|transfer-encoding$)/;

const engineHeaders = (entries: Iterable<[string, string]>): Record<string, string> =>
  Object.fromEntries([...entries].filter(([name]) => !FRONT_HEADERS.test(name)).sort());

function overHttp(port: number, request: RawRequest): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const sent = http.request({ host: "127.0.0.1", port, method: request.method, path: request.path });
    for (const name of new Set(request.fields.map(([field]) => field)))
      sent.setHeader(
        name,
        request.fields.filter(([field]) => field === name).map(([, value]) => value),
      );
    if (request.body) sent.setHeader("content-length", request.body.length);
    sent.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const headers = Object.entries(response.headers).map(
          ([name, value]) => [name, Array.isArray(value) ? value.join(", ") : String(value)] as [string, string],
        );
        resolve({
          status: response.statusCode ?? 0,
          headers: engineHeaders(headers),
          body: Buffer.concat(chunks).toString("utf8"),
        });
      });
    });
    sent.on("error", reject);
    sent.end(request.body);
  });
}

/** The same request as a Fetch Request to `fetch` (a GET or HEAD carries no body in Fetch). */
async function inProcess(fetch: (request: Request) => Promise<Response>, origin: string, request: RawRequest) {
  const headers = new Headers();
  for (const [name, value] of request.fields) headers.append(name, value);
  const withBody = request.method !== "GET" && request.method !== "HEAD" && request.body?.length;
  const response = await fetch(
    new Request(origin + request.path, {
      method: request.method,
      headers,
      body: withBody ? new Uint8Array(request.body!) : undefined,
    }),
  );
  const answered: Array<[string, string]> = [];
  response.headers.forEach((value, name) => {
    answered.push([name, value]);
  });
  return { status: response.status, headers: engineHeaders(answered), body: await response.text() };
}

const json = (text: string) => Buffer.from(text);
const quote = JSON.stringify({ sourceId: "USDT", targetId: "NGNX", amount: 10, side: "SELL" });

const REQUESTS: RawRequest[] = [
  { method: "GET", path: `${BASE_PATH}/currencies/fiat-rates`, fields: [[API_KEY_HEADER, "alice"]] },
  { method: "HEAD", path: `${BASE_PATH}/currencies/fiat-rates`, fields: [[API_KEY_HEADER, "alice"]] },
  {
    method: "GET",
    path: `${BASE_PATH}/wallets/USDT?x=1&x=2`,
    fields: [
      [API_KEY_HEADER, "alice"],
      [API_KEY_HEADER, "bob"],
    ],
  },
  {
    method: "POST",
    path: `${BASE_PATH}/trades/quote`,
    fields: [
      [API_KEY_HEADER, "alice"],
      ["content-type", "application/json"],
    ],
    body: json(quote),
  },
  {
    method: "POST",
    path: `${BASE_PATH}/trades/quote`,
    fields: [
      [API_KEY_HEADER, "alice"],
      ["Content-Type", "application/json"],
    ],
    body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json(quote)]),
  },
  {
    method: "POST",
    path: `${BASE_PATH}/trades/quote`,
    fields: [
      [API_KEY_HEADER, "alice"],
      ["content-type", "application/json"],
    ],
    body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
  },
  {
    // Over many chunks, multi-byte characters cut at their boundaries (the front decodes chunk by chunk).
    method: "POST",
    path: `${BASE_PATH}/trades/quote`,
    fields: [
      [API_KEY_HEADER, "alice"],
      ["content-type", "application/json"],
    ],
    // Invalid JSON at its very end: the refusal names the position, which a character decoded twice would move.
    body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json(`{"sourceId":"${"€😀".repeat(50_000)}`)]),
  },
  {
    method: "POST",
    path: `${BASE_PATH}/trades/quote`,
    fields: [
      [API_KEY_HEADER, "alice"],
      ["content-type", "application/json"],
    ],
    body: json('{"sourceId":"USDT",'),
  },
  {
    method: "POST",
    path: `${BASE_PATH}/trades/quote`,
    fields: [
      [API_KEY_HEADER, "alice"],
      ["content-type", "application/json"],
    ],
  },
  {
    method: "GET",
    path: `${BASE_PATH}/wallets/me`,
    fields: [
      [API_KEY_HEADER, "alice"],
      ["content-type", "application/json"],
    ],
    body: json("{not json"),
  },
  {
    // Node keeps the first of two content-type fields, where Fetch joins them (the direct way must join them).
    method: "POST",
    path: `${BASE_PATH}/trades/quote`,
    fields: [
      [API_KEY_HEADER, "alice"],
      ["content-type", "application/json"],
      ["content-type", "text/plain"],
    ],
    body: json(quote),
  },
  {
    // Node makes a set-cookie field a list even when it is sent once, where Fetch gives its text.
    method: "GET",
    path: `${BASE_PATH}/wallets/USDT`,
    fields: [
      [API_KEY_HEADER, "alice"],
      ["set-cookie", "a=1"],
    ],
  },
  { method: "DELETE", path: `${BASE_PATH}/currencies/fiat-rates`, fields: [[API_KEY_HEADER, "alice"]] },
  { method: "GET", path: `${BASE_PATH}/wallets/USDT`, fields: [[API_KEY_HEADER, " \tcarol \t "]] },
  { method: "GET", path: `${BASE_PATH}/no/such/path`, fields: [] },
  { method: "GET", path: `${BASE_PATH}/transactions/me?page=0`, fields: [[API_KEY_HEADER, "alice"]] },
  { method: "GET", path: "/_sandbox/accounts/alice", fields: [] },
];

describe("the HTTP front's direct way into the engine", () => {
  it("answers each request exactly as sandbox.fetch answers it", async () => {
    const server = await startSandbox({ port: 0, config: { clock: { start: Date.UTC(2026, 0, 1) } } });
    started.push(server);
    const twin = createSandbox();
    twin.restore(server.sandbox.snapshot());
    for (const request of REQUESTS) {
      const expected = await inProcess((fetched) => twin.fetch(fetched), server.origin, request);
      expect(await overHttp(server.port, request), `${request.method} ${request.path}`).toEqual(expected);
    }
  });

  it("answers TRACE, which Fetch refuses to take, as it answers PATCH: no operation, or no control route", async () => {
    const server = await startSandbox({ port: 0 });
    started.push(server);
    const seen = [];
    for (const method of ["TRACE", "PATCH"])
      for (const path of ["/v1/wallets/me", "/_sandbox/state"]) {
        const { status, headers, body } = await overHttp(server.port, {
          method,
          path,
          fields: [[API_KEY_HEADER, "alice"]],
        });
        seen.push([method, path, status, headers.allow, JSON.parse(body).message]);
      }
    expect(seen).toEqual([
      ["TRACE", "/v1/wallets/me", 405, "GET", "TRACE is not an operation of /v1/wallets/me"],
      ["TRACE", "/_sandbox/state", 404, undefined, "no control route TRACE /_sandbox/state"],
      ["PATCH", "/v1/wallets/me", 405, "GET", "PATCH is not an operation of /v1/wallets/me"],
      ["PATCH", "/_sandbox/state", 404, undefined, "no control route PATCH /_sandbox/state"],
    ]);
  });
});
