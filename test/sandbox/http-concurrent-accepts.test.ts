// A quote is accepted once, however many requests race for it: 100 concurrent Accept Quote requests of one quote
// over HTTP (real sockets on 127.0.0.1, one connection each) get exactly one 200; the 99 others are refused with
// the published error body, and the balances moved once.
import http from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";
import { API_KEY_HEADER } from "../support/spec.js";

const RACERS = 100;
const KEY = "racer";

/** A POST on a connection of its own; resolves with the status and the parsed body. */
function post(path: string, body: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${server.baseUrl}${path}`,
      { method: "POST", agent: false, headers: { [API_KEY_HEADER]: KEY, "content-type": "application/json" } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: Number(response.statusCode), body: JSON.parse(Buffer.concat(chunks).toString("utf8")) }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}
let server: StartedSandbox;
beforeAll(async () => {
  server = await startSandbox({ port: 0, config: { clock: { start: Date.UTC(2026, 0, 1) } } });
});
afterAll(() => server.stop());

it(`${RACERS} concurrent accepts of one quote: exactly one 200, the balances moved once`, async () => {
  server.sandbox.putAccount(KEY, { balances: { USDT: 100, NGNX: 0 } });
  const created = await post(
    "/trades/quote",
    JSON.stringify({ sourceId: "USDT", targetId: "NGNX", amount: 10, side: "SELL" }),
  );
  expect(created.status).toBe(200);
  const quote = (created.body as { data: { id: string; amountReceived: number } }).data;
  // One connection per request (no agent), so the requests really are in flight together.
  const answers = await Promise.all(Array.from({ length: RACERS }, () => post(`/trades/quote/${quote.id}`, "{}")));
  const statuses = answers.map((answer) => answer.status);
  expect(statuses.filter((status) => status === 200)).toHaveLength(1);
  const refusals = answers.filter((answer) => answer.status !== 200);
  expect(refusals).toHaveLength(RACERS - 1);
  for (const refusal of refusals) {
    expect(refusal.status).toBe(REFUSAL_STATUS.quoteAccepted);
    expect(refusal.body).toEqual(expect.objectContaining({ message: expect.any(String) }));
  }
  const balances = server.sandbox.getAccount("racer")?.balances;
  expect(balances?.USDT).toBe(90);
  expect(balances?.NGNX).toBe(quote.amountReceived);
});
