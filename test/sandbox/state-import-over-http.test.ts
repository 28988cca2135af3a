// PUT /_sandbox/state over HTTP (real sockets on 127.0.0.1) of a large state: 3,000 accounts of 2 trades each
// (about 17 MB of JSON). The state is read and checked a store at a time, with a turn of the event loop between two
// stores (state-import.ts, state-check.ts), so a request of another key that arrives meanwhile is answered before
// the PUT is; what is restored is what a restore in process restores, to the byte; with --state it is on disk once
// answered. No timing: every assertion is of the order things happened in, or of what was restored.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, expect, it } from "vitest";
import { API_KEY_HEADER } from "../../generated/client-meta.js";
import { createSandbox, type SandboxState } from "../../src/sandbox/index.js";
import { readJournaled, savedTextOf } from "../../src/sandbox/journal.js";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";
import { LARGE_STATE_START, largeState } from "./support/large-state.js";

let large: SandboxState;
let text: string;
beforeAll(async () => {
  large = await largeState(3_000, 2);
  text = JSON.stringify(large);
});

const started: StartedSandbox[] = [];
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()));
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function start(statePath?: string): Promise<StartedSandbox> {
  const server = await startSandbox({
    port: 0,
    quiet: true,
    statePath,
    config: { clock: { start: LARGE_STATE_START } },
  });
  started.push(server);
  return server;
}

/** GET /v1/wallets/me as `key` on `agent`'s connection; its status once its body has arrived. */
function wallets(server: StartedSandbox, agent: http.Agent, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${server.baseUrl}/wallets/me`,
      { agent, headers: { [API_KEY_HEADER]: key } },
      (answer) => {
        answer.resume();
        answer.once("end", () => resolve(answer.statusCode!));
      },
    );
    request.once("error", reject);
  });
}

const putState = (server: StartedSandbox, body: string) =>
  fetch(`${server.origin}/_sandbox/state`, { method: "PUT", headers: { "content-type": "application/json" }, body });

it("answers a request of another key that arrives while the state is read, before the PUT's answer", async () => {
  const server = await start();
  // The other key's connection is open before the PUT: its request then waits for nothing but the sandbox.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  expect(await wallets(server, agent, "someone-else")).toBe(200);
  const events: string[] = [];
  let other: Promise<void> | undefined;
  // The PUT has reached the sandbox (its body read whole by the HTTP front): the other request is sent then.
  const sandboxFetch = server.sandbox.fetch;
  server.sandbox.fetch = (request) => {
    if (request.method === "PUT")
      other = wallets(server, agent, "someone-else").then((status) => void events.push(`other key: ${status}`));
    return sandboxFetch(request);
  };
  const put = await putState(server, text);
  events.push(`PUT /_sandbox/state: ${put.status}`);
  await other;
  agent.destroy();
  expect(events).toEqual(["other key: 200", "PUT /_sandbox/state: 204"]);
  expect(server.sandbox.snapshot().accounts).toEqual(large.accounts);
});

it("restores what a restore in process restores: GET /_sandbox/state gives the same text, byte for byte", async () => {
  const server = await start();
  const spaced = JSON.stringify(large, null, 1); // whitespace between every two tokens the reader walks past
  expect((await putState(server, spaced)).status).toBe(204);
  const overHttp = await (await fetch(`${server.origin}/_sandbox/state?secrets=true`)).text();
  const inProcess = createSandbox({ clock: { start: LARGE_STATE_START } });
  inProcess.restore(JSON.parse(spaced));
  const read = await inProcess.fetch(new Request("http://sandbox.test/_sandbox/state?secrets=true"));
  const restored = await read.text();
  expect(overHttp.length).toBe(restored.length);
  expect(overHttp === restored).toBe(true); // not toBe: a difference of 17 MB texts would be printed whole
  expect(Object.keys(JSON.parse(overHttp).accounts)).toHaveLength(3_000);
});

it("with --state, has the state restored on disk once the PUT is answered", async () => {
  const folder = await mkdtemp(path.join(os.tmpdir(), "sandbox-import-"));
  folders.push(folder);
  const statePath = path.join(folder, "state.json");
  const server = await start(statePath);
  expect((await putState(server, text)).status).toBe(204);
  // What a restart would restore now: the state file with the journal's lines applied.
  const saved = savedTextOf(await readFile(statePath, "utf8"));
  const { state } = await readJournaled(statePath, saved, () => {
    throw new Error("the state file is there");
  });
  expect(state).toEqual(server.sandbox.snapshot());
  expect(state!.accounts).toEqual(large.accounts);
});
