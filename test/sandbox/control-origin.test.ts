// pins: control.origin
// The control API over HTTP answers only the sandbox's own origin (choices.ts, "control.origin"), on real sockets
// on 127.0.0.1: a page of another origin gets no CORS header and no preflight for it, a request with a foreign
// Origin is refused 403 (a "simple" one too, nothing changed), one whose Host is not the sandbox's (DNS rebinding)
// 421; curl-like requests (no Origin) and the sandbox's own origin are answered; the API under /v1 keeps its CORS.
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { controlHosts, isControlTarget } from "../../src/sandbox/control-origin.js";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";
import { API_KEY_HEADER, BASE_PATH } from "../support/spec.js";

const started: StartedSandbox[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()));
});

const SECRETS = { apiSecret: "api-secret-of-alice", webhookSecret: "webhook-secret-of-alice" };
const START = Date.UTC(2026, 0, 1);

/** A sandbox on 127.0.0.1 at a free port, holding an account with both secrets. */
async function start(): Promise<StartedSandbox> {
  const server = await startSandbox({ port: 0, quiet: true, config: { clock: { start: START } } });
  started.push(server);
  server.sandbox.putAccount("alice", { balances: { USDT: 10 }, ...SECRETS });
  return server;
}

interface Seen {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request as a browser (or an attacker's page) could send it: any Host and Origin, read whole. */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const sent = http.request({ host: "127.0.0.1", port, method, path, headers, agent: false });
    sent.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    sent.on("error", reject);
    sent.end(body);
  });
}

const corsOf = (seen: Seen) => Object.keys(seen.headers).filter((name) => name.startsWith("access-control-"));

describe("the control API over HTTP, to a page of another origin", () => {
  it("refuses a preflight for PUT /_sandbox/state: 403 { message }, no access-control-* header", async () => {
    const server = await start();
    const preflight = await send(server.port, "OPTIONS", "/_sandbox/state", {
      origin: "http://evil.example",
      "access-control-request-method": "PUT",
      "access-control-request-headers": "content-type",
    });
    expect(preflight.status).toBe(403);
    expect(corsOf(preflight)).toEqual([]);
    expect(preflight.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(preflight.body)).toEqual({ message: expect.stringContaining("no CORS") });
  });

  it("refuses GET /_sandbox/state with a foreign Origin: 403, no secret, no CORS header", async () => {
    const server = await start();
    const read = await send(server.port, "GET", "/_sandbox/state?secrets=true", { origin: "http://evil.example" });
    expect(read.status).toBe(403);
    expect(corsOf(read)).toEqual([]);
    expect(JSON.parse(read.body)).toEqual({ message: expect.stringContaining("http://evil.example") });
    expect(read.body).not.toContain("api-secret-of-alice");
    expect(read.body).not.toContain("webhook-secret-of-alice");
  });

  it("refuses a simple (unpreflighted) POST or PUT from a foreign Origin, and nothing changes", async () => {
    const server = await start();
    const page = { origin: "http://evil.example", "content-type": "text/plain" };
    const advance = await send(server.port, "POST", "/_sandbox/clock/advance", page, '{"ms":60000}');
    expect(advance.status).toBe(403);
    expect(server.sandbox.clock.now()).toBe(START);
    const restore = await send(server.port, "PUT", "/_sandbox/state", page, '{"version":1,"accounts":{}}');
    expect(restore.status).toBe(403);
    expect(server.sandbox.getAccount("alice")?.hasApiSecret).toBe(true);
    // Origin null: a sandboxed frame, a file:// page.
    expect((await send(server.port, "GET", "/_sandbox/clock", { origin: "null" })).status).toBe(403);
  });

  it("refuses a control path written through /v1 and dot segments, as sandbox.fetch would route it", async () => {
    const server = await start();
    const hidden = "/v1/../_sandbox/state";
    const read = await send(server.port, "GET", hidden, { origin: "http://evil.example" });
    expect(read.status).toBe(403);
    expect(corsOf(read)).toEqual([]);
    expect(read.body).not.toContain("api-secret-of-alice");
    const preflight = await send(server.port, "OPTIONS", hidden, {
      origin: "http://evil.example",
      "access-control-request-method": "PUT",
    });
    expect(preflight.status).toBe(403);
    expect(corsOf(preflight)).toEqual([]);
  });
});

describe("the control API over HTTP, by Host (DNS rebinding)", () => {
  it("refuses a Host that is not the sandbox's with 421, no secret, whatever the Origin", async () => {
    const server = await start();
    const port = server.port;
    const refused = [
      `evil.example:${port}`,
      "evil.example",
      `127.0.0.1:${port === 65535 ? 1 : port + 1}`,
      "127.0.0.1",
      `127.0.0.2:${port}`,
    ];
    const found = await Promise.all(
      refused.map(async (host) => {
        const seen = await send(port, "GET", "/_sandbox/state", { host });
        return { host, status: seen.status, secret: seen.body.includes("api-secret-of-alice"), cors: corsOf(seen) };
      }),
    );
    expect(found).toEqual(refused.map((host) => ({ host, status: 421, secret: false, cors: [] })));
    const rebound = await send(port, "GET", "/_sandbox/state", {
      host: `evil.example:${port}`,
      origin: `http://evil.example:${port}`,
    });
    expect(rebound.status).toBe(421);
    expect(JSON.parse(rebound.body)).toEqual({ message: expect.stringContaining(`evil.example:${port}`) });
  });

  it("refuses a target in absolute form that names another host, even with the sandbox's Host", async () => {
    const server = await start();
    const seen = await send(server.port, "GET", `http://evil.example:${server.port}/_sandbox/state`);
    expect(seen.status).toBe(421);
    expect(seen.body).not.toContain("api-secret-of-alice");
  });

  it("answers to 127.0.0.1, localhost and [::1] with its port, in any case", async () => {
    const server = await start();
    const port = server.port;
    const hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LocalHost:${port}`];
    const statuses = await Promise.all(
      hosts.map(async (host) => (await send(port, "GET", "/_sandbox/clock", { host })).status),
    );
    expect(statuses).toEqual([200, 200, 200, 200]);
  });
});

describe("the control API over HTTP, to its own callers", () => {
  it("answers a request without Origin (curl, Node) and one from its own origin, with no CORS header", async () => {
    const server = await start();
    const curl = await send(server.port, "GET", "/_sandbox/state?secrets=true");
    expect(curl.status).toBe(200);
    expect(curl.body).toContain("api-secret-of-alice"); // the state holds the secrets: what the 403s keep
    expect(corsOf(curl)).toEqual([]);
    for (const origin of [`http://127.0.0.1:${server.port}`, `http://localhost:${server.port}`]) {
      const own = await send(server.port, "GET", "/_sandbox/clock", { origin });
      expect(own.status, origin).toBe(200);
      expect(JSON.parse(own.body), origin).toEqual({ now: START, iso: "2026-01-01T00:00:00.000Z" });
      expect(corsOf(own), origin).toEqual([]);
    }
    const fetched = await fetch(`${server.origin}/_sandbox/clock/advance`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"ms":1000}',
    });
    expect(fetched.status).toBe(200);
    expect(server.sandbox.clock.now()).toBe(START + 1000);
  });

  it("refuses a CORS preflight from its own origin too, and answers an OPTIONS or GET that is none", async () => {
    const server = await start();
    const own = { origin: `http://127.0.0.1:${server.port}` };
    const preflight = await send(server.port, "OPTIONS", "/_sandbox/clock", {
      ...own,
      "access-control-request-method": "GET",
    });
    expect([preflight.status, preflight.body]).toEqual([
      403,
      '{"message":"the control API answers no CORS preflight (no CORS)"}',
    ]);
    const options = await send(server.port, "OPTIONS", "/_sandbox/clock", own);
    expect([options.status, options.body]).toEqual([404, '{"message":"no control route OPTIONS /_sandbox/clock"}']);
    const read = await send(server.port, "GET", "/_sandbox/clock", { ...own, "access-control-request-method": "GET" });
    expect([read.status, JSON.parse(read.body)]).toEqual([200, { now: START, iso: "2026-01-01T00:00:00.000Z" }]);
  });
});

describe("the API under /v1 over HTTP", () => {
  it("keeps its CORS headers for a page of another origin, and answers its preflight 204", async () => {
    const server = await start();
    const page = { origin: "http://app.example" };
    const rates = await send(server.port, "GET", `${BASE_PATH}/currencies/fiat-rates`, {
      ...page,
      [API_KEY_HEADER]: "alice-page",
    });
    expect(rates.status).toBe(200);
    expect(rates.headers["access-control-allow-origin"]).toBe("http://app.example");
    expect(rates.headers["access-control-allow-credentials"]).toBe("true");
    const preflight = await send(server.port, "OPTIONS", `${BASE_PATH}/trades/quote`, {
      ...page,
      "access-control-request-method": "POST",
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("http://app.example");
    expect(preflight.headers["access-control-allow-methods"]).toBe("POST");
  });
});

describe("which targets and hosts are the control API's", () => {
  it("reads a target as the URL parser does", () => {
    const table: Array<[string, boolean]> = [
      ["/_sandbox", true],
      ["/_sandbox/state", true],
      ["/_sandbox/clock?x=1", true],
      ["/v1/../_sandbox/state", true],
      ["/v1/%2e%2e/_sandbox/state", true],
      ["http://127.0.0.1:4020/_sandbox/state", true],
      ["/_sandboxes", false],
      ["/%5Fsandbox/state", false],
      ["/v1/_sandbox", false],
      ["/v1/currencies/fiat-rates", false],
      ["http://[/_sandbox/state", false], // no URL: the URL parser refuses it
    ];
    expect(table.map(([target]) => [target, isControlTarget(target)])).toEqual(table);
  });

  it("answers to loopback names and the address it listens on, with the port (and without on port 80)", () => {
    expect([...controlHosts("127.0.0.1", 4020)].sort()).toEqual(["127.0.0.1:4020", "[::1]:4020", "localhost:4020"]);
    expect([...controlHosts("192.0.2.1", 4020)].sort()).toEqual([
      "127.0.0.1:4020",
      "192.0.2.1:4020",
      "[::1]:4020",
      "localhost:4020",
    ]);
    expect([...controlHosts("::1", 80)].sort()).toEqual([
      "127.0.0.1",
      "127.0.0.1:80",
      "[::1]",
      "[::1]:80",
      "localhost",
      "localhost:80",
    ]);
    expect(controlHosts("0.0.0.0", 4020).has("0.0.0.0:4020")).toBe(true);
  });
});
