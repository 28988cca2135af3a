// The flows of verify that check the package sandbox's own service rules: what its HTTP front refuses and allows
// (answers.http), who may reach its control API (control.origin), the identity headers of its answers, the
// documented examples of what it does not model, and where and when its webhooks go (destination, retries on the
// sandbox clock, the delivery timeout in real time). They are the sandbox's choices, not the service's: on the mock
// and on a deployment they are untested, saying why. Transport probes go out as raw node:http requests to the
// target's origin (a Host of verify's choosing, a body or a head over a limit, a preflight), past `call`, which
// would check each answer against the contract (413 is no status of it) and cannot set Host.
import http from "node:http";
import { openApiDocument } from "../../contract/bundled.js";
import { listOperations } from "../../openapi/document.js";
import { documentedAnswer } from "../../pipeline/answers.js";
import { MOCK_IDENTITY_HEADER, PACKAGE_VERSION, SANDBOX_IDENTITY_HEADER } from "../../pipeline/identity.js";
import { DEFAULT_MAX_BODY_BYTES, MAX_HEADER_BYTES, MAX_URL_BYTES } from "../../pipeline/limits.js";
import { SandboxControlError } from "../../sandbox/control-client.js";
import { UNMODELLED_OPERATIONS } from "../../sandbox/operations/index.js";
import {
  CONTROL_ORIGIN_REFUSAL,
  RATE_LIMITED_STATUS,
  REFUSAL_STATUS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_TIMEOUT_MS,
} from "../../sandbox/rules.js";
import { expectStatus, type FlowAnswer, type FlowContext, FlowFailure } from "./context.js";
import { receivable } from "./account-flows.js";
import { unfitWithoutControl } from "./sandbox-flows.js";
import type { Flow, FlowFitness } from "./trade-flows.js";

/** How long a step waits for what the sandbox does in real time (a webhook, its outcome), at most. */
const EVENT_WAIT_MS = 10_000;

/** A raw answer: status, headers and body as sent, and the exchange in one line for evidence. */
interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  exchange: string;
}

interface RawRequest {
  method: string;
  /** The request target: a path at the target's origin (`/_sandbox/clock`, `/v1/currencies`). */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** How the request shows in evidence, where the path or body is too long to show (a probe over a limit). */
  shown?: string;
}

/** Sends one request as it is given, over its own connection; any answer resolves (a FlowFailure if none). */
function rawSend(context: FlowContext, request: RawRequest): Promise<RawAnswer> {
  const origin = new URL(context.baseUrl);
  const shown = request.shown ?? `${request.method} ${request.path}`;
  return new Promise((resolve, reject) => {
    const outgoing = http.request({
      host: origin.hostname.replace(/^\[|\]$/g, ""),
      port: origin.port || 80,
      method: request.method,
      path: request.path,
      headers: { connection: "close", ...request.headers },
      timeout: 15_000,
    });
    outgoing.on("timeout", () => outgoing.destroy(new Error("no answer within 15 s")));
    // The front may answer a body over its limit before it is all sent: the answer counts, a late EPIPE not.
    outgoing.on("error", (error) => reject(new FlowFailure(`${shown}: no answer (${error.message})`)));
    outgoing.on("response", async (response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of response) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString("utf8");
      const cut = body.length > 300 ? `${body.slice(0, 300)}…` : body;
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        body,
        exchange: `${shown} → ${response.statusCode} ${cut}`,
      });
    });
    outgoing.end(request.body);
  });
}

/** The API's base path on the target (`/v1`), which raw requests are sent under. */
const apiPath = (context: FlowContext, path: string) =>
  `${new URL(context.baseUrl).pathname.replace(/\/+$/, "")}${path}`;

/** Why a flow that checks the package sandbox's own behaviour is untested on the mock or on a deployment. */
function unfitOffSandbox(context: FlowFitness, onMock: string, onDeployment: string): string | undefined {
  if (context.target === "mock") return onMock;
  if (context.target === "deployment") return onDeployment;
  return unfitWithoutControl(context, "the sandbox's control API");
}

/** Waits `ms` of real time: the sandbox records a webhook's outcome just after its receiver answered. */
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---- answers.http, control.origin: the HTTP front -------------------------------------------------------------

/** A foreign origin for the probes: `.invalid` names no host (RFC 2606). */
const FOREIGN_ORIGIN = "http://api-contract-verify.invalid";

/** The front's refusals of what only a transport sees: a body, a URL and header fields over their limits. */
async function checkTransportLimits(context: FlowContext): Promise<string[]> {
  const currencies = apiPath(context, "/currencies");
  const quote = apiPath(context, "/trades/quote");
  const body = "x".repeat(DEFAULT_MAX_BODY_BYTES + 1);
  const url = `${currencies}?pad=${"x".repeat(MAX_URL_BYTES)}`;
  const probes: Array<[RawRequest, number]> = [
    [
      {
        method: "POST",
        path: quote,
        body,
        headers: { "content-type": "application/json" },
        shown: `POST ${quote} (a body of ${body.length} bytes)`,
      },
      413,
    ],
    [{ method: "GET", path: url, shown: `GET ${currencies}?pad=… (a URL of ${url.length} bytes)` }, 414],
    [
      {
        method: "GET",
        path: currencies,
        headers: { "x-verify-pad": "x".repeat(MAX_HEADER_BYTES) },
        shown: `GET ${currencies} (a header field of ${MAX_HEADER_BYTES} bytes)`,
      },
      431,
    ],
  ];
  const wrong: string[] = [];
  for (const [request, status] of probes) {
    const answer = await rawSend(context, request);
    if (answer.status !== status) wrong.push(`${answer.exchange} (expected ${status})`);
  }
  return wrong;
}

/** Every API answer allows any origin: a CORS preflight of the API answers 204 allowing it, an answer names it. */
async function checkApiCors(context: FlowContext): Promise<string[]> {
  const path = apiPath(context, "/currencies");
  const headers = { origin: FOREIGN_ORIGIN, "access-control-request-method": "GET" };
  const preflight = await rawSend(context, {
    method: "OPTIONS",
    path,
    headers,
    shown: `OPTIONS ${path} (a preflight)`,
  });
  const answer = await rawSend(context, { method: "GET", path, headers: { origin: FOREIGN_ORIGIN } });
  const allows = (raw: RawAnswer) => [FOREIGN_ORIGIN, "*"].includes(String(raw.headers["access-control-allow-origin"]));
  const wrong: string[] = [];
  if (preflight.status !== 204 || !allows(preflight)) wrong.push(`${preflight.exchange} (expected 204 allowing it)`);
  if (!allows(answer))
    wrong.push(`${answer.exchange}: access-control-allow-origin ${answer.headers["access-control-allow-origin"]}`);
  return wrong;
}

const httpFlow: Flow = {
  name: "HTTP front: a body, a URL and header fields over their limits, and a CORS preflight of the API",
  choices: ["answers.http"],
  operations: ["getCurrencies", "createQuote"],
  // Three refused before any operation runs, a preflight, one read (a body of 1 MiB sent).
  spend: { requests: 5, quotes: 0, trades: 0, addresses: 0 },
  unfit: (context) =>
    unfitOffSandbox(
      context,
      "the mock's HTTP front is not the sandbox's",
      "its refusals and CORS are the HTTP front of api-contract sandbox; a deployment's front is its own",
    ),
  async run(context) {
    // The default limit (1 MiB): a sandbox started with a larger maxBodyBytes contradicts it (allow the divergence).
    const wrong = [...(await checkTransportLimits(context)), ...(await checkApiCors(context))];
    context.check("answers.http", wrong.length === 0, wrong.join("; "));
  },
};

/** The control API refuses a foreign Origin, a preflight and a foreign Host or port; its own answers have no CORS. */
async function checkControlOrigin(context: FlowContext): Promise<string[]> {
  const path = "/_sandbox/clock";
  const { hostname, port } = new URL(context.baseUrl);
  const otherPort = Number(port || 80) === 1 ? 2 : Number(port || 80) - 1;
  const preflight = { origin: FOREIGN_ORIGIN, "access-control-request-method": "GET" };
  const probes: Array<[RawRequest, number]> = [
    [
      { method: "GET", path, headers: { origin: FOREIGN_ORIGIN }, shown: `GET ${path} (Origin ${FOREIGN_ORIGIN})` },
      CONTROL_ORIGIN_REFUSAL.origin,
    ],
    [
      { method: "OPTIONS", path, headers: preflight, shown: `OPTIONS ${path} (a preflight)` },
      CONTROL_ORIGIN_REFUSAL.preflight,
    ],
    [
      {
        method: "GET",
        path,
        headers: { host: `api-contract-verify.invalid:${port}` },
        shown: `GET ${path} (Host another name)`,
      },
      CONTROL_ORIGIN_REFUSAL.host,
    ],
    [
      {
        method: "GET",
        path,
        headers: { host: `${hostname}:${otherPort}` },
        shown: `GET ${path} (Host ${hostname}:${otherPort})`,
      },
      CONTROL_ORIGIN_REFUSAL.host,
    ],
  ];
  const wrong: string[] = [];
  for (const [request, status] of probes) {
    const answer = await rawSend(context, request);
    if (answer.status !== status) wrong.push(`${answer.exchange} (expected ${status})`);
  }
  // Its own request (a token, when one is required, is not sent: a 401 is its answer too, and carries no CORS).
  const own = await rawSend(context, { method: "GET", path });
  const cors = Object.keys(own.headers).filter((name) => name.startsWith("access-control-"));
  if (cors.length || own.status === CONTROL_ORIGIN_REFUSAL.host)
    wrong.push(`${own.exchange} (CORS headers: ${cors.join(", ")})`);
  return wrong;
}

const controlOriginFlow: Flow = {
  name: "control API origin: a foreign Origin, a preflight, a foreign Host and port refused; no CORS",
  choices: ["control.origin"],
  operations: [],
  // Control requests only (none counted against the API's limits).
  spend: { requests: 0, quotes: 0, trades: 0, addresses: 0 },
  unfit: (context) =>
    unfitOffSandbox(context, "the mock has no control API", "a deployment has no control API (/_sandbox)"),
  async run(context) {
    const wrong = await checkControlOrigin(context);
    context.check("control.origin", wrong.length === 0, wrong.join("; "));
  },
};

// ---- answers.identity, answers.unmodelled ---------------------------------------------------------------------

const identityFlow: Flow = {
  name: "identity: both identity headers, the package's version, on a success and on refusals",
  choices: ["answers.identity"],
  operations: ["getCurrencies", "getTransaction"],
  spend: { requests: 3, quotes: 0, trades: 0, addresses: 0 },
  unfit: (context) =>
    unfitOffSandbox(
      context,
      "the mock carries only the mock's header",
      "the identity headers are the package's, which a deployment does not send (its answers make it one)",
    ),
  async run(context) {
    const read = expectStatus(await context.call("GET", "/currencies"), 200, "(the currencies)");
    const unknown = await context.call("GET", `/transactions/api-contract-verify-${crypto.randomUUID()}`);
    expectStatus(unknown, REFUSAL_STATUS.notFound, "(a transaction that is not there)");
    const unkeyed = await context.call("GET", "/transactions/me", undefined, "");
    const wrong = [read, unknown, unkeyed].filter((answer: FlowAnswer) =>
      [MOCK_IDENTITY_HEADER, SANDBOX_IDENTITY_HEADER].some((name) => answer.headers.get(name) !== PACKAGE_VERSION),
    );
    const shown = (answer: FlowAnswer) =>
      `${answer.exchange} (${MOCK_IDENTITY_HEADER}: ${answer.headers.get(MOCK_IDENTITY_HEADER)}, ` +
      `${SANDBOX_IDENTITY_HEADER}: ${answer.headers.get(SANDBOX_IDENTITY_HEADER)}; expected ${PACKAGE_VERSION})`;
    context.check("answers.identity", wrong.length === 0, wrong.map(shown).join("; "));
  },
};

/** The package contract's documented answer of `operationId` for `status` (what the sandbox answers from). */
function documented(operationId: string, status: number) {
  const operation = listOperations(openApiDocument).find((candidate) => candidate.operationId === operationId);
  return operation && documentedAnswer(openApiDocument, operation, status);
}

/** Whether a body's JSON text holds `value` (key order as written). */
function sameJson(text: string, value: unknown): boolean {
  try {
    return value !== undefined && JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/** The unmodelled operations a flow can read without a parameter: GETs of a fixed path. */
const readableUnmodelled = () =>
  listOperations(openApiDocument).filter(
    (operation) =>
      UNMODELLED_OPERATIONS.includes(operation.operationId ?? "") &&
      operation.method === "GET" &&
      !operation.path.includes("{") &&
      !(operation.parameters ?? []).some((parameter) => parameter.in === "query" && parameter.required),
  );

const unmodelledFlow: Flow = {
  name: "unmodelled operations: their documented example; Prefer picks another, a modelled one ignores it",
  choices: ["answers.unmodelled"],
  operations: ["getTradeableCurrencies", "getCurrencies"],
  spend: { requests: 2 + readableUnmodelled().length, quotes: 0, trades: 0, addresses: 0 },
  unfit: (context) =>
    unfitOffSandbox(
      context,
      "the mock answers every operation with its documented example",
      "a deployment models every operation it serves",
    ),
  async run(context) {
    const wrong: string[] = [];
    for (const operation of readableUnmodelled().filter((o) => context.operationIds.has(o.operationId ?? ""))) {
      const answer = await context.call("GET", operation.path);
      const example = documented(operation.operationId!, 200);
      if (answer.status !== 200 || !sameJson(JSON.stringify(answer.body), example?.body))
        wrong.push(`${answer.exchange} (expected the documented example)`);
    }
    // Prefer as a client of the mock sends it: another documented status (429), and a modelled operation's.
    const prefer = { prefer: `code=${RATE_LIMITED_STATUS}` };
    const tradeable = await rawSend(context, {
      method: "GET",
      path: apiPath(context, "/currencies/tradeable"),
      headers: prefer,
    });
    const limited = documented("getTradeableCurrencies", RATE_LIMITED_STATUS);
    if (tradeable.status !== RATE_LIMITED_STATUS || !sameJson(tradeable.body, limited?.body))
      wrong.push(`${tradeable.exchange} with Prefer: code=${RATE_LIMITED_STATUS} (expected the documented answer)`);
    const currencies = await rawSend(context, {
      method: "GET",
      path: apiPath(context, "/currencies"),
      headers: prefer,
    });
    if (currencies.status !== 200)
      wrong.push(`${currencies.exchange} with ${prefer.prefer} (a modelled operation: 200)`);
    context.check("answers.unmodelled", wrong.length === 0, wrong.join("; "));
  },
};

// ---- webhooks.destination, webhooks.retry, webhooks.timeout -----------------------------------------------------

/** A request the receiver took: its path, when it came and when its connection closed (real time). */
interface Arrival {
  path: string;
  at: number;
  closedAt?: number;
}

/** What the receiver answers a request on `path`, the `count`th there: a status, or never ("hang"). */
type Reply = (path: string, count: number) => number | "hang";

/** A receiver of verify's own on `host`:`port` (context.webhookReceiver) answering by `reply`. */
async function startReceiver(context: FlowContext, reply: Reply) {
  const arrivals: Arrival[] = [];
  const waiting = new Set<() => void>();
  const wake = () => {
    for (const resolve of waiting) resolve();
  };
  const server = http.createServer((request, response) => {
    const arrival: Arrival = { path: String(request.url), at: Date.now() };
    arrivals.push(arrival);
    request.socket.once("close", () => {
      arrival.closedAt = Date.now();
      wake();
    });
    request.resume().once("end", () => {
      const answer = reply(arrival.path, arrivals.filter((a) => a.path === arrival.path).length);
      if (answer === "hang") return wake();
      const location = answer >= 300 && answer < 400 ? { location: `${arrival.path}/redirected` } : undefined;
      response.writeHead(answer, location).end();
      wake();
    });
  });
  const { host, port } = context.webhookReceiver;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const { port: listening } = server.address() as { port: number };
  return {
    url: (path: string) => `http://${host.includes(":") ? `[${host}]` : host}:${listening}${path}`,
    arrivals,
    /** Waits until `holds()` (woken by each request and each closed connection), at most `ms`; whether it held. */
    async until(holds: () => boolean, ms = EVENT_WAIT_MS): Promise<boolean> {
      const bound = Date.now() + ms;
      while (!holds() && Date.now() < bound)
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            waiting.delete(done);
            resolve();
          };
          const timer = setTimeout(done, bound - Date.now());
          waiting.add(done);
        });
      return holds();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A webhook as the control API lists it. */
type Listed = Awaited<ReturnType<NonNullable<FlowContext["control"]>["webhooks"]>>[number];

/** The outbox of `apiKey` once `holds` (the sandbox records an outcome just after the answer), at most ~10 s. */
async function outboxWhen(context: FlowContext, apiKey: string, holds: (webhooks: Listed[]) => boolean) {
  const bound = Date.now() + EVENT_WAIT_MS;
  let webhooks = await context.control!.webhooks(apiKey);
  while (!holds(webhooks) && Date.now() < bound) {
    await pause(20);
    webhooks = await context.control!.webhooks(apiKey);
  }
  return webhooks;
}

/** Each webhook in a line: its url, status, attempts (status or error) and next attempt. */
const outboxLine = (webhooks: Listed[]) =>
  webhooks
    .map((webhook) => {
      const attempts = webhook.attempts.map((a) => `${a.at} ${a.status ?? a.error ?? "running"}`).join(", ");
      return `${webhook.url} ${webhook.status} [${attempts}] next ${webhook.nextAttemptAt ?? "none"}`;
    })
    .join("; ");

/** An account of verify's own whose webhooks go to `url` (none: no webhookUrl, no secret), for `use`. */
async function withAccount(context: FlowContext, url: string | undefined, use: (apiKey: string) => Promise<void>) {
  const apiKey = `api-contract-verify-rules-${crypto.randomUUID().slice(0, 8)}`;
  const hooks = url === undefined ? {} : { webhookUrl: url, webhookSecret: `whsec-verify-${crypto.randomUUID()}` };
  await context.control!.putAccount(apiKey, hooks);
  try {
    await use(apiKey);
  } finally {
    await context.control!.deleteAccount(apiKey);
  }
}

/** A deposit to `apiKey`'s account: one webhook. */
async function depositTo(context: FlowContext, apiKey: string) {
  await context.control!.deposit({ apiKey, ...(await receivable(context)), amount: 1 });
}

/** Why a webhook flow cannot run here. */
const unfitForHooks = (context: FlowFitness) =>
  unfitOffSandbox(
    context,
    "the mock keeps no state between requests",
    "it needs accounts whose webhooks come to verify, which only the package's sandbox gives it",
  );

const WEBHOOK_OPERATIONS = ["getActiveNetworks"];

/** Where a webhook goes: to its URL, not following a redirect; nowhere without a URL and secret; an http(s) URL. */
async function checkDestination(context: FlowContext, receiver: Receiver): Promise<string[]> {
  const wrong: string[] = [];
  await withAccount(context, receiver.url("/hooks/redirect"), async (apiKey) => {
    await depositTo(context, apiKey);
    const outbox = await outboxWhen(context, apiKey, (w) => w[0]?.attempts[0]?.status !== undefined);
    const redirected = receiver.arrivals.filter((a) => a.path.endsWith("/redirected")).length;
    const [first] = outbox;
    const posted = receiver.arrivals.some((a) => a.path === "/hooks/redirect");
    const unfollowed =
      first?.attempts[0]?.status === 307 && redirected === 0 && first.url === receiver.url("/hooks/redirect");
    if (!posted || !unfollowed)
      wrong.push(
        `to its URL: ${posted}; a 307 answered: ${outboxLine(outbox)}; requests to its Location: ${redirected}`,
      );
    // Putting the account again drops its outbox.
    await context.control!.putAccount(apiKey, { balances: {} });
    const after = await context.control!.webhooks(apiKey);
    if (after.length) wrong.push(`after PUT of the account, its outbox: ${outboxLine(after)}`);
  });
  await withAccount(context, undefined, async (apiKey) => {
    await depositTo(context, apiKey);
    const outbox = await context.control!.webhooks(apiKey);
    const kept = outbox.length === 1 && outbox[0]!.status === "failed" && outbox[0]!.attempts.length === 0;
    if (!kept) wrong.push(`no webhookUrl: ${outboxLine(outbox)} (expected kept, failed, no attempt)`);
  });
  // A URL needs a secret, and is http or https.
  for (const settings of [
    { webhookUrl: receiver.url("/hooks/unsigned") },
    { webhookUrl: "ftp://127.0.0.1/", webhookSecret: "s" },
  ]) {
    const apiKey = `api-contract-verify-rules-${crypto.randomUUID().slice(0, 8)}`;
    try {
      await context.control!.putAccount(apiKey, settings);
      await context.control!.deleteAccount(apiKey);
      wrong.push(`PUT /_sandbox/accounts with ${JSON.stringify(settings)} accepted`);
    } catch (error) {
      if (!(error instanceof SandboxControlError) || error.status >= 500) throw error;
    }
  }
  return wrong;
}

const destinationFlow: Flow = {
  name: "webhook destination: its URL only (a redirect not followed), none without one, an outbox dropped by a put",
  choices: ["webhooks.destination"],
  operations: WEBHOOK_OPERATIONS,
  spend: { requests: 2, quotes: 0, trades: 0, addresses: 0 },
  unfit: unfitForHooks,
  async run(context) {
    const receiver = await startReceiver(context, (path) => (path.endsWith("/redirect") ? 307 : 200));
    try {
      const wrong = await checkDestination(context, receiver);
      context.check("webhooks.destination", wrong.length === 0, wrong.join("; "));
    } finally {
      await receiver.close();
    }
  },
};

/** The webhook of a one-webhook outbox once its last attempt has an outcome (a FlowFailure if none comes). */
async function answeredHook(context: FlowContext, apiKey: string, attempts: number): Promise<Listed> {
  const answered = (w: Listed[]) => w[0]?.attempts.length === attempts && w[0].attempts.at(-1)!.status !== undefined;
  const outbox = await outboxWhen(context, apiKey, (w) => answered(w) || (w[0]?.attempts.length ?? 0) > attempts);
  if (!answered(outbox))
    throw new FlowFailure(`attempt ${attempts} had no outcome within ${EVENT_WAIT_MS} ms: ${outboxLine(outbox)}`);
  return outbox[0]!;
}

/**
 * Each retry of a webhook answered 500 every time: due exactly the schedule's delay after the attempt before (not
 * at half of it, on the sandbox clock), failed after the last; one answered 500 then 200 delivered by its retry.
 */
async function checkRetries(context: FlowContext, failing: string, once: string): Promise<string[]> {
  const control = context.control!;
  for (const [index, delay] of WEBHOOK_RETRY_DELAYS_MS.entries()) {
    const hook = await answeredHook(context, failing, index + 1);
    const last = hook.attempts.at(-1)!;
    const due = Date.parse(last.at) + delay;
    if (hook.status !== "pending" || Date.parse(hook.nextAttemptAt ?? "") !== due) {
      const next = `expected the next due ${delay} ms later: ${outboxLine([hook])}`;
      return [`after attempt ${index + 1} answered ${last.status}, ${next}`];
    }
    await control.advanceClock(Math.floor(delay / 2));
    const early = await control.webhooks(failing);
    if (early[0]!.attempts.length !== index + 1)
      return [`with ${Math.floor(delay / 2)} ms of ${delay} passed: ${outboxLine(early)}`];
    await control.advanceClock(delay - Math.floor(delay / 2));
    const retried = await control.webhooks(failing);
    if (retried[0]!.attempts.length !== index + 2) return [`with ${delay} ms passed: ${outboxLine(retried)}`];
  }
  const tries = WEBHOOK_RETRY_DELAYS_MS.length + 1;
  const final = await answeredHook(context, failing, tries);
  const wrong: string[] = [];
  if (final.status !== "failed" || final.nextAttemptAt !== undefined)
    wrong.push(`after ${tries} attempts answered 500: ${outboxLine([final])} (expected failed)`);
  const [delivered] = await control.webhooks(once);
  const statuses = delivered?.attempts.map((a) => a.status).join(", ");
  if (delivered?.status !== "delivered" || statuses !== "500, 200")
    wrong.push(`answered 500 then 200: ${outboxLine(delivered ? [delivered] : [])} (expected delivered by the retry)`);
  return wrong;
}

const retryFlow: Flow = {
  name: "webhook retries: answered 500, retried by the schedule on the sandbox clock (advanced ~10.6 h), then failed",
  choices: ["webhooks.retry"],
  operations: WEBHOOK_OPERATIONS,
  spend: { requests: 2, quotes: 0, trades: 0, addresses: 0 },
  unfit: unfitForHooks,
  async run(context) {
    const receiver = await startReceiver(context, (path, count) => (path.endsWith("/once") && count > 1 ? 200 : 500));
    try {
      await withAccount(context, receiver.url("/hooks/failing"), (failing) =>
        withAccount(context, receiver.url("/hooks/once"), async (once) => {
          await depositTo(context, failing);
          await depositTo(context, once);
          const wrong = await checkRetries(context, failing, once);
          context.check("webhooks.retry", wrong.length === 0, wrong.join("; "));
        }),
      );
    } finally {
      await receiver.close();
    }
  },
};

/** How far from the delivery timeout the connection of an unanswered webhook may close (a timer's latitude). */
const TIMEOUT_LATITUDE_MS = { before: 250, after: 5_000 };

const timeoutFlow: Flow = {
  // The one flow that waits on real time: the timeout is real (the receiver is), so every run pays it once.
  name: `webhook timeout: a receiver that never answers, given up after ${WEBHOOK_TIMEOUT_MS / 1000} s of real time`,
  choices: ["webhooks.timeout"],
  operations: WEBHOOK_OPERATIONS,
  spend: { requests: 1, quotes: 0, trades: 0, addresses: 0 },
  unfit: unfitForHooks,
  async run(context) {
    const receiver = await startReceiver(context, () => "hang");
    try {
      await withAccount(context, receiver.url("/hooks/silent"), async (apiKey) => {
        await depositTo(context, apiKey);
        const bound = WEBHOOK_TIMEOUT_MS + TIMEOUT_LATITUDE_MS.after + EVENT_WAIT_MS;
        await receiver.until(() => receiver.arrivals[0]?.closedAt !== undefined, bound);
        const [arrival] = receiver.arrivals;
        if (!arrival) throw new FlowFailure(`no webhook arrived within ${bound} ms`);
        const outbox = await outboxWhen(context, apiKey, (w) => w[0]?.attempts[0]?.error !== undefined);
        const waited = arrival.closedAt === undefined ? undefined : arrival.closedAt - arrival.at;
        const inTime =
          waited !== undefined &&
          waited >= WEBHOOK_TIMEOUT_MS - TIMEOUT_LATITUDE_MS.before &&
          waited <= WEBHOOK_TIMEOUT_MS + TIMEOUT_LATITUDE_MS.after;
        const failed = outbox[0]?.attempts[0]?.status === undefined && outbox[0]?.attempts[0]?.error !== undefined;
        const closed = waited === undefined ? `still open after ${bound} ms` : `closed after ${waited} ms`;
        const evidence = `the connection of an unanswered webhook ${closed}; ${outboxLine(outbox)}`;
        context.check("webhooks.timeout", inTime && failed, evidence);
      });
    } finally {
      await receiver.close();
    }
  },
};

/** The flows of the sandbox's service rules, in the order verify runs them (the timeout's real wait last). */
export const SERVICE_RULE_FLOWS: readonly Flow[] = [
  httpFlow,
  controlOriginFlow,
  identityFlow,
  unmodelledFlow,
  destinationFlow,
  retryFlow,
  timeoutFlow,
];
