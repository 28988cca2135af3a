// pins: quotes.accepted-twice, trades.records, signing
// A quote is accepted once even when two Accept Quote requests for it are in flight together: in-process (two
// sandbox.fetch at once) and over HTTP (two requests pipelined on one socket), unsigned and signed (a signed
// request awaits Web Crypto before its handler runs, so two signed accepts interleave). Exactly one answers 200,
// the other 400 (the register's status for a quote already accepted), and the balances move once.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSigner } from "../../src/client/signing.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";
import { API_KEY_HEADER, BASE_PATH, SIGNING_HEADERS } from "../support/spec.js";
import { newSandbox, ORIGIN, START } from "./support/sandbox.js";

const SECRET = "s3cret";
/** SELL 10 USDT at sellRate 100: 10 × 100 = 1000 NGNX. */
const SELL_10 = JSON.stringify({ sourceId: "USDT", targetId: "NGNX", amount: 10, side: "SELL" });

/** Puts `key`'s account (100 USDT, 0 NGNX; with the secret when `signed`) at NGNX rates of 100. */
function prepare(sandbox: Sandbox, key: string, signed: boolean) {
  sandbox.setRates({ fiat: [{ currency: "NGNX", buyRate: 100, sellRate: 100 }] });
  sandbox.putAccount(key, { balances: { USDT: 100, NGNX: 0 }, ...(signed ? { apiSecret: SECRET } : {}) });
}

/** The headers of a request of `key` to `path` (under the base path), signed at `now` when `signed`. */
async function headersFor(key: string, method: string, path: string, signed: boolean, now: number) {
  const headers: Record<string, string> = { [API_KEY_HEADER]: key, "content-type": "application/json" };
  if (!signed) return headers;
  const signature = await createSigner(SECRET, () => now)(method, `${ORIGIN}${BASE_PATH}${path}`);
  return {
    ...headers,
    [SIGNING_HEADERS.timestamp]: signature.timestamp,
    [SIGNING_HEADERS.signature]: signature.signature,
  };
}

/** What must hold once both accepts are answered: one 200, one 400, 10 USDT out and 1000 NGNX in, once. */
function acceptedOnce(sandbox: Sandbox, key: string, answers: Array<{ status: number; body: any }>) {
  expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
  const refusal = answers.find((answer) => answer.status === 400)!;
  expect(refusal.body.message).toMatch(/^quote qt_\w+ was already accepted \(trade [0-9a-f-]{36}\)$/);
  // 100 − 10 = 90 USDT; 0 + 1000 = 1000 NGNX.
  expect(sandbox.getAccount(key)!.balances).toMatchObject({ USDT: 90, NGNX: 1000 });
}

describe("accept once, in-process", () => {
  for (const signed of [false, true])
    it(`two ${signed ? "signed " : ""}accepts at once: one 200, one 400, balances moved once`, async () => {
      const sandbox = newSandbox();
      prepare(sandbox, "key-a", signed);
      const now = sandbox.clock.now();
      const send = async (method: string, path: string, body?: string) =>
        sandbox.fetch(
          new Request(`${ORIGIN}${BASE_PATH}${path}`, {
            method,
            headers: await headersFor("key-a", method, path, signed, now),
            body,
          }),
        );
      const created = await send("POST", "/trades/quote", SELL_10);
      expect(created.status).toBe(200);
      const { id, amountReceived } = ((await created.json()) as { data: { id: string; amountReceived: number } }).data;
      expect(amountReceived).toBe(1000);
      const path = `/trades/quote/${id}`;
      const answers = await Promise.all([send("POST", path, "{}"), send("POST", path, "{}")]);
      acceptedOnce(
        sandbox,
        "key-a",
        await Promise.all(answers.map(async (answer) => ({ status: answer.status, body: await answer.json() }))),
      );
      const trades = await send("GET", "/trades/me");
      expect(((await trades.json()) as { data: unknown[] }).data).toHaveLength(1);
    });
});

/** One HTTP/1.1 response read off a socket: status and parsed JSON body. */
interface RawAnswer {
  status: number;
  body: any;
}

/** The responses in `bytes` (HTTP/1.1, each with a content-length or chunked), in order. */
function parseResponses(bytes: Buffer): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let at = 0;
  while (at < bytes.length) {
    const headEnd = bytes.indexOf("\r\n\r\n", at);
    if (headEnd < 0) throw new Error(`an unfinished response head: ${bytes.subarray(at).toString("latin1")}`);
    const [statusLine, ...fields] = bytes.subarray(at, headEnd).toString("latin1").split("\r\n");
    const header = (name: string) =>
      fields
        .find((field) => field.toLowerCase().startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim();
    let body: Buffer;
    at = headEnd + 4;
    const length = header("content-length");
    if (length !== undefined) {
      body = bytes.subarray(at, at + Number(length));
      at += Number(length);
    } else if (header("transfer-encoding")?.toLowerCase() === "chunked") {
      const chunks: Buffer[] = [];
      for (;;) {
        const sizeEnd = bytes.indexOf("\r\n", at);
        const size = Number.parseInt(bytes.subarray(at, sizeEnd).toString("latin1"), 16);
        at = sizeEnd + 2;
        if (size === 0) {
          at = bytes.indexOf("\r\n", at) + 2; // no trailers
          break;
        }
        chunks.push(bytes.subarray(at, at + size));
        at += size + 2;
      }
      body = Buffer.concat(chunks);
    } else throw new Error(`a response with neither content-length nor chunked: ${statusLine}`);
    answers.push({ status: Number(statusLine!.split(" ")[1]), body: JSON.parse(body.toString("utf8")) });
  }
  return answers;
}

/** Sends `requests` (raw HTTP/1.1) in one write on one socket; resolves with every response once it closes. */
function pipelined(port: number, requests: string[]): Promise<RawAnswer[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const received: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      try {
        resolve(parseResponses(Buffer.concat(received)));
      } catch (error) {
        reject(error);
      }
    });
    socket.write(requests.join(""));
  });
}

describe("accept once, over HTTP with the two requests pipelined on one socket", () => {
  let server: StartedSandbox;
  beforeAll(async () => {
    server = await startSandbox({ port: 0, quiet: true, config: { clock: { start: START } } });
  });
  afterAll(() => server.stop());

  /** A raw request of `key` (the last one closes the connection). */
  const raw = async (key: string, method: string, path: string, body: string, signed: boolean, last: boolean) => {
    const headers = await headersFor(key, method, path, signed, server.sandbox.clock.now());
    const fields = Object.entries({
      host: `127.0.0.1:${server.port}`,
      ...headers,
      "content-length": String(Buffer.byteLength(body)),
      ...(last ? { connection: "close" } : {}),
    }).map(([name, value]) => `${name}: ${value}\r\n`);
    return `${method} ${BASE_PATH}${path} HTTP/1.1\r\n${fields.join("")}\r\n${body}`;
  };

  for (const signed of [false, true])
    it(`two ${signed ? "signed " : ""}accepts in one write: one 200, one 400, balances moved once`, async () => {
      const key = signed ? "pipelined-signed" : "pipelined";
      prepare(server.sandbox, key, signed);
      const [created] = await pipelined(server.port, [await raw(key, "POST", "/trades/quote", SELL_10, signed, true)]);
      expect(created!.status).toBe(200);
      expect(created!.body.data.amountReceived).toBe(1000);
      const path = `/trades/quote/${created!.body.data.id}`;
      const answers = await pipelined(server.port, [
        await raw(key, "POST", path, "{}", signed, false),
        await raw(key, "POST", path, "{}", signed, true),
      ]);
      acceptedOnce(server.sandbox, key, answers);
    });
});
