// The official client's trade against the sandbox, over a real socket: its code is not available (not on npm, not
// in the shared facts), so its trade is replayed as the wire requests the facts (../shared/observed/README.md, C1
// and C2) say it sends: every request signed (x-api-key, x-api-timestamp, x-api-signature over METHOD + PATH +
// TIMESTAMP), GET /currencies read to map codes to ids before Create Quote, Create Quote with those ids, Accept
// Quote without a body (content-length 0 and the HTTP library's default content type, as observed), then the
// wallets (GET /wallets/me, C2) and the trade history (GET /trades/me?page=1&pageSize=30). The balances move by
// the quote's amounts, and by nothing else.
import { createHmac } from "node:crypto";
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";
import { API_KEY_HEADER, SIGNING_HEADERS, sharedValidator } from "../support/spec.js";
import { START } from "./support/sandbox.js";

const KEY = "official-client-key";
const SECRET = "official-client-secret";
const validator = sharedValidator();

let server: StartedSandbox | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

interface Wire {
  status: number;
  body: any;
}

/**
 * One request as the official client sends it: signed with its own wall clock (this machine's time, whatever the
 * sandbox clock shows), exactly these headers and body.
 */
async function send(started: StartedSandbox, method: string, path: string, json?: unknown): Promise<Wire> {
  const fullPath = `${new URL(started.baseUrl).pathname}${path}`;
  const timestamp = String(Date.now());
  const signature = createHmac("sha256", SECRET).update(`${method}${fullPath}${timestamp}`).digest("hex");
  const body = json === undefined ? "" : JSON.stringify(json);
  const headers = {
    [API_KEY_HEADER]: KEY,
    [SIGNING_HEADERS.timestamp]: timestamp,
    [SIGNING_HEADERS.signature]: signature,
    "content-type": json === undefined ? "application/x-www-form-urlencoded" : "application/json",
    "content-length": String(Buffer.byteLength(body)),
  };
  const answer = await new Promise<{ status: number; bodyText: string; violations: unknown[] }>((resolve, reject) => {
    const request = http.request(`${started.origin}${fullPath}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const bodyText = Buffer.concat(chunks).toString("utf8");
        const status = response.statusCode ?? 0;
        const check = validator.validateResponse({
          method,
          path: fullPath,
          status,
          headers: response.headers,
          bodyText,
        });
        resolve({ status, bodyText, violations: check.violations });
      });
    });
    request.on("error", reject);
    request.end(body);
  });
  // Asserted here, not in the socket's callback: a throw there would leave this promise pending.
  expect(answer.violations, `${method} ${path}`).toEqual([]);
  return { status: answer.status, body: JSON.parse(answer.bodyText) };
}

/**
 * The official client's trade(source, target, side, amount): codes mapped to ids through GET /currencies, a quote,
 * its acceptance. source and target name the pair (USDT/NGNX), side the direction.
 */
async function officialTrade(started: StartedSandbox, source: string, target: string, amount: number, side = "SELL") {
  const currencies = await send(started, "GET", "/currencies");
  expect(currencies.status).toBe(200);
  const idOf = (code: string) => currencies.body.data.find((currency: any) => currency.code === code)?.id as string;
  const body = { sourceId: idOf(source), targetId: idOf(target), amount, side };
  const quote = await send(started, "POST", "/trades/quote", body);
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  const accepted = await send(started, "POST", `/trades/quote/${quote.body.data.id}`);
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return { ids: { source: idOf(source), target: idOf(target) }, quote: quote.body.data, trade: accepted.body.data };
}

describe("the official client's trade against the sandbox", () => {
  it("moves the balances by the quote's amounts, and the trade history shows it", async () => {
    const balances = { USDT: 250, NGNX: 1000 };
    const config = { clock: { start: START }, accounts: { [KEY]: { apiSecret: SECRET, balances } } };
    server = await startSandbox({ port: 0, quiet: true, config });
    const { ids, quote, trade } = await officialTrade(server, "USDT", "NGNX", 40);
    expect(quote).toMatchObject({ sourceId: ids.source, targetId: ids.target, sourceCode: "USDT", targetCode: "NGNX" });
    expect(trade.amountReceived).toBe(quote.amountReceived);
    expect(quote.amountReceived).toBeGreaterThan(0);

    const wallets = await send(server, "GET", "/wallets/me");
    const available = (id: string) =>
      wallets.body.data.find((wallet: any) => wallet.currencyId === id)?.availableBalance;
    expect(available(ids.source)).toBe(balances.USDT - 40);
    expect(available(ids.target)).toBe(balances.NGNX + quote.amountReceived);

    const history = await send(server, "GET", "/trades/me?page=1&pageSize=30");
    expect(history.status).toBe(200);
    expect(history.body.data.map((row: any) => [row.id, row.amount, row.amountReceived])).toEqual([
      [trade.id, 40, quote.amountReceived],
    ]);
  });

  it("refuses an accepted quote's second acceptance, and the balances move once", async () => {
    const config = {
      clock: { start: START },
      accounts: { [KEY]: { apiSecret: SECRET, balances: { USDT: 100, NGNX: 0 } } },
    };
    server = await startSandbox({ port: 0, quiet: true, config });
    const { ids, quote } = await officialTrade(server, "USDT", "NGNX", 10);
    const again = await send(server, "POST", `/trades/quote/${quote.id}`);
    expect([again.status, again.body.message]).toEqual([
      REFUSAL_STATUS.quoteAccepted,
      expect.stringMatching(/accepted/),
    ]);
    const wallets = await send(server, "GET", "/wallets/me");
    const available = (id: string) =>
      wallets.body.data.find((wallet: any) => wallet.currencyId === id)?.availableBalance;
    expect([available(ids.source), available(ids.target)]).toEqual([90, quote.amountReceived]);
  });

  it("buys USDT with NGNX as the clients send a BUY: source USDT, target NGNX, the NGNX wallet debited", async () => {
    const config = {
      clock: { start: START },
      accounts: { [KEY]: { apiSecret: SECRET, balances: { USDT: 0, NGNX: 5000 } } },
    };
    server = await startSandbox({ port: 0, quiet: true, config });
    const { ids, quote, trade } = await officialTrade(server, "USDT", "NGNX", 1652.4, "BUY");
    // 1652.4 NGNX at the example's buyRate 1652.4 buys exactly 1 USDT.
    expect(quote).toMatchObject({ side: "BUY", rate: 1652.4, amount: 1652.4, amountReceived: 1 });
    expect(trade.amountReceived).toBe(1);
    const wallets = await send(server, "GET", "/wallets/me");
    const available = (id: string) =>
      wallets.body.data.find((wallet: any) => wallet.currencyId === id)?.availableBalance;
    expect([available(ids.source), available(ids.target)]).toEqual([1, 3347.6]);
  });

  it("signs with its own clock while the sandbox's stands still and is moved 10 minutes on", async () => {
    const config = {
      clock: { start: START },
      accounts: { [KEY]: { apiSecret: SECRET, balances: { USDT: 100, NGNX: 0 } } },
    };
    server = await startSandbox({ port: 0, quiet: true, config });
    const expiring = await officialTrade(server, "USDT", "NGNX", 10);
    const quote = await send(server, "POST", "/trades/quote", {
      sourceId: expiring.ids.source,
      targetId: expiring.ids.target,
      amount: 5,
      side: "SELL",
    });
    server.sandbox.clock.advance(600_000);
    const late = await send(server, "POST", `/trades/quote/${quote.body.data.id}`);
    expect([late.status, late.body.message]).toEqual([REFUSAL_STATUS.quoteExpired, expect.stringMatching(/expired/)]);
    const after = await officialTrade(server, "USDT", "NGNX", 10);
    expect(after.trade.amountReceived).toBe(16118); // 10 × sellRate 1611.8
    const history = await send(server, "GET", "/trades/me?page=1&pageSize=30");
    expect(history.body.data.map((row: any) => row.amount)).toEqual([10, 10]);
  });

  it("uploads an invoice document as the later client does and reads the URL from the answer's data.url", async () => {
    const config = { clock: { start: START }, accounts: { [KEY]: { apiSecret: SECRET } } };
    server = await startSandbox({ port: 0, quiet: true, config });
    const form = new FormData();
    form.append("file", new Blob(["%PDF-1.7 invoice"], { type: "application/pdf" }), "invoice.pdf");
    const request = new Request("http://form.invalid/", { method: "POST", body: form });
    const [body, contentType] = [await request.text(), request.headers.get("content-type")!];
    const path = `${new URL(server.baseUrl).pathname}/uploads/invoices`;
    const timestamp = String(Date.now());
    const signature = createHmac("sha256", SECRET).update(`POST${path}${timestamp}`).digest("hex");
    const headers = {
      [API_KEY_HEADER]: KEY,
      [SIGNING_HEADERS.timestamp]: timestamp,
      [SIGNING_HEADERS.signature]: signature,
      "content-type": contentType,
    };
    const answer = await fetch(`${server.origin}${path}`, { method: "POST", headers, body });
    expect(answer.status).toBe(200);
    const envelope = (await answer.json()) as { data: { url: unknown } };
    expect(envelope.data.url).toBe("https://storage.host.invalid/invoices/INV-DOC-20261122-7K2P.pdf");
  });
});
