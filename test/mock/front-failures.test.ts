// What the HTTP front of the mock and the sandbox (src/pipeline/http-front.ts) does when its answering side throws,
// or Node refuses to write its answer: the request is answered 400 with the side's documented error answer saying
// so, never a 5xx, a dropped connection or a client left waiting, and the failure is logged with its stack
// (choices.ts, "answers.http", for the sandbox). A log function that throws costs no answer.
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type AnsweringSide, startHttpFront } from "../../src/pipeline/http-front.js";
import { sendRaw } from "./support/raw-http.js";

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

/** A side whose every answer throws, in a promise or at once; its refusals are a JSON body with the reason. */
const failingSide = (at: "in a promise" | "at once"): AnsweringSide => ({
  name: "engine under test",
  answer:
    at === "in a promise"
      ? async () => {
          throw new Error("boom inside");
        }
      : () => {
          throw new Error("boom inside");
        },
  refuse: (status, why) => ({ status, headers: { "content-type": "application/json" }, body: JSON.stringify({ why }) }),
});

describe("a failure inside the answering side", () => {
  it.each(["in a promise", "at once"] as const)(
    "thrown %s: answers 400 saying the side could not answer, logs it with its stack",
    async (at) => {
      const lines: string[] = [];
      const front = await startHttpFront({
        side: failingSide(at),
        host: "127.0.0.1",
        port: 0,
        maxBodyBytes: 1024,
        requestTimeout: 60_000,
        log: (line) => lines.push(line),
      });
      stop = front.close;
      const answer = await fetch(`http://127.0.0.1:${front.port}/v1/anything`);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ why: "the engine under test could not answer this request (see its log)" });
      expect(lines[0]).toMatch(
        /^engine under test: GET \/v1\/anything failed inside the engine under test .*boom inside/s,
      );
      expect(lines[0]).toContain("at "); // the stack
      expect(lines[1]).toBe(
        "GET /v1/anything → 400 (the engine under test could not answer this request (see its log))",
      );
    },
  );
});

/** A side that answers every request 200 `{}` with `headers`; its refusals are a JSON body with the reason. */
const answeringSide = (headers: Record<string, string> = {}): AnsweringSide => ({
  name: "engine under test",
  answer: () => ({ status: 200, headers: { "content-type": "application/json", ...headers }, body: "{}" }),
  refuse: (status, why) => ({ status, headers: { "content-type": "application/json" }, body: JSON.stringify({ why }) }),
});

/**
 * Starts a front on `side`. With `otherConnections`, that many more connections stay open beside the test's:
 * the front then writes its answers at the end of the event loop's turn, not at once (AnswerWriter).
 */
async function startFront(side: AnsweringSide, log: (line: string) => void, otherConnections: number) {
  const front = await startHttpFront({
    side,
    host: "127.0.0.1",
    port: 0,
    maxBodyBytes: 1024,
    requestTimeout: 60_000,
    log,
  });
  const sockets: net.Socket[] = [];
  for (let i = 0; i < otherConnections; i++) {
    const socket = net.connect(front.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    sockets.push(socket);
  }
  stop = async () => {
    for (const socket of sockets) socket.destroy();
    await front.close();
  };
  return front;
}

const WRITTEN = [
  ["at once (one connection)", 0],
  ["at the end of the turn (other connections open)", 2],
] as const;

describe("an answer Node refuses to write (a header value with a line break)", () => {
  it.each(WRITTEN)("written %s: answers 400 saying the side could not answer, logs why", async (_, others) => {
    const lines: string[] = [];
    const front = await startFront(answeringSide({ "x-broken": "one\ntwo" }), (line) => lines.push(line), others);
    const answer = await fetch(`http://127.0.0.1:${front.port}/v1/anything`);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ why: "the engine under test could not answer this request (see its log)" });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^engine under test: GET \/v1\/anything failed .*Invalid character in header content/s);
    expect(lines[1]).toBe("GET /v1/anything → 400 (the engine under test could not answer this request (see its log))");
  });
});

describe("a refusal Node refuses to write", () => {
  it.each(WRITTEN)("written %s: closes the connection, no client waits for it", async (_, others) => {
    const side: AnsweringSide = {
      ...failingSide("at once"),
      refuse: (status) => ({ status, headers: { "x-broken": "one\ntwo" }, body: "{}" }),
    };
    const front = await startFront(side, () => {}, others);
    await expect(fetch(`http://127.0.0.1:${front.port}/v1/anything`)).rejects.toThrow(TypeError);
  });
});

describe("a log function that throws", () => {
  it.each(WRITTEN)("written %s: the answers stand and the front goes on, said once as a warning", async (_, others) => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    // Node's own listener prints every warning; the one expected here is taken, not printed among passing tests.
    const printers = process.listeners("warning");
    process.removeAllListeners("warning");
    process.on("warning", onWarning);
    try {
      const front = await startFront(
        answeringSide(),
        () => {
          throw new Error("the log is broken");
        },
        others,
      );
      for (const path of ["/v1/first", "/v1/second"]) {
        const answer = await fetch(`http://127.0.0.1:${front.port}${path}`);
        expect(answer.status).toBe(200);
        expect(await answer.json()).toEqual({});
      }
      await new Promise((resolve) => setImmediate(resolve)); // process.emitWarning emits on the next tick
      expect(warnings.filter((message) => message.includes("the log is broken"))).toHaveLength(1);
    } finally {
      process.off("warning", onWarning);
      for (const printer of printers) process.on("warning", printer);
    }
  });
});

describe("a request target the URL parser refuses (Node's parser takes it)", () => {
  it("is answered and logged as it was sent", async () => {
    const lines: string[] = [];
    const front = await startFront(answeringSide(), (line) => lines.push(line), 0);
    const answer = await sendRaw(front.port, Buffer.from("GET // HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
    expect(answer?.status).toBe(200);
    expect(lines).toEqual([expect.stringMatching(/^GET \/\/ → 200 \(\d+ ms\)$/)]);
  });
});
