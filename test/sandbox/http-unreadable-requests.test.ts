// Requests the sandbox cannot read: one Node cannot parse is answered on the socket with the published 400 error
// body and rate-limit headers read on the sandbox's own clock, and the log names the sandbox as the server that
// refused it; a target that is no URL (an API request, not a control one) is refused 400 saying so.
import net from "node:net";
import { expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";

/** Sends `text` on a raw socket to 127.0.0.1:`port`, ending it; resolves with what came back once closed. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", () => {}); // the server may close first
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.end(text);
  });
}

it("refuses a request with a malformed header 400, its reset on the sandbox clock, and logs it", async () => {
  const lines: string[] = [];
  const server = await startSandbox({
    port: 0,
    log: (line) => lines.push(line),
    config: { clock: { start: Date.UTC(2026, 0, 1) } },
  });
  try {
    const answer = await rawExchange(server.port, "GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    // 2026-01-01T00:01:00Z: the end of the sandbox clock's first minute.
    expect(answer).toContain("\r\nx-ratelimit-reset: 1767225660\r\n");
    expect(answer).toContain('{"message":"Node could not parse the request (HPE_INVALID_HEADER_TOKEN)"');
    expect(lines).toEqual(["sandbox: refused a request Node could not parse (HPE_INVALID_HEADER_TOKEN)"]);
  } finally {
    await server.stop();
  }
});

it("refuses an API request whose target is no URL 400, saying it cannot be read as a Fetch request", async () => {
  const lines: string[] = [];
  const server = await startSandbox({ port: 0, log: (line) => lines.push(line) });
  try {
    const answer = await rawExchange(server.port, "GET //x:y HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toContain('{"message":"the request cannot be read as a Fetch request: Invalid URL"');
    expect(lines).toEqual(["GET //x:y → 400 (the request cannot be read as a Fetch request: Invalid URL)"]);
  } finally {
    await server.stop();
  }
});
