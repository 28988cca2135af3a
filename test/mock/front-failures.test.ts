// What the HTTP front of the mock and the sandbox (src/mock/http-front.ts) does when its answering side throws:
// the request is answered 400 with the side's documented error answer saying so, never a 5xx or a dropped
// connection, and the failure is logged with its stack (choices.ts, "answers.http", for the sandbox).
import { afterEach, describe, expect, it } from "vitest";
import { type AnsweringSide, startHttpFront } from "../../src/mock/http-front.js";

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
