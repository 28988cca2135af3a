// API requests the HTTP front answers straight from the engine's pipeline come back as the Fetch way gives them:
// no body (content-length 0) to a HEAD, and no refusal reason carried along (the log line gives the time taken).
import { afterEach, beforeEach, expect, it } from "vitest";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";

let server: StartedSandbox;
let lines: string[];
beforeEach(async () => {
  lines = [];
  server = await startSandbox({ port: 0, log: (line) => lines.push(line) });
});
afterEach(() => server.stop());

it("answers a HEAD to an API path 405 with no body", async () => {
  const answer = await fetch(`${server.baseUrl}/wallets/USDT`, { method: "HEAD" });
  expect(answer.status).toBe(405);
  expect(answer.headers.get("allow")).toBe("GET");
  expect(answer.headers.get("content-length")).toBe("0");
  expect(await answer.text()).toBe("");
});

it("logs a refused API request with the time it took, not the refusal's reason", async () => {
  const answer = await fetch(`${server.baseUrl}/wallets/USDT`);
  expect(answer.status).toBe(401);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^GET \/v1\/wallets\/USDT → 401 \(\d+ ms\)$/);
});
