// The control API (/_sandbox/...), answered by sandbox.fetch beside the API: routes, bodies and answers are the
// control document's (generated/sandbox-control.json, built from openapi-sandbox/), read here, not restated.
// A request body is checked against the document's schema (400 with where it is wrong); with a control token,
// every route needs `Authorization: Bearer <token>` (401); an unknown route or account answers 404. Every
// control answer is checked against the document too; one that fails is a sandbox bug, answered 500. The whole
// state (GET /_sandbox/state) is answered in chunks as it is made (state-export.ts), each store checked as it is
// written and the other parts at the end: its status is sent before the end, so one that fails is logged and ends
// the body early (a broken body, never a whole one that breaks the document). A whole state put back
// (PUT /_sandbox/state) is read a store at a time (state-import.ts) and checked a store at a time (state-check.ts),
// with turns of the event loop between, then applied in one step: other requests are answered meanwhile.
// Who may call it over HTTP (its own origin, Host checked) is the HTTP front's rule (control-origin.ts): here, in
// process and through MSW, no socket is open and the caller holds the sandbox already.
import controlJson from "../../generated/sandbox-control.json" with { type: "json" };
import { type ContractValidator, createContractValidator } from "../contract/validator.js";
import { listOperations, type OpenApiDocument, OperationMatcher } from "../openapi/document.js";
import type { Engine } from "./engine.js";
import type { Sandbox } from "./types.js";
import { SandboxRefusal } from "./refusal.js";
import { exportState } from "./state-export.js";
import { parseStateInTurns } from "./state-import.js";

/** The control document (the control API's OpenAPI 3.1 description). */
const controlDocument = controlJson as unknown as OpenApiDocument;

/** The path every control route starts with. */
export const CONTROL_PREFIX = "/_sandbox";

/** Whether a URL's path is the control API's (sandbox.fetch routes by it). */
export const isControlPath = (pathname: string): boolean =>
  pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`);

interface ControlAnswer {
  status: number;
  body?: unknown;
  /** A body of JSON text made as it is sent (the whole state), in place of `body`. */
  chunks?: AsyncIterator<string>;
}

type ControlCall = { params: Record<string, string>; query: URLSearchParams; body: unknown };
type ControlHandler = (sandbox: Sandbox, call: ControlCall) => ControlAnswer | Promise<ControlAnswer>;

const ok = (body: unknown): ControlAnswer => ({ status: 200, body });
const problem = (status: number, message: string): ControlAnswer => ({ status, body: { message } });
const noAccount = (apiKey: string) => problem(404, `No sandbox account for the API key ${apiKey}`);
const clockOf = (now: number) => ok({ now, iso: new Date(now).toISOString() });

/**
 * The one place a control route's refusal becomes its answer: a SandboxRefusal (balances, rates, a state, money,
 * the clock) answers its status saying why; a RangeError of the sandbox's options answers 400.
 */
function refusalOf(error: unknown): ControlAnswer {
  if (error instanceof SandboxRefusal) return problem(error.status, error.message);
  if (error instanceof RangeError) return problem(400, error.message);
  throw error;
}

/** The answer of `change`, or of its refusal (refusalOf). */
function refusing(change: () => ControlAnswer): ControlAnswer {
  try {
    return change();
  } catch (error) {
    return refusalOf(error);
  }
}

/** `store` without its apiSecret and webhookSecret: what a read that did not ask for them answers. */
function storeWithoutSecrets<T extends { apiSecret?: string; webhookSecret?: string }>(store: T): T {
  delete store.apiSecret;
  delete store.webhookSecret;
  return store;
}

/** Whether a read asks for the secrets (`?secrets=true`), or the 400 of a value other than true or false. */
function secretsAsked(query: URLSearchParams): boolean | ControlAnswer {
  const secrets = query.get("secrets") ?? "false";
  if (secrets !== "true" && secrets !== "false") return problem(400, "secrets must be true or false");
  return secrets === "true";
}

/** The control routes by operationId. */
const HANDLERS: Record<string, ControlHandler> = {
  putSandboxAccount: (sandbox, { params, body }) =>
    refusing(() => ok(sandbox.putAccount(params.apiKey!, body as Parameters<Sandbox["putAccount"]>[1]))),
  getSandboxAccount: (sandbox, { params }) => {
    const account = sandbox.getAccount(params.apiKey!);
    return account ? ok(account) : noAccount(params.apiKey!);
  },
  deleteSandboxAccount: (sandbox, { params }) =>
    sandbox.deleteAccount(params.apiKey!) ? { status: 204 } : noAccount(params.apiKey!),
  getSandboxClock: (sandbox) => clockOf(sandbox.clock.now()),
  advanceSandboxClock: (sandbox, { body }) =>
    refusing(() => clockOf(sandbox.clock.advance((body as { ms: number }).ms))),
  getSandboxAccountClock: (sandbox, { params }) => refusing(() => clockOf(sandbox.accountClock(params.apiKey!).now())),
  advanceSandboxAccountClock: (sandbox, { params, body }) =>
    refusing(() => clockOf(sandbox.accountClock(params.apiKey!).advance((body as { ms: number }).ms))),
  // Setting nothing answers the rates in use.
  getSandboxRates: (sandbox) => ok(sandbox.setRates({})),
  putSandboxRates: (sandbox, { body }) =>
    refusing(() => ok(sandbox.setRates(body as Parameters<Sandbox["setRates"]>[0]))),
  getSandboxSettings: (sandbox) => ok(sandbox.settings()),
  putSandboxSettings: (sandbox, { body }) => ok(sandbox.putSettings(body as Parameters<Sandbox["putSettings"]>[0])),
  getSandboxAccountState: (sandbox, { params, query }) => {
    const secrets = secretsAsked(query);
    if (typeof secrets !== "boolean") return secrets;
    const store = sandbox.accountState(params.apiKey!);
    if (!store) return noAccount(params.apiKey!);
    return ok(secrets ? store : storeWithoutSecrets(store));
  },
  putSandboxAccountState: (sandbox, { params, body }) =>
    refusing(() => {
      sandbox.restoreAccount(params.apiKey!, body as Parameters<Sandbox["restoreAccount"]>[1]);
      return { status: 204 };
    }),
  getSandboxChoices: (sandbox) => ok(sandbox.choices),
  simulateSandboxDeposit: (sandbox, { body }) =>
    refusing(() => ({ status: 201, body: sandbox.deposit(body as Parameters<Sandbox["deposit"]>[0]) })),
  settleSandboxWithdrawal: (sandbox, { params, body }) =>
    refusing(() => ok(sandbox.settleWithdrawal(params.transactionId!, (body as { status: "SUCCESSFUL" }).status))),
  listSandboxWebhooks: async (sandbox, { query }) => ok(await sandbox.webhooks.list(query.get("apiKey") ?? undefined)),
  getSandboxOpenApi: () => ok(controlDocument),
};

/** A body's text parsed (undefined for none), or the 400 of one that is not JSON. */
function parsedBody(text: string): { value: unknown } | ControlAnswer {
  if (text === "") return { value: undefined };
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return problem(400, `the body is not valid JSON (${(error as Error).message})`);
  }
}

/** The body of a request, parsed, or the 400 of one that is not JSON. */
async function bodyOf(request: Request): Promise<{ value: unknown } | ControlAnswer> {
  return parsedBody(request.method === "GET" || request.method === "HEAD" ? "" : await request.text());
}

/** The route whose body is a whole state, which may be hundreds of MiB: read a store at a time (state-import.ts). */
const STATE_BODY_ROUTE = "putSandboxState";

/** A request's body as bytes: its one chunk as it is (a body given whole: the HTTP front's), or its chunks joined. */
async function bytesOf(request: Request): Promise<Uint8Array<ArrayBuffer>> {
  // A body's chunks are never of a SharedArrayBuffer.
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  const reader = request.body?.getReader() as ReadableStreamDefaultReader<Uint8Array<ArrayBuffer>> | undefined;
  if (reader) for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/**
 * The state a request's body holds, parsed a store at a time with a turn of the event loop between two stores;
 * a body that is not a JSON object is parsed as any other body is (bodyOf: its text as the request's text() gives
 * it), for the same value or the same 400.
 */
async function stateBodyOf(request: Request): Promise<{ value: unknown } | ControlAnswer> {
  const bytes = await bytesOf(request);
  const state = await parseStateInTurns(bytes);
  return state === undefined ? parsedBody(await new Response(bytes).text()) : { value: state };
}

const JSON_CONTENT = { "content-type": "application/json" };

/** The Responses whose body is made as it is read (the whole state): the HTTP front sends them chunk by chunk. */
const streamed = new WeakSet<Response>();

/** Whether `response`'s body is made as it is read, so a reader should send it on as it comes, not read it whole. */
export const isStreamedAnswer = (response: Response): boolean => streamed.has(response);

/**
 * `chunks` as a Response body: the next chunk is made only when the reader asks for one (no chunk is made ahead of
 * the reader, so a reader that waits holds the export), and a reader that stops ends the export.
 */
function bodyStreamOf(chunks: AsyncIterator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

function toResponse({ status, body, chunks }: ControlAnswer): Response {
  if (chunks) {
    const response = new Response(bodyStreamOf(chunks), { status, headers: JSON_CONTENT });
    streamed.add(response);
    return response;
  }
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: body === undefined ? {} : JSON_CONTENT,
  });
}

/** The answer to a method or path the control API does not have (the HTTP front's too, for a method Fetch refuses). */
const noRoute = (method: string, path: string) => problem(404, `no control route ${method} ${path}`);
export const noControlRoute = (method: string, path: string): Response => toResponse(noRoute(method, path));

let routes: { matcher: OperationMatcher; validator: ContractValidator } | undefined;

/** The control document's routes and validator, made once for every sandbox. */
function controlRoutes() {
  routes ??= {
    matcher: new OperationMatcher(listOperations(controlDocument), []),
    validator: createContractValidator(controlDocument, { basePaths: [] }),
  };
  return routes;
}

interface ControlOptions {
  controlToken?: string;
  log?: (line: string) => void;
  /**
   * Restores a state parsed for this request alone, checked a store at a time with turns of the event loop between
   * (state-check.ts) and applied in one step once all of it is checked: a refusal (SandboxRefusal) changes nothing.
   */
  restoreInTurns: (saved: unknown) => Promise<void>;
}

/** Why an answer breaks the control document, as the log and a 500 say it. */
const breaksDocument = (found: string) => `the sandbox's control answer breaks its document: ${found}`;

/** The violations' messages, joined. */
const messagesOf = (violations: readonly { message: string }[]) => violations.map((v) => v.message).join("; ");

/** A concrete path of the route that answers one store (the check is of the answer, whatever its key). */
const STORE_ANSWER_PATH = "/_sandbox/accounts/key/state";
/** What the validator puts before a violation of that answer's body (its pointer follows). */
const STORE_PREFIX = `GET ${CONTROL_PREFIX}/accounts/{apiKey}/state 200: `;

/**
 * GET /_sandbox/state: the state exported in chunks (state-export.ts), each store checked as it is written against
 * the store the control document declares (GET /_sandbox/accounts/{apiKey}/state's answer: SandboxAccountStore),
 * and the parts beside the stores, at the end, against SandboxState (with no store). A part that fails is a sandbox
 * bug: logged, it ends the export, and the body breaks off.
 */
function createStateRead(engine: Engine, validator: ContractValidator, log?: (line: string) => void) {
  const headers = JSON_CONTENT;
  const problem = (found: string) => {
    const why = breaksDocument(found);
    log?.(`sandbox bug: GET ${CONTROL_PREFIX}/state: ${why}`);
    return why;
  };
  const storeProblem = (key: string, store: object) => {
    const answer = { method: "GET", path: STORE_ANSWER_PATH, status: 200, headers, body: store };
    const result = validator.validateResponse(answer);
    if (result.ok) return undefined;
    // Said as a check of the whole state says it: the route's, the pointer into the state.
    const into = `GET ${CONTROL_PREFIX}/state 200: /accounts/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    return problem(result.violations.map(({ message }) => message.replace(STORE_PREFIX, into)).join("; "));
  };
  const partsProblem = (parts: Record<string, unknown>) => {
    const body = { ...parts, accounts: {} };
    const result = validator.validateResponse({
      method: "GET",
      path: `${CONTROL_PREFIX}/state`,
      status: 200,
      headers,
      body,
    });
    return result.ok ? undefined : problem(messagesOf(result.violations));
  };
  return (_sandbox: Sandbox, { query }: ControlCall): ControlAnswer => {
    const secrets = secretsAsked(query);
    if (typeof secrets !== "boolean") return secrets;
    return { status: 200, chunks: exportState(engine, { secrets, storeProblem, partsProblem }) };
  };
}

/** The control API of `sandbox` (whose engine is `engine`) as a Fetch handler. */
export function createControl(sandbox: Sandbox, engine: Engine, options: ControlOptions) {
  const { matcher, validator } = controlRoutes();
  const handlers: Record<string, ControlHandler> = {
    ...HANDLERS,
    getSandboxState: createStateRead(engine, validator, options.log),
    [STATE_BODY_ROUTE]: async (_sandbox, { body }) => {
      try {
        await options.restoreInTurns(body);
        return { status: 204 };
      } catch (error) {
        return refusalOf(error);
      }
    },
  };
  const authorized = (request: Request) =>
    options.controlToken === undefined || request.headers.get("authorization") === `Bearer ${options.controlToken}`;
  /** The answer, or the 500 of one the control document does not allow. */
  const checked = (request: Request, path: string, answer: ControlAnswer): ControlAnswer => {
    if (answer.chunks) return answer; // its parts are checked as they are made
    const headers = answer.body === undefined ? {} : JSON_CONTENT;
    const { status, body } = answer;
    const result = validator.validateResponse({ method: request.method, path, status, headers, body });
    if (result.ok) return answer;
    const why = breaksDocument(messagesOf(result.violations));
    options.log?.(`sandbox bug: ${request.method} ${path}: ${why}`);
    return problem(500, why);
  };
  const answer = async (request: Request, path: string): Promise<ControlAnswer> => {
    if (!authorized(request)) return problem(401, "The control API requires Authorization: Bearer <token>");
    const match = matcher.match(request.method, path);
    const handler = match && handlers[match.operation.operationId ?? ""];
    if (!match || !handler) return noRoute(request.method, path);
    const whole = match.operation.operationId === STATE_BODY_ROUTE;
    const body = whole ? await stateBodyOf(request) : await bodyOf(request);
    if (!("value" in body)) return body;
    const [wrong] = validator.validateRequestBody(request.method, path, body.value);
    if (wrong) return problem(400, wrong.message.replace(/^request body: /, ""));
    const query = new URL(request.url).searchParams;
    return checked(request, path, await handler(sandbox, { params: match.params, query, body: body.value }));
  };
  return async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    return toResponse(await answer(request, path));
  };
}
