// pins: answers.identity
// Every API answer of the sandbox carries x-api-contract-mock with the package's version (package.json), the
// header of the package's mock, and x-api-contract-sandbox with it, so a verifier tells the sandbox from the mock
// and from a deployment: an answer, a refusal of the sandbox's (401, 404, 422), a spent limit (429), in-process
// and over HTTP, a refusal of the HTTP front (413) too.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";
import { API_KEY_HEADER, repoRoot } from "../support/spec.js";
import { api, newSandbox } from "./support/sandbox.js";

const VERSION = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }).version;

const started: StartedSandbox[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()));
});

describe("the identity header", () => {
  it("is on every API answer in-process: answers, refusals, a spent limit", async () => {
    const sandbox = newSandbox({ limits: { requestsPerMinute: 3 } }); // key-a: 200, 404, 422, then spent
    const answers = [
      await api(sandbox, "GET", "/wallets/me"),
      await api(sandbox, "GET", "/wallets/me", undefined, { key: null }),
      await api(sandbox, "GET", "/wallets/EUR"),
      await api(sandbox, "GET", "/transactions/me?page=0"),
      await api(sandbox, "GET", "/wallets/me"),
    ];
    const identities = answers.map((answer) => [
      answer.status,
      answer.headers.get("x-api-contract-mock"),
      answer.headers.get("x-api-contract-sandbox"),
    ]);
    expect(identities).toEqual([
      [200, VERSION, VERSION],
      [401, VERSION, VERSION],
      [404, VERSION, VERSION],
      [422, VERSION, VERSION],
      [429, VERSION, VERSION],
    ]);
  });

  it("is on an API answer over HTTP", async () => {
    const server = await startSandbox({ port: 0, quiet: true });
    started.push(server);
    const answer = await fetch(`${server.baseUrl}/currencies/fiat-rates`, { headers: { [API_KEY_HEADER]: "k" } });
    await answer.arrayBuffer();
    const identity = (response: Response) => [
      response.status,
      response.headers.get("x-api-contract-mock"),
      response.headers.get("x-api-contract-sandbox"),
    ];
    expect(identity(answer)).toEqual([200, VERSION, VERSION]);
    // Refused by the HTTP front before the engine (a body over the limit): the documented error answer, the same.
    const large = await fetch(`${server.baseUrl}/trades/quote`, {
      method: "POST",
      headers: { [API_KEY_HEADER]: "k", "content-type": "application/json" },
      body: `{"amount":"${"9".repeat(2 * 1024 * 1024)}"}`,
    });
    await large.arrayBuffer();
    expect(identity(large)).toEqual([413, VERSION, VERSION]);
  });
});
