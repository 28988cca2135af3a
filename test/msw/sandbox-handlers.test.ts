// ./msw's createSandboxHandlers in Node (msw/node's setupServer): every request under the base URL, a path the
// contract lacks included, and under the origin's /_sandbox reaches the sandbox and gets its answer; the state is
// the sandbox object's (what the handlers change, the object reads, and back); nothing else is intercepted.
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createClient, unwrap } from "../../src/index.js";
import { createSandboxHandlers } from "../../src/msw/index.js";
import { createSandbox } from "../../src/sandbox/index.js";
import { SANDBOX_DEFAULT_PORT } from "../../src/sandbox/server.js";
import { API_KEY_HEADER, BASE_PATH } from "../support/spec.js";

const ORIGIN = "http://sandbox.handlers.test";
const BASE_URL = `${ORIGIN}${BASE_PATH}`;
const sandbox = createSandbox({ clock: { start: Date.UTC(2026, 5, 1) } });
const server = setupServer(...createSandboxHandlers(sandbox, { baseUrl: BASE_URL }));

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe("createSandboxHandlers", () => {
  it("hands the API's requests to the sandbox: the client trades, and the sandbox object sees it", async () => {
    sandbox.putAccount("msw-key", { balances: { USDT: 50, NGNX: 0 } });
    const api = createClient({ baseUrl: BASE_URL, apiKey: "msw-key", retry: false });
    const quote = await unwrap(
      api.POST("/trades/quote", { body: { sourceId: "USDT", targetId: "NGNX", amount: 20, side: "SELL" } }),
    );
    await unwrap(api.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: quote.data.id } }, body: {} }));
    expect(sandbox.getAccount("msw-key")?.balances.USDT).toBe(30);
    const wallet = await unwrap(api.GET("/wallets/USDT"));
    expect(wallet.data.availableBalance).toBe(30);
  });

  it("answers a path the contract lacks under the base URL with the sandbox's own 404", async () => {
    const through = await fetch(`${BASE_URL}/no/such/path`, { headers: { [API_KEY_HEADER]: "k" } });
    const direct = await sandbox.fetch(new Request(`${BASE_URL}/no/such/path`, { headers: { [API_KEY_HEADER]: "k" } }));
    expect(through.status).toBe(404);
    expect(await through.json()).toEqual(await direct.json());
  });

  it("hands the control API (/_sandbox on the base URL's origin) to the sandbox", async () => {
    const put = await fetch(`${ORIGIN}/_sandbox/accounts/control-key`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ balances: { USDT: 3 } }),
    });
    expect(put.status).toBe(200);
    expect(sandbox.getAccount("control-key")?.balances.USDT).toBe(3);
    const before = sandbox.clock.now();
    const advanced = await fetch(`${ORIGIN}/_sandbox/clock/advance`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ms: 1000 }),
    });
    expect(await advanced.json()).toMatchObject({ now: before + 1000 });
    expect(sandbox.clock.now()).toBe(before + 1000);
  });

  it("intercepts nothing outside the base URL and /_sandbox", async () => {
    // MSW says so on console.error (onUnhandledRequest: "error"): taken here, not printed among passing tests.
    const said = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      await expect(fetch(`${ORIGIN}/v2/wallets/me`)).rejects.toThrow();
      await expect(fetch(`http://elsewhere.test${BASE_PATH}/wallets/me`)).rejects.toThrow();
      const unhandled = said.mock.calls.map((args) => String(args[0]).match(/• GET (\S+)/)?.[1]);
      expect(unhandled).toEqual([`${ORIGIN}/v2/wallets/me`, `http://elsewhere.test${BASE_PATH}/wallets/me`]);
    } finally {
      said.mockRestore();
    }
  });

  it("answers at http://127.0.0.1:4020/v1 by default, where `api-contract sandbox` listens", async () => {
    const own = createSandbox();
    server.use(...createSandboxHandlers(own));
    const origin = `http://127.0.0.1:${SANDBOX_DEFAULT_PORT}`;
    expect(origin).toBe("http://127.0.0.1:4020");
    const clock = await fetch(`${origin}/_sandbox/clock`);
    expect(clock.status).toBe(200);
    const rates = await fetch(`${origin}${BASE_PATH}/currencies/fiat-rates`, {
      headers: { [API_KEY_HEADER]: "k" },
    });
    expect(rates.status).toBe(200);
  });
});
