// The control API (/_sandbox/...), answered by sandbox.fetch beside the API: routes, bodies and answers are the
// control document's (generated/sandbox-control.json, built from openapi-sandbox/), read here, not restated.
// A request body is checked against the document's schema (400 with where it is wrong); with a control token,
// every route needs `Authorization: Bearer <token>` (401); an unknown route or account answers 404. Every
// control answer is checked against the document too; one that fails is a sandbox bug, answered 500.
// Who may call it over HTTP (its own origin, Host checked) is the HTTP front's rule (control-origin.ts): here, in
// process and through MSW, no socket is open and the caller holds the sandbox already.
import controlJson from "../../generated/sandbox-control.json" with { type: "json" };
import { type ContractValidator, createContractValidator } from "../contract/validator.js";
import { listOperations, type OpenApiDocument, OperationMatcher } from "../openapi/document.js";
import type { Sandbox } from "./types.js";
import { SandboxRefusal } from "./refusal.js";

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
function refusing(change: () => ControlAnswer): ControlAnswer {
  try {
    return change();
  } catch (error) {
    if (error instanceof SandboxRefusal) return problem(error.status, error.message);
    if (error instanceof RangeError) return problem(400, error.message);
    throw error;
  }
}

/** `store` without its apiSecret and webhookSecret: what a read that did not ask for them answers. */
function storeWithoutSecrets<T extends { apiSecret?: string; webhookSecret?: string }>(store: T): T {
  delete store.apiSecret;
  delete store.webhookSecret;
  return store;
}

/** `state` with no account's apiSecret or webhookSecret. */
function withoutSecrets(state: ReturnType<Sandbox["snapshot"]>): ReturnType<Sandbox["snapshot"]> {
  for (const account of Object.values(state.accounts)) storeWithoutSecrets(account);
  return state;
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
  getSandboxState: (sandbox, { query }) => {
    const secrets = secretsAsked(query);
    if (typeof secrets !== "boolean") return secrets;
    const state = sandbox.snapshot();
    return ok(secrets ? state : withoutSecrets(state));
  },
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
  putSandboxState: (sandbox, { body }) =>
    refusing(() => {
      sandbox.restore(body as ReturnType<Sandbox["snapshot"]>);
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

/** The body of a request, parsed, or the 400 of one that is not JSON. */
async function bodyOf(request: Request): Promise<{ value: unknown } | ControlAnswer> {
  const text = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
  if (text === "") return { value: undefined };
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return problem(400, `the body is not valid JSON (${(error as Error).message})`);
  }
}

const JSON_CONTENT = { "content-type": "application/json" };

const toResponse = ({ status, body }: ControlAnswer): Response =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: body === undefined ? {} : JSON_CONTENT,
  });

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
}

/** The control API of `sandbox` as a Fetch handler. */
export function createControl(sandbox: Sandbox, options: ControlOptions) {
  const { matcher, validator } = controlRoutes();
  const authorized = (request: Request) =>
    options.controlToken === undefined || request.headers.get("authorization") === `Bearer ${options.controlToken}`;
  /** The answer, or the 500 of one the control document does not allow. */
  const checked = (request: Request, path: string, answer: ControlAnswer): ControlAnswer => {
    const headers = answer.body === undefined ? {} : JSON_CONTENT;
    const { status, body } = answer;
    const result = validator.validateResponse({ method: request.method, path, status, headers, body });
    if (result.ok) return answer;
    const found = result.violations.map((v) => v.message).join("; ");
    const why = `the sandbox's control answer breaks its document: ${found}`;
    options.log?.(`sandbox bug: ${request.method} ${path}: ${why}`);
    return problem(500, why);
  };
  const answer = async (request: Request, path: string): Promise<ControlAnswer> => {
    if (!authorized(request)) return problem(401, "The control API requires Authorization: Bearer <token>");
    const match = matcher.match(request.method, path);
    const handler = match && HANDLERS[match.operation.operationId ?? ""];
    if (!match || !handler) return noRoute(request.method, path);
    const body = await bodyOf(request);
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
