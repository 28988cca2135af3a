// The mock and its connections: a client that goes away in the middle of a body does not stop it, stop() ends the
// connections still open (a request in flight included), and a request Node's parser refuses is answered without a
// throw and named in its log.
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { until } from "../client/support/clock.js";
import { sendRaw } from "./support/raw-http.js";
import { API_KEY_HEADER, BASE_PATH } from "../support/spec.js";

let mock: StartedMock | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
});

/** A socket that has sent the headers of a POST and the first bytes of its body, and waits. */
async function halfSentPost(port: number): Promise<net.Socket> {
  const socket = net.connect(port, "127.0.0.1");
  socket.on("error", () => {});
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write(
    `POST ${BASE_PATH}/trades/quote HTTP/1.1\r\nhost: 127.0.0.1\r\n` +
      `content-type: application/json\r\ncontent-length: 100\r\n\r\n{"side":`,
  );
  return socket;
}

describe("the mock's connections", () => {
  it("a client gone in the middle of its body leaves the mock answering the next request", async () => {
    mock = await startMock();
    const socket = await halfSentPost(mock.port);
    await new Promise((resolve) => setImmediate(resolve));
    socket.destroy();
    await new Promise((resolve) => socket.once("close", resolve));
    const next = await fetch(`${mock.baseUrl}/trades/summary/me`, { headers: { [API_KEY_HEADER]: "k" } });
    expect(next.status).toBe(200);
  });

  it("stop() resolves with a request still in flight: its connection is closed, not waited for", async () => {
    mock = await startMock();
    const socket = await halfSentPost(mock.port);
    let closed = false;
    socket.on("close", () => {
      closed = true;
    });
    let stopped = false;
    const stopping = mock.stop().then(() => {
      stopped = true;
    });
    mock = undefined;
    await until(() => stopped && closed, "stop() to end the open connection");
    await stopping;
  });

  it("without a log, refuses what Node's parser refused without throwing (a throw would end its process)", async () => {
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.prependListener("uncaughtException", record);
    try {
      mock = await startMock();
      const answer = await sendRaw(
        mock.port,
        Buffer.from(`GET ${BASE_PATH}/trades/summary/me HTTP/1.1\r\nhost: x\r\nbad header\r\n\r\n`),
      );
      expect(answer?.status).toBe(400);
      expect(uncaught).toEqual([]);
    } finally {
      process.off("uncaughtException", record);
    }
  });

  it("names in its log a request Node's parser refused, with the parser's code", async () => {
    const lines: string[] = [];
    mock = await startMock({ log: (line) => lines.push(line) });
    const answer = await sendRaw(
      mock.port,
      Buffer.from(`GET ${BASE_PATH}/trades/summary/me HTTP/1.1\r\nhost: x\r\nbad header\r\n\r\n`),
    );
    expect(answer?.status).toBe(400);
    await until(() => lines.some((line) => line.includes("could not parse")), "the log line");
    expect(lines.filter((line) => line.includes("could not parse"))).toEqual([
      expect.stringMatching(/^mock: refused a request Node could not parse \(HPE_[A-Z_]+\)$/),
    ]);
  });
});
