// pins: control.origin
// The control API's origin rule (choices.ts, "control.origin") tried from Debian's Chromium, as a page the developer
// has open would try it: a page of another origin (127.0.0.1 at another port) cannot read GET /_sandbox/state (with
// or without credentials), cannot get a preflight for PUT /_sandbox/state, and its "simple" requests that need no
// preflight (a text/plain POST to /_sandbox/clock/advance, a form POST to /_sandbox/deposits) change nothing; a
// DNS-rebinding page (a name of its own resolved to 127.0.0.1 at the sandbox's port, so same-origin to the browser)
// is refused 421 by Host. The API under /v1 keeps the CORS its browser clients need.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_FLAGS } from "../../scripts/lib/chromium.js";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";
import { START } from "./support/sandbox.js";

let sandbox: StartedSandbox;
let page: Server;
let browser: BrowserContext;
let tab: Page;

interface Server {
  origin: string;
  close(): Promise<void>;
}

/** The other origin's page: an empty document on 127.0.0.1 at a port of its own. */
async function servePage(): Promise<Server> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>another site</title>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, config: { clock: { start: START } } });
  sandbox.sandbox.putAccount("victim", { balances: { USDT: 10 }, apiSecret: "victim-secret" });
  page = await servePage();
  browser = await chromium.launchPersistentContext("", {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_FLAGS, "--host-resolver-rules=MAP rebind.test 127.0.0.1"],
  });
  tab = browser.pages()[0] ?? (await browser.newPage());
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await page?.close();
  await sandbox?.stop();
});

/** What a fetch from the page gets: an error's name, or the status, type and text a page may read. */
function fromPage(url: string, init: RequestInit = {}) {
  return tab.evaluate(
    async ([target, options]) => {
      try {
        const response = await fetch(target, options);
        const text = response.type === "opaque" ? null : await response.text();
        return { status: response.status, type: response.type, text };
      } catch (error) {
        return { error: (error as Error).name };
      }
    },
    [url, init] as const,
  );
}

describe("the control API from a page of another origin, in Chromium", () => {
  it("cannot be read, with or without credentials, nor preflighted for a restore", async () => {
    await tab.goto(`${page.origin}/`);
    const state = `${sandbox.origin}/_sandbox/state?secrets=true`;
    expect(await fromPage(state)).toEqual({ error: "TypeError" });
    expect(await fromPage(state, { credentials: "include" })).toEqual({ error: "TypeError" });
    const restore = { method: "PUT", headers: { "content-type": "application/json" }, body: "{}" };
    expect(await fromPage(`${sandbox.origin}/_sandbox/state`, restore)).toEqual({ error: "TypeError" });
    expect(sandbox.sandbox.getAccount("victim")?.balances.USDT).toBe(10);
  });

  it("changes nothing by a request that needs no preflight: the clock and the accounts stay as they were", async () => {
    await tab.goto(`${page.origin}/`);
    const advance = {
      method: "POST",
      mode: "no-cors",
      headers: { "content-type": "text/plain" },
      body: '{"ms":60000}',
    };
    expect(await fromPage(`${sandbox.origin}/_sandbox/clock/advance`, advance as RequestInit)).toEqual({
      status: 0,
      type: "opaque",
      text: null,
    });
    const form = "apiKey=victim&currency=USDT&network=TRX&amount=5";
    const deposit = { method: "POST", mode: "no-cors", body: new URLSearchParams(form).toString() };
    const formHeaders = { "content-type": "application/x-www-form-urlencoded" };
    expect(
      await fromPage(`${sandbox.origin}/_sandbox/deposits`, { ...deposit, headers: formHeaders } as RequestInit),
    ).toMatchObject({ status: 0, type: "opaque" });
    expect(sandbox.sandbox.clock.now()).toBe(START);
    expect(sandbox.sandbox.getAccount("victim")?.balances.USDT).toBe(10);
  });

  it("keeps the API's CORS: the page reads GET /v1/currencies", async () => {
    await tab.goto(`${page.origin}/`);
    const read = await fromPage(`${sandbox.origin}/v1/currencies`);
    expect([read.status, read.type]).toEqual([200, "cors"]);
  });
});

describe("the control API from a DNS-rebinding page, in Chromium", () => {
  it("refuses 421 a same-origin read and change whose Host is not the sandbox's", async () => {
    // The page's origin is rebind.test at the sandbox's port, resolved to 127.0.0.1: same-origin to the browser.
    const rebound = `http://rebind.test:${sandbox.port}`;
    await tab.goto(`${rebound}/v1/currencies`);
    const read = await fromPage(`${rebound}/_sandbox/state?secrets=true`);
    expect([read.status, read.text?.includes("victim-secret")]).toEqual([421, false]);
    const body = JSON.stringify({ ms: 60_000 });
    const advance = await fromPage(`${rebound}/_sandbox/clock/advance`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(advance.status).toBe(421);
    expect(sandbox.sandbox.clock.now()).toBe(START);
  });
});
