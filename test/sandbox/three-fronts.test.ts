// One engine, three fronts: the same scenario (rates → quote → accept → wallets → history → a quote refused
// as expired after advancing the clock → 429 once a small configured quote limit is spent) runs in-process via
// sandbox.fetch, through ./msw's createSandboxHandlers (msw/node's setupServer) with the package's client, and over
// HTTP (startSandbox) with the package's client, and gets the same statuses, rate-limit headers and bodies at
// every step, ids aside (each front has a sandbox of its own). Every answer passes the contract validator
// (the client's contract middleware), and the scenario's outcome is checked, not only its sameness.
import { setupServer } from "msw/node";
import { expect, it } from "vitest";
import { contractMiddleware } from "../../src/contract/index.js";
import { type ApiClient, createClient } from "../../src/index.js";
import { createSandboxHandlers } from "../../src/msw/index.js";
import { REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { createSandbox, type SandboxOptions } from "../../src/sandbox/index.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { RATE_LIMIT_HEADERS, sharedValidator } from "../support/spec.js";

const KEY = "three-fronts";
const START = Date.UTC(2026, 2, 1, 12);
/** A small quote limit, so the scenario reaches it in three quotes. */
const OPTIONS: SandboxOptions = { clock: { start: START }, limits: { quotesPerHour: 2 } };
/** Past the quote's validity (expiresIn: 30 s). */
const PAST_EXPIRY_MS = 31_000;

/** One step's outcome: what a front answered. */
interface Step {
  step: string;
  status: number;
  rateLimit: Array<string | null>;
  body: unknown;
}

/** A front: the package's client on it, and the control API reached the same way. */
interface Front {
  client: ApiClient;
  control(method: string, path: string, body?: unknown): Promise<Response>;
}

/** A client configured as a user would, its every answer checked against the contract. */
function clientOf(baseUrl: string, fetch?: (request: Request) => Promise<Response>): ApiClient {
  const client = createClient({ baseUrl, apiKey: KEY, retry: false, ...(fetch ? { fetch } : {}) });
  client.use(contractMiddleware(sharedValidator()));
  return client;
}

const controlRequest = (origin: string, method: string, path: string, body?: unknown) =>
  new Request(`${origin}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** The scenario, as the sandbox guide's worked flow (docs/samples/sandbox-flow.ts) runs it. */
async function scenario({ client, control }: Front): Promise<Step[]> {
  const steps: Step[] = [];
  const record = async (step: string, response: Response, body: unknown) => {
    const rateLimit = Object.values(RATE_LIMIT_HEADERS).map((name) => response.headers.get(name));
    steps.push({ step, status: response.status, rateLimit, body });
  };
  const call = async <T extends { data?: unknown; error?: unknown; response: Response }>(step: string, result: T) => {
    const settled = await result;
    await record(step, settled.response, settled.data ?? settled.error);
    return settled;
  };
  const controlled = async (step: string, method: string, path: string, body?: unknown) => {
    const response = await control(method, path, body);
    await record(step, response, response.status === 204 ? null : await response.json());
  };
  const quoteBody = { sourceId: "USDT", targetId: "NGNX", amount: 10, side: "SELL" } as const;

  await controlled("account", "PUT", `/_sandbox/accounts/${KEY}`, { balances: { USDT: 100, NGNX: 0 } });
  await call("rates", await client.GET("/currencies/fiat-rates"));
  const quote = await call("quote", await client.POST("/trades/quote", { body: quoteBody }));
  const quoteId = String(quote.data?.data.id);
  await call("accept", await client.POST("/trades/quote/{quoteId}", { params: { path: { quoteId } }, body: {} }));
  await call("wallets", await client.GET("/wallets/me"));
  await call("USDT wallet", await client.GET("/wallets/USDT"));
  await call("history", await client.GET("/transactions/me"));
  await call("trades", await client.GET("/trades/me"));
  const late = await call("second quote", await client.POST("/trades/quote", { body: quoteBody }));
  await controlled("advance", "POST", "/_sandbox/clock/advance", { ms: PAST_EXPIRY_MS });
  const lateId = String(late.data?.data.id);
  await call("expired", await client.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: lateId } } }));
  await call("over the limit", await client.POST("/trades/quote", { body: quoteBody }));
  return steps;
}

/** Whether a JSON key holds an id (the sandbox's, which differ between sandboxes). */
const ID_KEY = /(^id$|Id$|^reference$)/;

/** The steps with every id (and every mention of one in a message) replaced by its order of appearance. */
function idsAside(steps: Step[]): Step[] {
  const ids = new Map<string, string>();
  const collect = (value: unknown, key = ""): void => {
    if (typeof value === "string" && ID_KEY.test(key) && !ids.has(value)) ids.set(value, `<id ${ids.size + 1}>`);
    else if (Array.isArray(value)) for (const item of value) collect(item);
    else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) collect(v, k);
  };
  collect(steps);
  const replaced = JSON.stringify(steps, (_key, value: unknown) => {
    if (typeof value !== "string") return value;
    let text = value;
    for (const [id, label] of ids) text = text.split(id).join(label);
    return text;
  });
  return JSON.parse(replaced) as Step[];
}

async function inProcess(): Promise<Step[]> {
  const sandbox = createSandbox(OPTIONS);
  const origin = "http://sandbox.in-process.test";
  const client = clientOf(`${origin}/v1`, (request) => sandbox.fetch(request));
  return scenario({ client, control: (...args) => sandbox.fetch(controlRequest(origin, ...args)) });
}

async function throughMsw(): Promise<Step[]> {
  const sandbox = createSandbox(OPTIONS);
  const origin = "http://sandbox.msw.test";
  const server = setupServer(...createSandboxHandlers(sandbox, { baseUrl: `${origin}/v1` }));
  server.listen({ onUnhandledRequest: "error" });
  try {
    return await scenario({
      client: clientOf(`${origin}/v1`),
      control: (...args) => fetch(controlRequest(origin, ...args)),
    });
  } finally {
    server.close();
  }
}

async function overHttp(): Promise<Step[]> {
  const started = await startSandbox({ port: 0, config: OPTIONS });
  try {
    return await scenario({
      client: clientOf(started.baseUrl),
      control: (...args) => fetch(controlRequest(started.origin, ...args)),
    });
  } finally {
    await started.stop();
  }
}

it("runs the same scenario with the same answers in-process, through ./msw and over HTTP", async () => {
  const direct = idsAside(await inProcess());
  const msw = idsAside(await throughMsw());
  const http = idsAside(await overHttp());

  // What the scenario shows: the trade went through once, the late quote and the spent limit were refused.
  const byStep = Object.fromEntries(direct.map((step) => [step.step, step]));
  expect(direct.map(({ step, status }) => [step, status])).toEqual([
    ["account", 200],
    ["rates", 200],
    ["quote", 200],
    ["accept", 200],
    ["wallets", 200],
    ["USDT wallet", 200],
    ["history", 200],
    ["trades", 200],
    ["second quote", 200],
    ["advance", 200],
    ["expired", REFUSAL_STATUS.quoteExpired],
    ["over the limit", 429],
  ]);
  expect(byStep.expired!.body).toEqual(expect.objectContaining({ message: expect.stringMatching(/expired/i) }));
  expect(byStep["over the limit"]!.body).toEqual(expect.objectContaining({ message: expect.any(String) }));
  expect((byStep["USDT wallet"]!.body as { data: { availableBalance: number } }).data.availableBalance).toBe(90);
  const history = (byStep.history!.body as { data: Array<{ category?: string; type?: string }> }).data;
  expect(
    history
      .filter((entry) => entry.category === "SWAP")
      .map((entry) => entry.type)
      .sort(),
  ).toEqual(["CREDIT", "DEBIT"]);

  // The same at every step, on every front.
  expect(msw).toEqual(direct);
  expect(http).toEqual(direct);
});
