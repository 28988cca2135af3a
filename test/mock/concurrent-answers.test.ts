// Both HTTP fronts (the mock's and the sandbox's, src/pipeline/http-front.ts) with several connections open, when
// the answers of one turn of the event loop are written together at its end: each request gets its own answer,
// and a client that ends its side of the connection right after its request (a half-close) still gets its
// answer, although Node ends such a socket as soon as it reads the end.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MAX_BODY_BYTES, startMock } from "../../src/mock/index.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { sendRaw } from "./support/raw-http.js";
import { API_KEY_HEADER, BASE_PATH } from "../support/spec.js";

const FRONTS: Record<string, () => Promise<{ port: number; stop(): Promise<void> }>> = {
  mock: () => startMock(),
  sandbox: () => startSandbox({ port: 0 }),
};

const RATES = `${BASE_PATH}/currencies/fiat-rates`;
const SUMMARY = `${BASE_PATH}/trades/summary/me`;

const request = (path: string, close: boolean) =>
  Buffer.from(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${API_KEY_HEADER}: k\r\n${close ? "connection: close\r\n" : ""}\r\n`,
  );

/** A keep-alive connection that has had one answer: the server holds it open. */
async function openConnection(port: number): Promise<net.Socket> {
  const socket = net.connect(port, "127.0.0.1");
  socket.on("error", () => {});
  await new Promise<void>((resolve) => {
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk;
      if (/^HTTP\/1\.1 200 /.test(received) && received.includes("\r\n\r\n")) resolve();
    });
    socket.write(request(RATES, false));
  });
  return socket;
}

/** The `data` of an answer's JSON body: an array for Get Fiat Rates, an object for the trades summary. */
const dataOf = (body: Buffer | undefined) => (JSON.parse(String(body)) as { data: unknown }).data;

describe.each(Object.keys(FRONTS))("the %s's HTTP front, several connections open", (front) => {
  let server: { port: number; stop(): Promise<void> };
  beforeAll(async () => {
    server = await FRONTS[front]!();
  });
  afterAll(() => server?.stop());

  it("answers a client that half-closes right after its request", async () => {
    const open = await openConnection(server.port);
    try {
      const answer = await sendRaw(server.port, request(SUMMARY, false));
      expect(answer?.status).toBe(200);
      expect(Array.isArray(dataOf(answer?.body))).toBe(false);
    } finally {
      open.destroy();
    }
  });

  it("answers 413 to a client that half-closes after a body over the limit", async () => {
    const open = await openConnection(server.port);
    try {
      const body = Buffer.alloc(DEFAULT_MAX_BODY_BYTES + 64 * 1024, 0x20);
      const head =
        `POST ${BASE_PATH}/trades/quote HTTP/1.1\r\nHost: 127.0.0.1\r\n${API_KEY_HEADER}: k\r\n` +
        `content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`;
      const answer = await sendRaw(server.port, Buffer.concat([Buffer.from(head), body]));
      expect(answer?.status).toBe(413);
    } finally {
      open.destroy();
    }
  });

  it("gives each of several concurrent requests its own answer", async () => {
    const open = await openConnection(server.port);
    try {
      const paths = [RATES, SUMMARY, RATES, SUMMARY, SUMMARY, RATES];
      const answers = await Promise.all(
        paths.map((path, at) => sendRaw(server.port, request(path, true), { keepOpen: at % 2 === 0 })),
      );
      expect(answers.map((answer) => answer?.status)).toEqual(paths.map(() => 200));
      expect(answers.map((answer) => Array.isArray(dataOf(answer?.body)))).toEqual(paths.map((p) => p === RATES));
    } finally {
      open.destroy();
    }
  });
});
