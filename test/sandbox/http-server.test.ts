// pins: accounts.unknown-key, answers.http
// The sandbox's HTTP front (startSandbox, src/sandbox/server.ts) on real sockets on 127.0.0.1: it starts on a free
// port and stops (nothing answers after), loads its --state file at start and saves it on stop atomically (a
// write that fails half-way leaves the previous file whole), reads a --config file, refuses to listen off
// loopback without a control token (and enforces one given on loopback), answers CORS preflights for the API (a
// page on another origin can use it; not the control API: control-origin.test.ts), refuses a body over its limit
// with 413 and the published error body, and keeps answering others while a slow or large request arrives.
import { createHmac } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isLoopbackHost, type StartedSandbox, startSandbox, writeFileAtomically } from "../../src/sandbox/server.js";
import { DEFAULT_MAX_BODY_BYTES } from "../../src/pipeline/limits.js";
import { API_KEY_HEADER, BASE_PATH, RATE_LIMIT_HEADERS, SIGNING_HEADERS } from "../support/spec.js";

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "sandbox-http-"));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

const started: StartedSandbox[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()));
});

async function start(options: Parameters<typeof startSandbox>[0] = {}): Promise<StartedSandbox> {
  const server = await startSandbox({ port: 0, ...options });
  started.push(server);
  return server;
}

const json = (body: unknown) => ({ "content-type": "application/json", body: JSON.stringify(body) });

/** PUT /_sandbox/accounts/{key} with `settings`, with the token when given. */
function putAccount(origin: string, key: string, settings: unknown, token?: string) {
  const { body, ...headers } = json(settings);
  return fetch(`${origin}/_sandbox/accounts/${key}`, {
    method: "PUT",
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  });
}

describe("startSandbox", () => {
  it("listens on 127.0.0.1 at a free port, answers the API and the control API, and stops", async () => {
    const start = Date.UTC(2026, 0, 1);
    const server = await startSandbox({ port: 0, config: { clock: { start } } });
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.baseUrl).toBe(`${server.origin}${BASE_PATH}`);
    expect(server.port).toBeGreaterThan(0);
    const rates = await fetch(`${server.baseUrl}/currencies/fiat-rates`, { headers: { [API_KEY_HEADER]: "k" } });
    expect(rates.status).toBe(200);
    expect(rates.headers.get(RATE_LIMIT_HEADERS.limit)).not.toBeNull();
    const clock = await fetch(`${server.origin}/_sandbox/clock`);
    expect(clock.status).toBe(200);
    expect(await clock.json()).toEqual({ now: start, iso: new Date(start).toISOString() });
    await server.stop();
    await server.stop(); // a second stop does nothing more
    await expect(fetch(`${server.origin}/_sandbox/clock`)).rejects.toThrow();
  });

  it("answers what sandbox.fetch answers: one engine behind the socket", async () => {
    const server = await start({ config: { clock: { start: Date.UTC(2026, 0, 1) } } });
    await putAccount(server.origin, "alice", { balances: { USDT: 12.5 } });
    const overHttp = await fetch(`${server.baseUrl}/wallets/USDT`, { headers: { [API_KEY_HEADER]: "alice" } });
    const inProcess = await server.sandbox.fetch(
      new Request(`${server.baseUrl}/wallets/USDT`, { headers: { [API_KEY_HEADER]: "alice" } }),
    );
    expect(overHttp.status).toBe(inProcess.status);
    expect(await overHttp.json()).toEqual(await inProcess.json());
    expect(server.sandbox.getAccount("alice")?.balances.USDT).toBe(12.5);
  });
});

describe("a browser page on another origin", () => {
  it("gets its CORS preflight for the API answered, and every API answer carries CORS headers", async () => {
    const server = await start();
    const preflight = await fetch(`${server.baseUrl}/trades/quote`, {
      method: "OPTIONS",
      headers: { origin: "http://app.test", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("http://app.test");
    expect(preflight.headers.get("access-control-allow-methods")).toBe("POST");
    const answer = await fetch(`${server.baseUrl}/wallets/USDT`, {
      headers: { origin: "http://app.test", [API_KEY_HEADER]: "web" },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe("http://app.test");
  });
});

describe("--state", () => {
  it("starts empty without the file, saves the whole state on stop, and loads it at the next start", async () => {
    const statePath = path.join(folder, "fresh", "state.json");
    await mkdir(path.dirname(statePath), { recursive: true });
    const first = await startSandbox({ port: 0, statePath, config: { clock: { start: Date.UTC(2026, 0, 1) } } });
    expect((await putAccount(first.origin, "bob", { balances: { USDT: 40 }, business: true })).status).toBe(200);
    await fetch(`${first.origin}/_sandbox/clock/advance`, { method: "POST", ...json({ ms: 5000 }) });
    const snapshot = first.sandbox.snapshot();
    await first.stop();
    expect(JSON.parse(await readFile(statePath, "utf8"))).toEqual(JSON.parse(JSON.stringify(snapshot)));
    // Nothing but the state file is left in its folder (no temporary file).
    expect(await readdir(path.dirname(statePath))).toEqual(["state.json"]);

    const second = await start({ statePath });
    const account = await fetch(`${second.origin}/_sandbox/accounts/bob`);
    expect(account.status).toBe(200);
    expect(await account.json()).toMatchObject({ apiKey: "bob", balances: { USDT: 40 }, business: true });
    expect(second.sandbox.clock.now()).toBe(Date.UTC(2026, 0, 1) + 5000);
  });

  it("says in its log what it loads and saves; a loaded state wins over the --config file's accounts", async () => {
    const statePath = path.join(folder, "logged", "state.json");
    await mkdir(path.dirname(statePath), { recursive: true });
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    const config = { clock: { start: Date.UTC(2026, 0, 1) }, accounts: { carol: { balances: { USDT: 7 } } } };
    const first = await startSandbox({ port: 0, statePath, config, log, quiet: true });
    await putAccount(first.origin, "bob", { balances: { USDT: 40 } });
    await first.stop();
    const second = await start({ statePath, config: { ...config, accounts: { dave: {} } }, log, quiet: true });
    expect(Object.keys(second.sandbox.snapshot().accounts)).toEqual(["carol", "bob"]);
    expect(lines).toEqual([
      `sandbox state: ${statePath} does not exist yet; every change is journaled to ${statePath}.journal`,
      `sandbox state saved to ${statePath}: 2 account(s)`,
      `sandbox state loaded from ${statePath}: 2 account(s), clock at 2026-01-01T00:00:00.000Z; it wins over the ` +
        "--config file's accounts, clock, which are not applied",
    ]);
  });

  it("refuses to start on a file that holds no JSON, and leaves the file as it was", async () => {
    const statePath = path.join(folder, "broken.json");
    await writeFile(statePath, "{ not json");
    await expect(startSandbox({ port: 0, statePath })).rejects.toThrow(/--state .*broken\.json.*left as it is/);
    expect(await readFile(statePath, "utf8")).toBe("{ not json");
  });

  it("refuses to start on a state this version cannot restore, naming the file, and leaves it as it was", async () => {
    const statePath = path.join(folder, "future.json");
    await writeFile(statePath, JSON.stringify({ version: 99 }));
    await expect(startSandbox({ port: 0, statePath })).rejects.toThrow(/--state .*future\.json: .*left as it is/);
    expect(await readFile(statePath, "utf8")).toBe(JSON.stringify({ version: 99 }));
  });

  it("refuses to start where it could not save on stop: a folder, a missing folder, a file as the folder", async () => {
    await expect(startSandbox({ port: 0, statePath: folder })).rejects.toThrow(
      `--state ${folder}: it is a folder: give the path of a file (it is made on stop when missing)`,
    );
    const missing = path.join(folder, "no-such-folder");
    await expect(startSandbox({ port: 0, statePath: path.join(missing, "state.json") })).rejects.toThrow(
      `its folder ${missing} does not exist, so the state could not be saved on stop`,
    );
    const file = path.join(folder, "a-file");
    await writeFile(file, "");
    for (const below of [file, path.join(file, "deeper")])
      await expect(startSandbox({ port: 0, statePath: path.join(below, "state.json") })).rejects.toThrow(
        `its folder ${below} is not a folder, so the state could not be saved on stop`,
      );
  });
});

describe("the Date header", () => {
  it("is the sandbox clock's time, as it moves, on API and control answers alike", async () => {
    const server = await start({ config: { clock: { start: Date.UTC(2026, 0, 1) } } });
    const dates = [];
    dates.push((await fetch(`${server.baseUrl}/currencies/fiat-rates`)).headers.get("date"));
    server.sandbox.clock.advance(61_999);
    dates.push((await fetch(`${server.baseUrl}/currencies/fiat-rates`)).headers.get("date"));
    dates.push((await fetch(`${server.origin}/_sandbox/clock`)).headers.get("date"));
    expect(dates).toEqual([
      "Thu, 01 Jan 2026 00:00:00 GMT",
      "Thu, 01 Jan 2026 00:01:01 GMT",
      "Thu, 01 Jan 2026 00:01:01 GMT",
    ]);
  });
});

describe("the control API's body limit", () => {
  it("takes back a state over the API's 1 MiB limit that GET /_sandbox/state answered", async () => {
    const server = await start({ config: { clock: { start: Date.UTC(2026, 0, 1) } } });
    for (let i = 0; i < 2000; i++) server.sandbox.putAccount(`key-${i}`, { business: true });
    const state = await (await fetch(`${server.origin}/_sandbox/state`)).text();
    expect(state.length).toBeGreaterThan(1024 * 1024);
    const put = await fetch(`${server.origin}/_sandbox/state`, { method: "PUT", ...json(JSON.parse(state)) });
    expect(put.status).toBe(204);
    expect(Object.keys(server.sandbox.snapshot().accounts)).toHaveLength(2000);
    // The API keeps its limit: the same bytes to an operation are refused.
    const quote = await fetch(`${server.origin}${BASE_PATH}/trades/quote`, {
      method: "POST",
      headers: { "content-type": "application/json", [API_KEY_HEADER]: "key-1" },
      body: state,
    });
    expect([quote.status, (await quote.json()).message]).toEqual([413, "the body is larger than 1048576 bytes"]);
  });
});

describe("writeFileAtomically (how --state is saved)", () => {
  it("replaces the file whole", async () => {
    const file = path.join(folder, "atomic-ok.json");
    await writeFile(file, "old");
    await writeFileAtomically(file, "new text");
    expect(await readFile(file, "utf8")).toBe("new text");
    expect((await readdir(folder)).filter((name) => name.includes("atomic-ok"))).toEqual(["atomic-ok.json"]);
  });

  it("leaves the previous file whole, and no temporary file, when the write fails half-way", async () => {
    const file = path.join(folder, "atomic-fail.json");
    const previous = JSON.stringify({ version: 1, kept: "x".repeat(10_000) });
    await writeFile(file, previous);
    const next = JSON.stringify({ version: 1, replaced: "y".repeat(10_000) });
    let wrote = 0;
    const failHalfWay = async (handle: import("node:fs/promises").FileHandle, text: string) => {
      const half = text.slice(0, text.length / 2);
      await handle.write(half);
      wrote = half.length;
      throw new Error("disk full (simulated)");
    };
    await expect(writeFileAtomically(file, next, failHalfWay)).rejects.toThrow("disk full (simulated)");
    expect(wrote).toBeGreaterThan(0); // the simulated crash came after part of the new text was written
    expect(await readFile(file, "utf8")).toBe(previous);
    expect((await readdir(folder)).filter((name) => name.includes("atomic-fail"))).toEqual(["atomic-fail.json"]);
  });
});

describe("--config", () => {
  it("configures the sandbox from a JSON file of its options", async () => {
    const config = path.join(folder, "config.json");
    await writeFile(config, JSON.stringify({ accounts: { carol: { balances: { USDT: 7 } } }, requireKnownKeys: true }));
    const server = await start({ config });
    const known = await fetch(`${server.baseUrl}/wallets/USDT`, { headers: { [API_KEY_HEADER]: "carol" } });
    expect(known.status).toBe(200);
    const unknown = await fetch(`${server.baseUrl}/wallets/USDT`, { headers: { [API_KEY_HEADER]: "mallory" } });
    expect(unknown.status).toBe(401);
  });

  it("takes the withdrawal and webhook settings a JSON file can hold", async () => {
    const config = path.join(folder, "money.json");
    const settings = { withdrawals: { settleAfterMs: null }, webhooks: { retry: [5000], timeoutMs: 1000 } };
    // Port 9 on loopback: nothing listens there, so every delivery attempt is refused.
    const dave = { balances: { USDT: 100 }, webhookUrl: "http://127.0.0.1:9/hook", webhookSecret: "s" };
    await writeFile(
      config,
      JSON.stringify({ ...settings, accounts: { dave }, clock: { start: Date.UTC(2026, 0, 1) } }),
    );
    const server = await start({ config });
    const headers = { [API_KEY_HEADER]: "dave", "content-type": "application/json" };
    const destination = { address: `T${"9".repeat(33)}`, network: "TRX" };
    const body = JSON.stringify({ amount: 10, currency: "USDT", destination, narration: "config" });
    const withdrawal = await fetch(`${server.baseUrl}/wallets/ext/debit/crypto`, { method: "POST", headers, body });
    expect(withdrawal.status).toBe(200);
    await server.sandbox.webhooks.settled();
    server.sandbox.clock.advance(365 * 24 * 3_600_000);
    await server.sandbox.webhooks.settled();
    const outbox = await server.sandbox.webhooks.list("dave");
    // settleAfterMs null: a year later, only the first state was sent; retry [5000]: two attempts, then failed.
    expect(outbox.map((webhook) => JSON.parse(webhook.body).status)).toEqual(["PENDING"]);
    expect(outbox.map((webhook) => [webhook.status, webhook.attempts.length])).toEqual([["failed", 2]]);
  });

  it("refuses a file with an option it does not know, naming it", async () => {
    const config = path.join(folder, "typo.json");
    await writeFile(config, JSON.stringify({ acounts: {} }));
    await expect(startSandbox({ port: 0, config })).rejects.toThrow(/unknown option acounts/);
  });

  it("refuses a typo inside an option too: a limit, a webhook setting, an account's setting", async () => {
    const typos = [
      [
        { limits: { quotesPerHr: 3 } },
        /unknown option limits\.quotesPerHr \(known: requestsPerMinute, quotesPerHour\)/,
      ],
      [{ webhooks: { timeout: 1000 } }, /unknown option webhooks\.timeout /],
      [{ accounts: { carol: { balance: { USDT: 7 } } } }, /unknown option accounts\.carol\.balance /],
    ] as const;
    for (const [options, message] of typos) {
      const config = path.join(folder, "nested-typo.json");
      await writeFile(config, JSON.stringify(options));
      await expect(startSandbox({ port: 0, config })).rejects.toThrow(message);
    }
    const whole = path.join(folder, "nested-known.json");
    await writeFile(whole, JSON.stringify({ limits: { quotesPerHour: 3 }, accounts: { carol: { balances: {} } } }));
    await (await start({ config: whole })).stop();
  });
});

describe("the control token", () => {
  it("is required to listen on an interface other than loopback (nothing is bound without it)", async () => {
    await expect(startSandbox({ port: 0, host: "0.0.0.0" })).rejects.toThrow(/not a loopback interface.*--token/);
    await expect(startSandbox({ port: 0, host: "192.0.2.1" })).rejects.toThrow(/needs a token/);
  });

  it("given at start, guards the control API (401 without it or with another) and not the API", async () => {
    const server = await start({ controlToken: "s3cret" });
    expect((await putAccount(server.origin, "dave", { balances: { USDT: 1 } })).status).toBe(401);
    expect((await putAccount(server.origin, "dave", { balances: { USDT: 1 } }, "wrong")).status).toBe(401);
    expect((await putAccount(server.origin, "dave", { balances: { USDT: 1 } }, "s3cret")).status).toBe(200);
    const wallet = await fetch(`${server.baseUrl}/wallets/USDT`, { headers: { [API_KEY_HEADER]: "dave" } });
    expect(wallet.status).toBe(200);
  });

  it("may come from the config file instead (kept out of process lists); the argument wins", async () => {
    const config = path.join(folder, "token.json");
    await writeFile(config, JSON.stringify({ controlToken: "from-file" }));
    const fromFile = await start({ config });
    expect(fromFile.tokenRequired).toBe(true);
    expect((await putAccount(fromFile.origin, "erin", {})).status).toBe(401);
    expect((await putAccount(fromFile.origin, "erin", {}, "from-file")).status).toBe(200);
    const overridden = await start({ config, controlToken: "from-argument" });
    expect((await putAccount(overridden.origin, "erin", {}, "from-file")).status).toBe(401);
    expect((await putAccount(overridden.origin, "erin", {}, "from-argument")).status).toBe(200);
    expect((await start()).tokenRequired).toBe(false);
  });

  it("knows loopback hosts from the others", () => {
    for (const host of ["127.0.0.1", "localhost", "::1", "[::1]", "127.1.2.3", "::ffff:127.0.0.1"])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["0.0.0.0", "::", "192.168.1.2", "10.0.0.1", "example.com", "128.0.0.1"])
      expect(isLoopbackHost(host), host).toBe(false);
    fc.assert(fc.property(fc.ipV4(), (address) => isLoopbackHost(address) === (address.split(".")[0] === "127")));
  });
});

/** Sends a request head and `body` on a raw socket, ending it; resolves with what came back once closed. */
function rawRequest(port: number, head: string, body: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", () => {}); // the server closes the connection while the body still arrives
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.end(Buffer.concat([Buffer.from(head), body]));
  });
}

describe("request bodies", () => {
  it("over maxBodyBytes are refused 413 with the published error body and the rate-limit headers", async () => {
    const lines: string[] = [];
    const server = await start({ maxBodyBytes: 256, log: (line) => lines.push(line) });
    const head =
      `POST ${BASE_PATH}/trades/quote HTTP/1.1\r\nhost: 127.0.0.1\r\n${API_KEY_HEADER}: k\r\n` +
      "content-type: application/json\r\ncontent-length: 300\r\n\r\n";
    const answer = await rawRequest(server.port, head, Buffer.alloc(300, 0x20));
    expect(answer.match(/^HTTP\/1\.1 \d+/gm)).toEqual(["HTTP/1.1 413"]);
    expect(answer.toLowerCase()).toContain(`${RATE_LIMIT_HEADERS.limit}: `);
    const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as { message: string };
    expect(body.message).toBe("the body is larger than 256 bytes");
    expect(lines).toEqual([`POST ${BASE_PATH}/trades/quote → 413 (the body is larger than 256 bytes)`]);
    // The refused request never reached the engine: its key got no account.
    expect(server.sandbox.getAccount("k")).toBeUndefined();
    expect((await fetch(`${server.origin}/_sandbox/clock`)).status).toBe(200);
  });

  it("are answered to a client that ends its side right after sending, even when Web Crypto is waited on", async () => {
    const server = await start({ config: { accounts: { signer: { apiSecret: "s" } } } });
    const target = `${BASE_PATH}/wallets/me`;
    const timestamp = String(server.sandbox.clock.now());
    const signature = createHmac("sha256", "s").update(`GET${target}${timestamp}`).digest("hex");
    const head =
      `GET ${target} HTTP/1.1\r\nhost: 127.0.0.1\r\n${API_KEY_HEADER}: signer\r\n` +
      `${SIGNING_HEADERS.timestamp}: ${timestamp}\r\n${SIGNING_HEADERS.signature}: ${signature}\r\n\r\n`;
    // rawRequest ends the socket's sending side with the request: the signature check answers after that.
    expect(await rawRequest(server.port, head, Buffer.alloc(0))).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("over the default 1 MiB are refused 413; one of exactly 1 MiB is read and judged", async () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(1024 * 1024); // the sandbox guide's and the register's figure
    const server = await start();
    const head = (length: number) =>
      `POST ${BASE_PATH}/trades/quote HTTP/1.1\r\nhost: 127.0.0.1\r\n${API_KEY_HEADER}: k\r\n` +
      `content-type: application/json\r\ncontent-length: ${length}\r\nconnection: close\r\n\r\n`;
    const statusOf = async (length: number) =>
      (await rawRequest(server.port, head(length), Buffer.alloc(length, 0x20))).match(/^HTTP\/1\.1 (\d+)/)?.[1];
    expect(await statusOf(DEFAULT_MAX_BODY_BYTES + 1)).toBe("413");
    // Whitespace only: read whole, then refused as no JSON body, not as too large.
    expect(await statusOf(DEFAULT_MAX_BODY_BYTES)).toBe("400");
  });

  it("arriving slowly, or large and invalid, do not hold up the other requests", async () => {
    const server = await start();
    // A request whose body never finishes arriving: its head promises 1000 bytes, 10 come.
    const slow = net.connect(server.port, "127.0.0.1");
    slow.on("error", () => {});
    slow.write(
      `POST ${BASE_PATH}/trades/quote HTTP/1.1\r\nhost: 127.0.0.1\r\n${API_KEY_HEADER}: k\r\n` +
        'content-type: application/json\r\ncontent-length: 1000\r\n\r\n{ "amount',
    );
    // 1 MiB of invalid JSON, under the limit, being read while a GET is asked.
    const large = Buffer.alloc(1024 * 1024 - 1, 0x78);
    const headLarge =
      `POST ${BASE_PATH}/trades/quote HTTP/1.1\r\nhost: 127.0.0.1\r\n${API_KEY_HEADER}: k\r\n` +
      `content-type: application/json\r\ncontent-length: ${large.length}\r\nconnection: close\r\n\r\n`;
    const [largeAnswer, rates] = await Promise.all([
      rawRequest(server.port, headLarge, large),
      fetch(`${server.baseUrl}/currencies/fiat-rates`, { headers: { [API_KEY_HEADER]: "k" } }),
    ]);
    expect(rates.status).toBe(200);
    expect(largeAnswer).toMatch(/^HTTP\/1\.1 400 /);
    // The slow request is still open and unanswered; the server answered around it.
    expect(slow.destroyed).toBe(false);
    slow.destroy();
  });
});
