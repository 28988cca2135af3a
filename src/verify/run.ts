// Contract verification of a running deployment (or of the mock): sends the cases of cases.ts (planned by plan.ts,
// sent by send.ts) and judges each answer with the contract validator. A positive case passes only with its
// documented success status and a conforming answer; a negative case only with a refusal (4xx) that conforms and
// is not a 404 or 405 (those say the operation is not there, not that the request was refused). On the package's
// mock (known by its X-Api-Contract-Mock header) all cases run, unpaced, with the exact refusals the mock gives.
// A target that gives no HTTP answer to the first request it is sent (refused, unresolvable, TLS failure,
// timeout) is not checked further: the report says why (`unchecked`).
import { API_KEY_HEADER } from "../../generated/client-meta.js";
import type { ContractResult, ContractViolation } from "../contract/types.js";
import type { ContractValidator } from "../contract/validator.js";
import {
  isDocumentedSuccess,
  isObject,
  listOperations,
  type OpenApiDocument,
  type Operation,
  successKeys,
} from "../openapi/document.js";
import { noAnswerReason } from "./no-answer.js";
import { createdParameter, creatorPath, type PlannedCase, planVerification } from "./plan.js";
import { createSandboxControl } from "../sandbox/control-client.js";
import type { FlowRequestOptions, FlowSend } from "./flows/context.js";
import { flowsPass, type FlowsReport, runFlows as runAllFlows } from "./flows/index.js";
import { prepareSandbox, type SandboxSetup, type SetupRequest } from "./sandbox-setup.js";
import { type Answer, createSender, realClock, type Sender } from "./send.js";
import type { CaseResult, VerifyOptions, VerifyReport, VerifyTarget } from "./types.js";

// Imported from here by the command (src/cli.ts).
export type { CaseResult, VerifyOptions, VerifyReport, VerifyTarget } from "./types.js";

export interface Verifier {
  /** Sends one planned case and judges the answer. */
  run(planned: PlannedCase): Promise<CaseResult>;
  /** Requests sent. */
  readonly requests: number;
  /** HTTP answers received (any status). */
  readonly answers: number;
  /** What the target is, as far as the answers so far tell (options.target when given). */
  readonly target: VerifyTarget;
  /** The package's version (its X-Api-Contract-Mock header) while the target is the package's mock or sandbox. */
  readonly mockVersion: string | undefined;
  /** Sends `apiKey` from now on (verify's own account on the package's sandbox). */
  useApiKey(apiKey: string): void;
  /** One API request of verify's set-up on the package's sandbox (sent, signed and paced as the cases are). */
  setupRequest: SetupRequest;
  /** One API request of a flow, with the run's key; its answer as sent, any status. */
  flowSend: FlowSend;
  /** Waits for spent limits by `advance` on the target's clock from now on (the package's sandbox). */
  useTargetClock(advance: (ms: number) => Promise<void>): void;
  /** Time waited for spent limits to reset, in milliseconds of the target's clock. */
  readonly limitWaitMs: number;
}

/** What running a case needs beyond the case: the run's sender, and the ids its POST cases created (by path). */
interface RunContext {
  operations: Operation[];
  validator: ContractValidator;
  options: VerifyOptions;
  sender: Sender;
  created: Map<string, string>;
}

/** A verifier for a target: paces and signs requests, remembers ids created by POST cases. */
export function createVerifier(spec: OpenApiDocument, validator: ContractValidator, options: VerifyOptions): Verifier {
  const sender = createSender(options);
  const context: RunContext = { operations: listOperations(spec), validator, options, sender, created: new Map() };
  return {
    get requests() {
      return sender.requests;
    },
    get answers() {
      return sender.answers;
    },
    get target() {
      return sender.target;
    },
    get mockVersion() {
      return sender.target === "deployment" ? undefined : sender.identity;
    },
    run: (planned) => runCase(planned, context),
    useApiKey(apiKey) {
      context.options = { ...context.options, apiKey };
    },
    setupRequest: (method, path, apiKey, body) => setupRequest(context, { method, path, apiKey, body }),
    flowSend: (method, path, body, apiKey = context.options.apiKey, how = {}) =>
      apiRequest(context, { method, path, apiKey: apiKey ?? undefined, body }, how),
    useTargetClock: (advance) => sender.useTargetClock(advance),
    get limitWaitMs() {
      return sender.limitWaitMs;
    },
  };
}

/**
 * One API request of verify's own (a set-up step, a flow's step), sent as the cases are: its answer as sent. A
 * flow's own headers go as given (unsigned by the run's secret); `unpaced`, it does not wait for a spent limit.
 */
function apiRequest(
  context: RunContext,
  request: { method: string; path: string; apiKey: string | undefined; body: unknown },
  how: FlowRequestOptions = {},
): Promise<Answer> {
  const { method, path, apiKey, body } = request;
  const url = `${context.options.baseUrl.replace(/\/+$/, "")}${path}`;
  const headers: Record<string, string> = { accept: "application/json", ...how.headers };
  if (apiKey !== undefined) headers[API_KEY_HEADER] = apiKey;
  if (body !== undefined) headers["content-type"] = "application/json";
  const text = body === undefined ? undefined : JSON.stringify(body);
  return context.sender.send({ method, url, headers, body: text }, { unpaced: how.unpaced, unsigned: !!how.headers });
}

/** An API request of the set-up: its answer's JSON, or an error saying what was answered instead of 200. */
async function setupRequest(
  context: RunContext,
  request: { method: string; path: string; apiKey: string; body: unknown },
): Promise<unknown> {
  const { method, path } = request;
  const answer = await apiRequest(context, request);
  if (answer.status !== 200)
    throw new Error(`${method} ${path} answered ${answer.status}: ${answer.bodyText.slice(0, 300)}`);
  return JSON.parse(answer.bodyText) as unknown;
}

/** A case's result before it is sent: failed until judged otherwise, no violations yet. */
function unsentResult(planned: PlannedCase): CaseResult {
  return {
    case: planned.name,
    operationId: planned.operation.operationId,
    kind: planned.kind,
    outcome: "failed",
    violations: [],
    warnings: [],
  };
}

/** Sends one planned case and judges its answer. */
async function runCase(planned: PlannedCase, context: RunContext): Promise<CaseResult> {
  const result = unsentResult(planned);
  if (planned.skip) return { ...result, outcome: "skipped", reason: planned.skip };
  // What the target is before this answer decides how it is judged.
  const onDeployment = context.sender.target === "deployment";
  const path = casePath(planned, context, onDeployment);
  if (typeof path !== "string") return { ...result, outcome: "skipped", reason: path.skip };
  const url = `${context.options.baseUrl.replace(/\/+$/, "")}${path}`;
  result.request = { method: planned.request.method, url };
  let answer: Answer;
  try {
    const { method, body } = planned.request;
    answer = await context.sender.send({ method, url, headers: caseHeaders(planned, context.options), body });
  } catch (error) {
    const noAnswer = noAnswerReason(error, url, context.sender.timeoutMs);
    return { ...result, noAnswer, reason: `no answer: ${noAnswer}` };
  }
  result.status = answer.status;
  result.durationMs = answer.durationMs;
  const { operation } = planned;
  const positive = planned.kind === "positive";
  const validation = context.validator.validateResponse(
    {
      method: operation.method,
      path: operation.path,
      status: answer.status,
      headers: answer.headers,
      bodyText: answer.bodyText,
      expectSuccess: positive,
    },
    { strict: onDeployment && positive },
  );
  const judged = { ...result, violations: validation.violations, warnings: validation.warnings };
  if (!positive) return judgeRefusal(planned, answer, validation, judged, onDeployment);
  const verdict = judgeSuccess(operation, answer, validation, judged);
  if (verdict.outcome === "passed") rememberCreatedId(operation, answer.bodyText, context.created);
  return verdict;
}

/**
 * The case's path: on a path whose last parameter a POST of this run creates, with that id (on the mock, without
 * one, the example stands; on a deployment the case is skipped).
 */
function casePath(planned: PlannedCase, context: RunContext, onDeployment: boolean): string | { skip: string } {
  const fromCreator = createdParameter(context.operations, planned);
  const creator = creatorPath(context.operations, planned.operation);
  const path = planned.request.path;
  if (fromCreator === undefined || creator === undefined || fromCreator in (context.options.params ?? {})) return path;
  const id = context.created.get(creator);
  if (id !== undefined) return path.replace(/\/[^/?]*(\?.*)?$/, `/${encodeURIComponent(id)}$1`);
  return onDeployment ? { skip: `needs the id POST ${creator} creates, which this run did not get` } : path;
}

/** The case's headers, with the API key on keyed operations unless the case is about its absence. */
function caseHeaders(planned: PlannedCase, options: VerifyOptions): Record<string, string> {
  const headers = { ...planned.request.headers };
  if (!planned.withoutKey && planned.operation.security !== "none" && options.apiKey)
    headers[API_KEY_HEADER] = options.apiKey;
  return headers;
}

const violationCount = (violations: ContractViolation[]): string =>
  `${violations.length} violation${violations.length === 1 ? "" : "s"}`;

/** Said after the status of a 3xx answer: where it points, and that it was not followed. */
function redirectHint(status: number, headers: Headers): string {
  if (status < 300 || status > 399) return "";
  const location = headers.get("location");
  return ` (${location ? `a redirect to ${location}` : "a redirect"}: verify does not follow redirects)`;
}

/** A positive case: only the documented success status passes (not a 2xx the contract reaches through `default`). */
function judgeSuccess(
  operation: Operation,
  answer: Answer,
  validation: ContractResult,
  result: CaseResult,
): CaseResult {
  const success = successKeys(operation);
  if (isDocumentedSuccess(answer.status, success)) {
    if (validation.ok) return { ...result, outcome: "passed" };
    return {
      ...result,
      reason: `answered ${answer.status}, breaking the contract: ${violationCount(validation.violations)}`,
    };
  }
  const violations = result.violations.some((v) => v.location === "status")
    ? result.violations
    : [unexpectedStatus(operation, answer.status, success), ...result.violations];
  const why =
    answer.status === 404
      ? " (not found: is the operation deployed at this base URL?)"
      : redirectHint(answer.status, answer.headers);
  const documented = success.join(" or ") || "(none documented)";
  return { ...result, violations, reason: `answered ${answer.status}, not its documented success ${documented}${why}` };
}

/** The violation of a positive case answered outside its documented successes, when the validator saw none. */
function unexpectedStatus(operation: Operation, status: number, success: string[]): ContractViolation {
  const expected = success.join(" or ") || "a documented 2xx";
  return {
    kind: "unexpected-status",
    location: "status",
    pointer: "",
    message: `${operation.method} ${operation.path}: expected ${expected}, got ${status}`,
  };
}

/** Keeps the id a passing POST case created (its data.id), for the cases of the path under it. */
function rememberCreatedId(operation: Operation, bodyText: string, created: Map<string, string>): void {
  if (operation.method !== "POST") return;
  try {
    const parsed = JSON.parse(bodyText) as unknown;
    if (isObject(parsed) && isObject(parsed.data) && typeof parsed.data.id === "string")
      created.set(operation.path, parsed.data.id);
  } catch {
    // judged already
  }
}

/** A negative case: refused with a 4xx that conforms; on the mock, refused for the reason the case is about. */
function judgeRefusal(
  planned: PlannedCase,
  answer: Answer,
  validation: ContractResult,
  result: CaseResult,
  onDeployment: boolean,
): CaseResult {
  const { status } = answer;
  if (status < 400 || status > 499)
    return { ...result, reason: `expected a 4xx refusal, got ${status}${redirectHint(status, answer.headers)}` };
  if (status === 404 || status === 405) {
    const notThere = `the operation is not there (expected a refusal of this request, not ${status})`;
    return { ...result, reason: `answered ${status}: ${notThere}` };
  }
  if (!onDeployment) {
    const expected = planned.withoutKey ? ("401" in planned.operation.responses ? [401] : undefined) : [400, 422];
    if (expected && !expected.includes(status))
      return { ...result, reason: `expected ${expected.join(" or ")}, got ${status}` };
  }
  if (!validation.ok)
    return { ...result, reason: `the ${status} refusal breaks the contract: ${violationCount(validation.violations)}` };
  return { ...result, outcome: "passed" };
}

/** A case not sent because the target could not be checked. */
function notSentResult(planned: PlannedCase): CaseResult {
  const { violations, warnings, ...head } = unsentResult(planned);
  // The keys in the order of every other result (the JSON report is compared byte for byte).
  return { ...head, outcome: "skipped", reason: "not sent: the target could not be checked", violations, warnings };
}

/** A sent case whose answer came, for commonCause. */
interface AnsweredCase {
  planned: PlannedCase;
  result: CaseResult;
}

/** Calls onTarget when what the answers say of the target changes (and not before the first answer). */
function targetTeller(verifier: Verifier, onTarget: VerifyOptions["onTarget"]): () => void {
  let told: string | undefined;
  return () => {
    const now = `${verifier.target} ${verifier.mockVersion}`;
    if (verifier.answers === 0 || now === told) return;
    told = now;
    onTarget?.(verifier.target, verifier.mockVersion);
  };
}

/** Plans, sends and judges every case; the report's `ok` says whether the target meets the contract. */
export async function verify(
  spec: OpenApiDocument,
  validator: ContractValidator,
  options: VerifyOptions,
): Promise<VerifyReport> {
  const startedAt = new Date().toISOString();
  const verifier = createVerifier(spec, validator, options);
  // The same cases in the same order for either target; which skip reasons hold depends on what the target is.
  const plans: Record<VerifyTarget, PlannedCase[]> = {
    deployment: planVerification(spec, { ...options, target: "deployment" }),
    mock: planVerification(spec, { ...options, target: "mock" }),
    sandbox: planVerification(spec, { ...options, target: "sandbox" }),
  };
  const tellTarget = targetTeller(verifier, options.onTarget);
  const setup = sandboxPreparer(spec, verifier, options, plans);
  const results: CaseResult[] = [];
  const answered: AnsweredCase[] = [];
  let unchecked: string | undefined;
  const total = plans.deployment.length;
  for (let index = 0; index < total; index++) {
    if (unchecked === undefined) await setup.prepare();
    const planned = plans[verifier.target][index]!;
    let result: CaseResult;
    if (unchecked !== undefined && !planned.skip) result = notSentResult(planned);
    else {
      result = await verifier.run(planned);
      // No HTTP answer to the first request: the target cannot be checked; the other cases are not sent.
      if (result.noAnswer !== undefined && verifier.answers === 0) unchecked = result.noAnswer;
      if (result.status !== undefined) answered.push({ planned, result });
    }
    results.push(result);
    tellTarget();
    options.onCase?.(result, index + 1, total);
  }
  const flowsWanted = unchecked === undefined && options.flows !== false;
  const flows = flowsWanted ? await runFlows(validator, verifier, options, setup) : undefined;
  await setup.cleanUp();
  const report = finalReport(verifier, options, { startedAt, results, answered, unchecked });
  return {
    ...report,
    ...(verifier.limitWaitMs > 0 ? { limitWaitMs: verifier.limitWaitMs } : {}),
    ...(setup.line === undefined ? {} : { sandboxSetup: setup.line }),
    ...(flows === undefined ? {} : { ...flows, ok: report.ok && flowsPass(flows) }),
  };
}

/** `host:port` as the receiver listens on it: 127.0.0.1:0 when not given, port 0 when only a host is. */
function receiverAddress(given: string | undefined): { host: string; port: number } {
  if (!given) return { host: "127.0.0.1", port: 0 };
  const at = given.lastIndexOf(":");
  if (at < 0 || given.endsWith("]")) return { host: given.replace(/^\[|\]$/g, ""), port: 0 };
  return { host: given.slice(0, at).replace(/^\[|\]$/g, ""), port: Number(given.slice(at + 1)) };
}

/** The flows on the target, with the sandbox's control API when verify prepared an account there. */
function runFlows(
  validator: ContractValidator,
  verifier: Verifier,
  options: VerifyOptions,
  setup: ReturnType<typeof sandboxPreparer>,
): Promise<FlowsReport> {
  const control = setup.prepared
    ? createSandboxControl({ baseUrl: options.baseUrl, token: options.sandboxToken })
    : undefined;
  const flowOptions = {
    target: verifier.target,
    baseUrl: options.baseUrl,
    allowSideEffects: options.allowSideEffects ?? false,
    control,
    secondKey: options.secondApiKey,
    allowDivergence: options.allowDivergence ?? [],
    rules: options.rules,
    webhookReceiver: receiverAddress(options.webhookReceiver),
    webhookSecret: options.webhookSecret,
    sleep: (ms: number) => (options.clock ?? realClock).sleep(ms),
    limitWaitMs: () => verifier.limitWaitMs,
  };
  return runAllFlows(flowOptions, verifier.flowSend, validator);
}

/**
 * verify's set-up on the package's sandbox (sandbox-setup.ts), once the answers say the target is one: its own
 * account, sent from then on, and the sandbox's plan made again with the values prepared (a value given with
 * --param wins). A set-up that fails is said, and the cases run as planned.
 */
function sandboxPreparer(
  spec: OpenApiDocument,
  verifier: Verifier,
  options: VerifyOptions,
  plans: Record<VerifyTarget, PlannedCase[]>,
) {
  let done: { setup?: SandboxSetup; line: string } | undefined;
  return {
    async prepare(): Promise<void> {
      if (done !== undefined || verifier.target !== "sandbox") return;
      try {
        const { baseUrl, sandboxToken: token } = options;
        const request = verifier.setupRequest;
        const setup = await prepareSandbox(spec, listOperations(spec), { baseUrl, token, request });
        verifier.useApiKey(setup.apiKey);
        // A spent limit reopens when the sandbox clock reaches its reset: verify moves it there, not the wall clock.
        const control = createSandboxControl({ baseUrl, token });
        verifier.useTargetClock(async (ms) => void (await control.advanceClock(ms)));
        const params = { ...setup.params, ...options.params };
        plans.sandbox = planVerification(spec, { ...options, target: "sandbox", params, bodies: setup.bodies });
        done = { setup, line: `prepared ${setup.summary}` };
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        done = { line: `not prepared (${why}); the cases that need an id or a value of the sandbox's may fail` };
      }
    },
    get line(): string | undefined {
      return done?.line;
    },
    /** Whether verify made its account on the sandbox (its flows may use the control API). */
    get prepared(): boolean {
      return done?.setup !== undefined;
    },
    /** Deletes verify's account; a sandbox that refuses leaves it, which changes no result. */
    cleanUp: async () => {
      await done?.setup?.cleanUp().catch(() => undefined);
    },
  };
}

/** The report of a finished run: counts, verdict, and the one cause of the failures if there is one. */
function finalReport(
  verifier: Verifier,
  options: VerifyOptions,
  run: { startedAt: string; results: CaseResult[]; answered: AnsweredCase[]; unchecked: string | undefined },
): VerifyReport {
  const { results, unchecked } = run;
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const result of results) counts[result.outcome]++;
  const positivePassed = results.some((r) => r.kind === "positive" && r.outcome === "passed");
  const ok = unchecked === undefined && counts.failed === 0 && positivePassed;
  const cause = ok || unchecked !== undefined ? undefined : commonCause(run.answered, options);
  return {
    baseUrl: options.baseUrl,
    target: verifier.target,
    ...(verifier.mockVersion !== undefined ? { mockVersion: verifier.mockVersion } : {}),
    startedAt: run.startedAt,
    finishedAt: new Date().toISOString(),
    requests: verifier.requests,
    counts,
    ok,
    ...(unchecked !== undefined ? { unchecked } : {}),
    ...(cause !== undefined ? { cause } : {}),
    results,
  };
}

/** One line when one cause explains the failures: every keyed positive case answered 401/403, or every answer a 404. */
function commonCause(answered: AnsweredCase[], options: VerifyOptions): string | undefined {
  // The positive cases that send the key (all but key-less operations), or, without a key, those that need one.
  const keyed = answered.filter(
    ({ planned }) =>
      planned.kind === "positive" &&
      (options.apiKey ? planned.operation.security !== "none" : planned.operation.security === "required"),
  );
  if (keyed.length > 0 && keyed.every(({ result }) => result.status === 401 || result.status === 403))
    return keyRefused(keyed, options);
  if (answered.length > 1 && answered.every(({ result }) => result.status === 404))
    return `every request was answered 404: is the base URL right (${options.baseUrl})?`;
  return undefined;
}

/** Every keyed positive case refused (401/403): the key was refused, or none was given. */
function keyRefused(keyed: AnsweredCase[], options: VerifyOptions): string {
  const statuses = [...new Set(keyed.map(({ result }) => result.status))].sort().join("/");
  if (!options.apiKey)
    return (
      `no API key was given, and all ${keyed.length} positive cases that need one were answered ${statuses}; ` +
      "set CONTRACT_API_KEY (or --api-key)"
    );
  const secret = options.apiSecret
    ? " and CONTRACT_API_SECRET"
    : ", and whether the service wants signed requests (CONTRACT_API_SECRET)";
  return (
    `the API key was refused: all ${keyed.length} positive cases that send it were answered ${statuses}; ` +
    `check CONTRACT_API_KEY (or --api-key)${secret}`
  );
}
