// pins: answers.identity
// Every API answer of the sandbox carries x-api-contract-mock with the package's version (package.json), the
// header of the package's mock, so a verifier tells the sandbox from a deployment: an answer, a refusal of the
// sandbox's (401, 404, 422), a spent limit (429), in-process and over HTTP.
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
    expect(answers.map((answer) => [answer.status, answer.headers.get("x-api-contract-mock")])).toEqual([
      [200, VERSION],
      [401, VERSION],
      [404, VERSION],
      [422, VERSION],
      [429, VERSION],
    ]);
  });

  it("is on an API answer over HTTP", async () => {
    const server = await startSandbox({ port: 0, quiet: true });
    started.push(server);
    const answer = await fetch(`${server.baseUrl}/currencies/fiat-rates`, { headers: { [API_KEY_HEADER]: "k" } });
    await answer.arrayBuffer();
    expect([answer.status, answer.headers.get("x-api-contract-mock")]).toEqual([200, VERSION]);
  });
});
