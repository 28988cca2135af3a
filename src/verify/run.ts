// Contract verification of a running deployment (or of the mock): sends the cases of cases.ts and judges
// each answer with the contract validator. A positive case passes only with its documented success
// status and a conforming answer; a negative case only with a refusal (4xx) that conforms and is not a
// 404 or 405 (those say the operation is not there, not that the request was refused). On a deployment
// it is safe by default: operations that change state run only when allowed, an operation with its own
// quota is called once, path parameters need real values (their examples name nothing that exists, unless
// the spec documents the value), and requests are paced. The package's own mock says what it is in every
// answer (X-Api-Contract-Mock): while every answer does, all cases run, unpaced, with the exact refusals the
// mock gives. A target that gives no HTTP answer to the first request it is sent (refused, unresolvable,
// TLS failure, timeout) is not checked further: the report says why (`unchecked`).
import { API_KEY_HEADER, SIGNING_HEADERS } from "../../generated/client-meta.js";
import { createSigner } from "../client/signing.js";
import type { ContractViolation, ContractWarning } from "../contract/types.js";
import type { ContractValidator } from "../contract/validator.js";
import { MOCK_IDENTITY_HEADER } from "../mock/identity.js";
import { isObject, listOperations, type OpenApiDocument, type Operation } from "../openapi/document.js";
import { hasOwnQuota, negativeCases, positiveCases, type VerifyCase } from "./cases.js";

export interface VerifyOptions {
  /** Base URL ending in the contract's base path, e.g. https://staging.example.com/v1. */
  baseUrl: string;
  apiKey?: string;
  /** Signs every request (x-api-timestamp, x-api-signature) as a real client of the service does. */
  apiSecret?: string;
  /**
   * `deployment`: the safety rules above. `mock`: this package's mock (every case, exact refusal statuses, examples
   * as path values). Default: learned from the answers (see VerifyTarget), a deployment's rules until the first.
   */
  target?: VerifyTarget;
  /** Run operations that change state (POST other than one with its own quota) and invalid bodies of such operations. */
  allowSideEffects?: boolean;
  /** Values for path and query parameters, by name (e.g. { id: "cus-123" }). */
  params?: Record<string, string>;
  /**
   * Minimum pause between the end of one request (its answer read) and the start of the next. Default 1000 ms on a
   * deployment (60/min, far under 200/min), 0 on the mock.
   */
  minIntervalMs?: number;
  /** Per-request time limit. Default 15 s. */
  timeoutMs?: number;
  /** What time it is and how to wait, for the pacing and the durations: performance.now and setTimeout by default. */
  clock?: VerifyClock;
  /** Called after each case, with its position (from 1) among the planned cases. */
  onCase?: (result: CaseResult, position: number, total: number) => void;
  /** Called when verify learns what the target is (after its first answer), and again if that changes. */
  onTarget?: (target: VerifyTarget, mockVersion: string | undefined) => void;
}

/**
 * What is verified: `mock` when every answer so far carried the mock's X-Api-Contract-Mock header (this package's
 * mock says so), else `deployment` (any other server, which verify cannot know to be a test one).
 */
export type VerifyTarget = "deployment" | "mock";

export interface CaseResult {
  case: string;
  operationId: string | undefined;
  kind: "positive" | "negative";
  outcome: "passed" | "failed" | "skipped";
  /** Why it was skipped or failed, in a sentence. */
  reason?: string;
  request?: { method: string; url: string };
  status?: number;
  durationMs?: number;
  /** Set when no HTTP answer came (connection refused, DNS, TLS, timeout, dropped connection): why, in one line. */
  noAnswer?: string;
  violations: ContractViolation[];
  warnings: ContractWarning[];
}

export interface VerifyReport {
  baseUrl: string;
  target: VerifyTarget;
  /** The mock's version, from its X-Api-Contract-Mock header, when the target is the package's mock. */
  mockVersion?: string;
  startedAt: string;
  finishedAt: string;
  requests: number;
  counts: { passed: number; failed: number; skipped: number };
  /** True when nothing failed and at least one positive case passed. */
  ok: boolean;
  /** Set when the target could not be checked (no HTTP answer to the first request sent): why, in one line. */
  unchecked?: string;
  /** Set when one cause explains the failures (the API key was refused; every request answered 404): in one line. */
  cause?: string;
  results: CaseResult[];
}

/** The verifier's clock, in milliseconds; a test gives a fake one to see the pauses asked for. */
export interface VerifyClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: VerifyClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** The body's text as sent: a byte-order mark is kept (Response.text() drops it) for the validator to report. */
const asSent = new TextDecoder("utf-8", { ignoreBOM: true });

/** Said after the status of a 3xx answer: where it points, and that it was not followed. */
function redirectHint(status: number, headers: Headers): string {
  if (status < 300 || status > 399) return "";
  const location = headers.get("location");
  return ` (${location ? `a redirect to ${location}` : "a redirect"}: verify does not follow redirects)`;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface PlannedCase extends VerifyCase {
  /** Why the case does not run against this target, or undefined. */
  skip: string | undefined;
}

/** The cases for a target, each with the reason it is skipped, if it is. */
export function planVerification(
  spec: OpenApiDocument,
  options: Pick<VerifyOptions, "target" | "allowSideEffects" | "params">,
): PlannedCase[] {
  const operations = listOperations(spec);
  const onDeployment = (options.target ?? "deployment") === "deployment";
  const params = options.params ?? {};
  const skipReason = (c: VerifyCase): string | undefined => {
    if (!onDeployment) return undefined;
    // The last path parameter of a positive case can come from what a POST of the parent path creates in this run.
    const fromCreator = createdParameter(operations, c);
    const missing = c.pathParameters.filter((name) => !(name in params) && name !== fromCreator);
    if (missing.length) {
      return `needs a real value for ${missing.map((n) => `{${n}}`).join(", ")} (the spec's example need not exist on the target): pass ${missing.map((n) => `--param ${n}=…`).join(" ")}`;
    }
    if (options.allowSideEffects) return undefined;
    if (hasOwnQuota(c.operation) && c.kind === "negative")
      return "each call may count against this operation's own quota; only one call is spent (allow side effects to run it)";
    if (!SAFE_METHODS.has(c.operation.method) && !hasOwnQuota(c.operation))
      return `${c.operation.method} changes state on the target (allow side effects to run it)`;
    return undefined;
  };
  return [...positiveCases(spec, operations, params), ...negativeCases(spec, operations, params)].map((c) => ({
    ...c,
    skip: skipReason(c),
  }));
}

/** The path parameter of a positive case that the id a POST of its parent path creates stands for: its last, if a placeholder. */
function createdParameter(operations: Operation[], c: VerifyCase): string | undefined {
  const last = /\{([^}]+)\}$/.exec(c.operation.path)?.[1];
  if (c.kind !== "positive" || last === undefined || !c.pathParameters.includes(last)) return undefined;
  return creatorPath(operations, c.operation) !== undefined ? last : undefined;
}

/** The path of the POST operation whose created id can stand in for `operation`'s last path parameter (`/x` creates what `/x/{id}` uses). */
export function creatorPath(operations: Operation[], operation: Operation): string | undefined {
  const parent = operation.path.replace(/\/\{[^}]+\}$/, "");
  if (parent === operation.path) return undefined;
  return operations.some((other) => other.method === "POST" && other.path === parent) ? parent : undefined;
}

export interface Verifier {
  /** Sends one planned case and judges the answer. */
  run(planned: PlannedCase): Promise<CaseResult>;
  /** Requests sent. */
  readonly requests: number;
  /** HTTP answers received (any status). */
  readonly answers: number;
  /** What the target is, as far as the answers so far tell (options.target when given). */
  readonly target: VerifyTarget;
  /** The mock's version (its X-Api-Contract-Mock header) while the target is the package's mock. */
  readonly mockVersion: string | undefined;
}

/** The documented success statuses of an operation: its 2xx response keys (`200`, `2XX`). */
export function documentedSuccess(operation: Operation): string[] {
  return Object.keys(operation.responses).filter((key) => /^2(\d\d|XX)$/i.test(key));
}

const isDocumentedSuccess = (status: number, keys: string[]): boolean =>
  keys.some((key) => key === String(status) || (/^2XX$/i.test(key) && status >= 200 && status <= 299));

const violationCount = (violations: ContractViolation[]): string =>
  `${violations.length} violation${violations.length === 1 ? "" : "s"}`;

const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL_)/;

/** Why a request got no HTTP answer, in one line: connection refused, DNS, TLS, timeout or a dropped connection. */
export function noAnswerReason(error: unknown, url: string, timeoutMs: number): string {
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // keep the URL as given
  }
  if (error instanceof Error && error.name === "TimeoutError")
    return `${host} did not answer within ${timeoutMs / 1000} s`;
  type SystemError = Error & { code?: unknown; reason?: unknown; library?: unknown };
  const cause: SystemError | undefined =
    error instanceof Error && error.cause instanceof Error ? error.cause : error instanceof Error ? error : undefined;
  const code = typeof cause?.code === "string" ? cause.code : "";
  const detail = (cause?.message ?? String(error)).split("\n")[0]!.trim();
  if (code === "ECONNREFUSED")
    return `cannot connect to ${host}: connection refused (ECONNREFUSED); is the service running there?`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `cannot resolve the host of ${host} (${code})`;
  if (TLS_CODE.test(code) || cause?.library !== undefined) {
    const reason = typeof cause?.reason === "string" ? cause.reason : detail;
    const hint =
      code === "ERR_SSL_WRONG_VERSION_NUMBER"
        ? "; does it speak plain http rather than https?"
        : /CERT|UNABLE_TO|SELF_SIGNED|HOSTNAME/.test(code)
          ? "; for a private CA, set NODE_EXTRA_CA_CERTS to its PEM file"
          : "";
    return `TLS with ${host} failed: ${reason} (${code || "TLS"})${hint}`;
  }
  if (cause?.name === "HTTPParserError")
    return `${host} did not answer in HTTP/1.1 (${detail}); an https server behind an http URL?`;
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET")
    return `${host} closed the connection without an answer (${code})`;
  return `no answer from ${host}: ${detail}${code ? ` (${code})` : ""}`;
}

/** A verifier for a target: paces and signs requests, remembers ids created by POST cases. */
export function createVerifier(spec: OpenApiDocument, validator: ContractValidator, options: VerifyOptions): Verifier {
  const operations = listOperations(spec);
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  // The mock is known by its header in every answer; one answer without it makes the target a deployment for good.
  let mockVersion: string | undefined;
  let answerWithoutIdentity = false;
  const target = (): VerifyTarget =>
    options.target ?? (mockVersion !== undefined && !answerWithoutIdentity ? "mock" : "deployment");
  const minIntervalMs = () => options.minIntervalMs ?? (target() === "deployment" ? 1000 : 0);
  const sign = options.apiSecret ? createSigner(options.apiSecret) : undefined;
  const created = new Map<string, string>();
  const timeoutMs = options.timeoutMs ?? 15_000;
  const clock = options.clock ?? realClock;
  let last = -Infinity;
  let requests = 0;
  let answers = 0;

  // The pause runs from the end of the previous exchange, so the gap the target sees between two requests
  // is never shorter, however late one of them arrives. setTimeout may fire a little early: check again.
  const pauseLeft = () => last + minIntervalMs() - clock.now();

  async function send(method: string, url: string, headers: Record<string, string>, body: string | undefined) {
    while (pauseLeft() > 0) await clock.sleep(Math.ceil(pauseLeft()));
    try {
      return await exchange(method, url, headers, body);
    } finally {
      last = clock.now();
    }
  }

  async function exchange(method: string, url: string, headers: Record<string, string>, body: string | undefined) {
    requests++;
    const sent = { ...headers };
    if (sign) {
      const signed = await sign(method, url);
      sent[SIGNING_HEADERS.timestamp] = signed.timestamp;
      sent[SIGNING_HEADERS.signature] = signed.signature;
    }
    const started = clock.now();
    // A redirect is an answer of its own, judged like any other (fetch would follow it unseen).
    const response = await fetch(url, {
      method,
      headers: sent,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    answers++;
    const identity = response.headers.get(MOCK_IDENTITY_HEADER);
    if (identity === null) answerWithoutIdentity = true;
    else mockVersion ??= identity;
    const bodyText = asSent.decode(await response.arrayBuffer());
    return {
      status: response.status,
      headers: response.headers,
      bodyText,
      durationMs: Math.round(clock.now() - started),
    };
  }

  return {
    get requests() {
      return requests;
    },
    get answers() {
      return answers;
    },
    get target() {
      return target();
    },
    get mockVersion() {
      return target() === "mock" ? mockVersion : undefined;
    },
    async run(planned) {
      const { operation } = planned;
      const result: CaseResult = {
        case: planned.name,
        operationId: operation.operationId,
        kind: planned.kind,
        outcome: "failed",
        violations: [],
        warnings: [],
      };
      if (planned.skip) return { ...result, outcome: "skipped", reason: planned.skip };
      const live = target() === "deployment";
      let path = planned.request.path;
      const fromCreator = createdParameter(operations, planned);
      const creator = creatorPath(operations, operation);
      if (fromCreator !== undefined && creator !== undefined && !(fromCreator in (options.params ?? {}))) {
        // The id this run created; on the mock, without one, the example stands.
        const id = created.get(creator);
        if (id !== undefined) path = path.replace(/\/[^/?]*(\?.*)?$/, `/${encodeURIComponent(id)}$1`);
        else if (live)
          return {
            ...result,
            outcome: "skipped",
            reason: `needs the id POST ${creator} creates, which this run did not get`,
          };
      }
      const headers = { ...planned.request.headers };
      if (!planned.withoutKey && operation.security !== "none" && options.apiKey)
        headers[API_KEY_HEADER] = options.apiKey;
      const url = `${baseUrl}${path}`;
      result.request = { method: planned.request.method, url };
      let answer: Awaited<ReturnType<typeof send>>;
      try {
        answer = await send(planned.request.method, url, headers, planned.request.body);
      } catch (error) {
        const noAnswer = noAnswerReason(error, url, timeoutMs);
        return { ...result, noAnswer, reason: `no answer: ${noAnswer}` };
      }
      result.status = answer.status;
      result.durationMs = answer.durationMs;
      const judged = validator.validateResponse(
        {
          method: operation.method,
          path: operation.path,
          status: answer.status,
          headers: answer.headers,
          bodyText: answer.bodyText,
          expectSuccess: planned.kind === "positive",
        },
        { strict: live && planned.kind === "positive" },
      );
      result.violations = judged.violations;
      result.warnings = judged.warnings;
      if (planned.kind === "positive") {
        // Only the documented success status passes: not a 2xx the contract reaches through `default`.
        const success = documentedSuccess(operation);
        if (!isDocumentedSuccess(answer.status, success)) {
          if (!result.violations.some((v) => v.location === "status"))
            result.violations = [
              {
                kind: "unexpected-status",
                location: "status",
                pointer: "",
                message: `${operation.method} ${operation.path}: expected ${success.join(" or ") || "a documented 2xx"}, got ${answer.status}`,
              },
              ...result.violations,
            ];
          const why =
            answer.status === 404
              ? " (not found: is the operation deployed at this base URL?)"
              : redirectHint(answer.status, answer.headers);
          return {
            ...result,
            reason: `answered ${answer.status}, not its documented success ${success.join(" or ") || "(none documented)"}${why}`,
          };
        }
        if (judged.ok && operation.method === "POST") {
          try {
            const parsed = JSON.parse(answer.bodyText) as unknown;
            if (isObject(parsed) && isObject(parsed.data) && typeof parsed.data.id === "string")
              created.set(operation.path, parsed.data.id);
          } catch {
            // judged above
          }
        }
        if (!judged.ok)
          return {
            ...result,
            reason: `answered ${answer.status}, breaking the contract: ${violationCount(judged.violations)}`,
          };
        return { ...result, outcome: "passed" };
      }
      // A negative case: refused with a 4xx that conforms; on the mock, refused for the reason the case is about.
      if (answer.status < 400 || answer.status > 499)
        return {
          ...result,
          reason: `expected a 4xx refusal, got ${answer.status}${redirectHint(answer.status, answer.headers)}`,
        };
      if (answer.status === 404 || answer.status === 405)
        return {
          ...result,
          reason: `answered ${answer.status}: the operation is not there (expected a refusal of this request, not ${answer.status})`,
        };
      if (!live) {
        const expected = planned.withoutKey ? ("401" in operation.responses ? [401] : undefined) : [400, 422];
        if (expected && !expected.includes(answer.status))
          return { ...result, reason: `expected ${expected.join(" or ")}, got ${answer.status}` };
      }
      if (!judged.ok)
        return {
          ...result,
          reason: `the ${answer.status} refusal breaks the contract: ${violationCount(judged.violations)}`,
        };
      return { ...result, outcome: "passed" };
    },
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
  };
  let told: string | undefined;
  const tellTarget = () => {
    const now = `${verifier.target} ${verifier.mockVersion}`;
    if (verifier.answers === 0 || now === told) return;
    told = now;
    options.onTarget?.(verifier.target, verifier.mockVersion);
  };
  const results: CaseResult[] = [];
  const sent: Array<{ planned: PlannedCase; result: CaseResult }> = [];
  let unchecked: string | undefined;
  const total = plans.deployment.length;
  for (let index = 0; index < total; index++) {
    const planned = plans[verifier.target][index]!;
    let result: CaseResult;
    if (unchecked !== undefined && !planned.skip) {
      result = {
        case: planned.name,
        operationId: planned.operation.operationId,
        kind: planned.kind,
        outcome: "skipped",
        reason: "not sent: the target could not be checked",
        violations: [],
        warnings: [],
      };
    } else {
      result = await verifier.run(planned);
      // No HTTP answer to the first request: the target cannot be checked; the other cases are not sent.
      if (result.noAnswer !== undefined && verifier.answers === 0) unchecked = result.noAnswer;
      if (result.status !== undefined) sent.push({ planned, result });
    }
    results.push(result);
    tellTarget();
    options.onCase?.(result, index + 1, total);
  }
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const result of results) counts[result.outcome]++;
  const positivePassed = results.some((r) => r.kind === "positive" && r.outcome === "passed");
  const ok = unchecked === undefined && counts.failed === 0 && positivePassed;
  const cause = ok || unchecked !== undefined ? undefined : commonCause(sent, options);
  return {
    baseUrl: options.baseUrl,
    target: verifier.target,
    ...(verifier.mockVersion !== undefined ? { mockVersion: verifier.mockVersion } : {}),
    startedAt,
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
function commonCause(
  sent: Array<{ planned: PlannedCase; result: CaseResult }>,
  options: VerifyOptions,
): string | undefined {
  // The positive cases that send the key (all but key-less operations), or, without a key, those that need one.
  const keyed = sent.filter(
    ({ planned }) =>
      planned.kind === "positive" &&
      (options.apiKey ? planned.operation.security !== "none" : planned.operation.security === "required"),
  );
  const statuses = [...new Set(keyed.map(({ result }) => result.status))].sort().join("/");
  if (keyed.length > 0 && keyed.every(({ result }) => result.status === 401 || result.status === 403)) {
    return options.apiKey
      ? `the API key was refused: all ${keyed.length} positive cases that send it were answered ${statuses}; check CONTRACT_API_KEY (or --api-key)${options.apiSecret ? " and CONTRACT_API_SECRET" : ", and whether the service wants signed requests (CONTRACT_API_SECRET)"}`
      : `no API key was given, and all ${keyed.length} positive cases that need one were answered ${statuses}; set CONTRACT_API_KEY (or --api-key)`;
  }
  if (sent.length > 1 && sent.every(({ result }) => result.status === 404))
    return `every request was answered 404: is the base URL right (${options.baseUrl})?`;
  return undefined;
}
