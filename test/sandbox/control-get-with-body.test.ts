// A GET to the control API that carries a body is answered as without one (a Fetch GET takes no body), not refused.
import http from "node:http";
import { expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";

/** Sends `method` `target` with the body "{}" through node:http (fetch sends no body with GET); resolves the status. */
function withBody(port: number, method: string, target: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: "127.0.0.1", port, method, path: target, headers: { "content-length": "2" } },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode));
      },
    );
    request.on("error", reject);
    request.end("{}");
  });
}

it("answers GET /_sandbox/state with a body 200", async () => {
  const server = await startSandbox({ port: 0 });
  try {
    expect(await withBody(server.port, "GET", "/_sandbox/state")).toBe(200);
  } finally {
    await server.stop();
  }
});
