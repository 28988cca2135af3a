// GET /_sandbox/state over HTTP (real sockets on 127.0.0.1) of a state far larger than the sockets' buffers: 40
// accounts of 2,500 quotes each, 35 MB of JSON. The answer goes out chunk by chunk as the client takes it, so a
// client that stops reading holds the export, not the server: other requests are answered meanwhile. Each store is
// written at its own moment (a store changed during the pause is wholly before or wholly after the change), the id
// generator after the last store; the text restores; a store that breaks the control document mid-way ends the
// body early; a client that leaves mid-way ends its export. No timing: every assertion is of the order things
// happened in.
import http from "node:http";
import { afterEach, beforeAll, expect, it } from "vitest";
import { engineOf } from "../../src/sandbox/direct.js";
import { quoteCounter, quoteId } from "../../src/sandbox/ids.js";
import { createSandbox, type SandboxState } from "../../src/sandbox/index.js";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";

const START = Date.UTC(2026, 0, 1); // 1767225600000
const KEYS = Array.from({ length: 40 }, (_, n) => `key-${String(n).padStart(2, "0")}`);
const QUOTE = { sourceId: "USDT", targetId: "NGNX", amount: 1, side: "SELL" };

/** The large state: KEYS' accounts, each with 2,500 copies (ids of their own) of one quote the sandbox made. */
let large: SandboxState;
beforeAll(async () => {
  const maker = createSandbox({ clock: { start: START } });
  for (const key of KEYS) maker.putAccount(key, { balances: { USDT: 100 } });
  const headers = { "x-api-key": KEYS[0]!, "content-type": "application/json" };
  const body = JSON.stringify(QUOTE);
  await maker.fetch(new Request("http://sandbox.test/v1/trades/quote", { method: "POST", headers, body }));
  large = maker.snapshot();
  const [template] = large.accounts[KEYS[0]!]!.quotes;
  for (const store of Object.values(large.accounts))
    store.quotes = Array.from({ length: 2_500 }, () => ({ ...template!, id: quoteId(large.ids) }));
});

const started: StartedSandbox[] = [];
let lines: string[];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()));
});

/** A sandbox on 127.0.0.1 holding the large state; its log lines in `lines`. */
async function start(): Promise<StartedSandbox> {
  lines = [];
  const server = await startSandbox({ port: 0, quiet: true, log: (line) => lines.push(line) });
  started.push(server);
  server.sandbox.restore(structuredClone(large));
  return server;
}

/** An answer read as far as the test lets it: its first chunk, then (`rest`) the others, or how it broke off. */
interface PausedAnswer {
  status: number;
  first: Buffer;
  /** Reads the rest: the whole body, and whether it ended whole (false: the connection closed before its end). */
  rest(): Promise<{ text: string; complete: boolean }>;
  /** Leaves without reading the rest: the connection destroyed. */
  leave(): void;
}

/** GET `path` on a connection of its own, paused as soon as the first chunk of its body has arrived. */
function pausedGet(server: StartedSandbox, path: string): Promise<PausedAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${server.origin}${path}`, { agent: false }, (response) => {
      const chunks: Buffer[] = [];
      const ended = new Promise<boolean>((settle) => response.once("close", () => settle(response.complete)));
      response.once("data", (first: Buffer) => {
        response.pause();
        const rest = async () => {
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.resume();
          const complete = await ended;
          return { text: Buffer.concat([first, ...chunks]).toString("utf8"), complete };
        };
        resolve({ status: response.statusCode!, first, rest, leave: () => response.destroy() });
      });
      response.once("error", () => undefined); // a body cut short: `complete` says so
    });
    request.once("error", reject);
  });
}

/** An API request on another connection (fetch's own pool). */
async function quote(server: StartedSandbox, key: string): Promise<string> {
  const headers = { "x-api-key": key, "content-type": "application/json" };
  const answer = await fetch(`${server.baseUrl}/trades/quote`, {
    method: "POST",
    headers,
    body: JSON.stringify(QUOTE),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: { id: string } }).data.id;
}

it("answers another request while a client holds the export unread, then sends the rest: the whole state", async () => {
  const server = await start();
  const paused = await pausedGet(server, "/_sandbox/state");
  expect(paused.status).toBe(200);
  const rates = await fetch(`${server.baseUrl}/currencies/fiat-rates`);
  expect(rates.status).toBe(200);
  const { text, complete } = await paused.rest();
  expect(complete).toBe(true);
  expect(text.length).toBeGreaterThan(35_000_000);
  expect(JSON.parse(text)).toEqual(server.sandbox.snapshot()); // no account has a secret to leave out
});

it("writes each store wholly before or after a change during the pause, the ids last; the text restores", async () => {
  const server = await start();
  const paused = await pausedGet(server, "/_sandbox/state");
  // The first store went out with the first chunk; the last is still to be written.
  const firstBefore = server.sandbox.accountState(KEYS[0]!);
  const [early, late] = [await quote(server, KEYS[0]!), await quote(server, KEYS[39]!)];
  const { text, complete } = await paused.rest();
  expect(complete).toBe(true);
  const exported = JSON.parse(text) as SandboxState;
  expect(exported.accounts[KEYS[0]!]).toEqual(firstBefore);
  expect(exported.accounts[KEYS[0]!]!.quotes.map(({ id }) => id)).not.toContain(early);
  expect(exported.accounts[KEYS[39]!]!.quotes.at(-1)!.id).toBe(late);
  const counters = Object.values(exported.accounts).flatMap((store) => store.quotes.map(({ id }) => quoteCounter(id)!));
  expect(Math.max(...counters)).toBe(quoteCounter(late));
  expect(exported.ids.counter).toBeGreaterThanOrEqual(quoteCounter(late)!);
  const restore = await fetch(`${server.origin}/_sandbox/state`, { method: "PUT", body: text });
  expect(restore.status).toBe(204);
  expect(server.sandbox.accountState(KEYS[39]!)!.quotes).toHaveLength(2_501);
});

it("ends the body early, and logs the sandbox bug, when a store breaks the control document mid-way", async () => {
  const server = await start();
  const last = engineOf(server.sandbox)!.state.accounts[KEYS[39]!]!;
  (last as { business: unknown }).business = "yes"; // reached into: no request makes this
  const paused = await pausedGet(server, "/_sandbox/state");
  expect(paused.status).toBe(200);
  const { text, complete } = await paused.rest();
  expect(complete).toBe(false);
  expect(() => JSON.parse(text)).toThrow();
  expect(lines).toEqual([
    "sandbox bug: GET /_sandbox/state: the sandbox's control answer breaks its document: " +
      "GET /_sandbox/state 200: /accounts/key-39/business must be boolean",
  ]);
});

it("ends the export when its client leaves mid-way: the stores after it are never serialized for it", async () => {
  const server = await start();
  // Which stores are serialized, in order: a toJSON that JSON.stringify calls and the store checks do not see.
  const serialized: string[] = [];
  for (const [key, store] of Object.entries(engineOf(server.sandbox)!.state.accounts))
    Object.defineProperty(store, "toJSON", {
      value(this: object) {
        serialized.push(key);
        return { ...this };
      },
    });
  const paused = await pausedGet(server, "/_sandbox/state?secrets=true");
  expect(paused.status).toBe(200);
  paused.leave();
  // A whole second export: the turns it takes are turns in which a left export that went on would finish.
  const whole = await fetch(`${server.origin}/_sandbox/state?secrets=true`);
  expect(Object.keys((await whole.json()) as object)).toContain("accounts");
  expect(serialized.filter((key) => key === KEYS[39])).toEqual([KEYS[39]]);
  expect(serialized.length).toBeLessThan(80);
});
