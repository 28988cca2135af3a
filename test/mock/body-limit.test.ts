// A request body over maxBodyBytes is refused once: one 413, one log line, and nothing of it handled afterwards,
// however many chunks of it still arrive.
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { BASE_PATH } from "../support/spec.js";

let mock: StartedMock | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
});

/** Sends a POST of `size` bytes of body in one write; resolves with what came back once the mock closes. */
function postLargeBody(port: number, size: number, target = `${BASE_PATH}/trades/quote`): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", () => {}); // the mock closes the connection while the body still arrives
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")));
    const head =
      `POST ${target} HTTP/1.1\r\nhost: 127.0.0.1\r\n` +
      `content-type: application/json\r\ncontent-length: ${size}\r\n\r\n`;
    socket.end(Buffer.concat([Buffer.from(head), Buffer.alloc(size, 0x20)]));
  });
}

describe("a body over maxBodyBytes", () => {
  // 300 bytes arrive whole (the request ends after its refusal); 4 MiB arrive in many chunks, most after it.
  it.each([300, 4 * 1024 * 1024])("of %i bytes is refused once: one 413 and one log line", async (size) => {
    const lines: string[] = [];
    mock = await startMock({ maxBodyBytes: 256, log: (line) => lines.push(line) });
    const answer = await postLargeBody(mock.port, size);
    expect(answer.match(/^HTTP\/1\.1 \d+/gm)).toEqual(["HTTP/1.1 413"]);
    expect(lines).toEqual([`POST ${BASE_PATH}/trades/quote → 413 (the body is larger than 256 bytes)`]);
  });

  // "//" is a target Node's parser takes and the URL parser does not (a host-relative URL with no host).
  it("to a target that is no URL is refused the same, and the mock keeps answering", async () => {
    mock = await startMock({ maxBodyBytes: 256 });
    const answer = await postLargeBody(mock.port, 300, "//");
    expect(answer.match(/^HTTP\/1\.1 \d+/gm)).toEqual(["HTTP/1.1 413"]);
    expect((await fetch(`${mock.baseUrl}/currencies/fiat-rates`)).status).toBe(200);
  });
});
