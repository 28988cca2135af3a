// Contract verification of a running deployment (or of the mock): sends the cases of cases.ts and judges
// each answer with the contract validator. A positive case passes only with a 2xx that conforms; a
// negative case only with a refusal (4xx) that conforms. On a live target it is safe by default:
// operations that change state run only when allowed, an operation with its own quota is called once,
// path parameters need real values (their examples name nothing that exists), and requests are paced.
import { API_KEY_HEADER, SIGNING_HEADERS } from "../../generated/client-meta.js";
import { createSigner } from "../client/signing.js";
import type { ContractViolation, ContractWarning } from "../contract/types.js";
import type { ContractValidator } from "../contract/validator.js";
import { isObject, listOperations, type OpenApiDocument, type Operation } from "../openapi/document.js";
import { hasOwnQuota, negativeCases, positiveCases, type VerifyCase } from "./cases.js";

export interface VerifyOptions {
  /** Base URL ending in the contract's base path, e.g. https://staging.example.com/v1. */
  baseUrl: string;
  apiKey?: string;
  /** Signs every request (x-api-timestamp, x-api-signature) as a real client of the service does. */
  apiSecret?: string;
  /** `live` (default): a real deployment, with the safety rules above. `mock`: this package's mock (exact refusal statuses, examples as path values). */
  target?: "live" | "mock";
  /** Run operations that change state (POST other than one with its own quota) and invalid bodies of such operations. */
  allowSideEffects?: boolean;
  /** Values for path and query parameters, by name (e.g. { id: "cus-123" }). */
  params?: Record<string, string>;
  /** Minimum time between two requests. Default 1000 ms on a live target (60/min, far under 200/min), 0 on the mock. */
  minIntervalMs?: number;
  /** Per-request time limit. Default 15 s. */
  timeoutMs?: number;
  /** Called after each case. */
  onCase?: (result: CaseResult) => void;
}

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
  violations: ContractViolation[];
  warnings: ContractWarning[];
}

export interface VerifyReport {
  baseUrl: string;
  target: "live" | "mock";
  startedAt: string;
  finishedAt: string;
  requests: number;
  counts: { passed: number; failed: number; skipped: number };
  /** True when nothing failed and at least one positive case passed. */
  ok: boolean;
  results: CaseResult[];
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface PlannedCase extends VerifyCase {
  /** Why the case does not run against this target, or undefined. */
  skip: string | undefined;
}

/** The cases for a target, each with the reason it is skipped, if it is. */
export function planVerification(spec: OpenApiDocument, options: Pick<VerifyOptions, "target" | "allowSideEffects" | "params">): PlannedCase[] {
  const operations = listOperations(spec);
  const live = (options.target ?? "live") === "live";
  const params = options.params ?? {};
  const skipReason = (c: VerifyCase): string | undefined => {
    if (!live) return undefined;
    // The last path parameter of a positive case can come from what a POST of the parent path creates in this run.
    const fromCreator = c.kind === "positive" && creatorPath(operations, c.operation) !== undefined ? c.pathParameters.at(-1) : undefined;
    const missing = c.pathParameters.filter((name) => !(name in params) && name !== fromCreator);
    if (missing.length) {
      return `needs a real value for ${missing.map((n) => `{${n}}`).join(", ")} (the spec's example names nothing on a live service): pass ${missing.map((n) => `--param ${n}=…`).join(" ")}`;
    }
    if (options.allowSideEffects) return undefined;
    if (hasOwnQuota(c.operation) && c.kind === "negative")
      return "each call may count against this operation's own quota; only one call is spent (allow side effects to run it)";
    if (!SAFE_METHODS.has(c.operation.method) && !hasOwnQuota(c.operation))
      return `${c.operation.method} changes state on the live service (allow side effects to run it)`;
    return undefined;
  };
  return [...positiveCases(spec, operations, params), ...negativeCases(spec, operations, params)].map((c) => ({ ...c, skip: skipReason(c) }));
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
  readonly requests: number;
}

/** A verifier for a target: paces and signs requests, remembers ids created by POST cases. */
export function createVerifier(spec: OpenApiDocument, validator: ContractValidator, options: VerifyOptions): Verifier {
  const operations = listOperations(spec);
  const target = options.target ?? "live";
  const live = target === "live";
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const minIntervalMs = options.minIntervalMs ?? (live ? 1000 : 0);
  const sign = options.apiSecret ? createSigner(options.apiSecret) : undefined;
  const created = new Map<string, string>();
  let last = 0;
  let requests = 0;

  async function send(method: string, url: string, headers: Record<string, string>, body: string | undefined) {
    const wait = last + minIntervalMs - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    last = Date.now();
    requests++;
    const sent = { ...headers };
    if (sign) {
      const signed = await sign(method, url);
      sent[SIGNING_HEADERS.timestamp] = signed.timestamp;
      sent[SIGNING_HEADERS.signature] = signed.signature;
    }
    const started = performance.now();
    const response = await fetch(url, { method, headers: sent, body, signal: AbortSignal.timeout(options.timeoutMs ?? 15_000) });
    const bodyText = await response.text();
    return { status: response.status, headers: response.headers, bodyText, durationMs: Math.round(performance.now() - started) };
  }

  return {
    get requests() {
      return requests;
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
      let path = planned.request.path;
      const lastParameter = planned.pathParameters.at(-1);
      const creator = creatorPath(operations, operation);
      if (live && planned.kind === "positive" && creator !== undefined && lastParameter !== undefined && !(lastParameter in (options.params ?? {}))) {
        const id = created.get(creator);
        if (id === undefined) return { ...result, outcome: "skipped", reason: `needs the id POST ${creator} creates, which this run did not get` };
        path = path.replace(/\/[^/?]*(\?.*)?$/, `/${encodeURIComponent(id)}$1`);
      }
      const headers = { ...planned.request.headers };
      if (!planned.withoutKey && operation.security !== "none" && options.apiKey) headers[API_KEY_HEADER] = options.apiKey;
      const url = `${baseUrl}${path}`;
      result.request = { method: planned.request.method, url };
      let answer: Awaited<ReturnType<typeof send>>;
      try {
        answer = await send(planned.request.method, url, headers, planned.request.body);
      } catch (error) {
        return {
          ...result,
          reason: `no answer: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`,
        };
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
        if (judged.ok && operation.method === "POST") {
          try {
            const parsed = JSON.parse(answer.bodyText) as unknown;
            if (isObject(parsed) && isObject(parsed.data) && typeof parsed.data.id === "string") created.set(operation.path, parsed.data.id);
          } catch {
            // judged above
          }
        }
        if (!judged.ok) return { ...result, reason: `answered ${answer.status}: ${judged.violations.map((v) => v.message).join("; ")}` };
        return { ...result, outcome: "passed" };
      }
      // A negative case: refused with a 4xx that conforms; on the mock, refused for the reason the case is about.
      if (answer.status < 400 || answer.status > 499) return { ...result, reason: `expected a 4xx refusal, got ${answer.status}` };
      if (!live) {
        const expected = planned.withoutKey ? ("401" in operation.responses ? [401] : undefined) : [400, 422];
        if (expected && !expected.includes(answer.status)) return { ...result, reason: `expected ${expected.join(" or ")}, got ${answer.status}` };
      }
      if (!judged.ok) return { ...result, reason: `the refusal breaks the contract: ${judged.violations.map((v) => v.message).join("; ")}` };
      return { ...result, outcome: "passed" };
    },
  };
}

/** Plans, sends and judges every case; the report's `ok` says whether the target meets the contract. */
export async function verify(spec: OpenApiDocument, validator: ContractValidator, options: VerifyOptions): Promise<VerifyReport> {
  const startedAt = new Date().toISOString();
  const target = options.target ?? "live";
  const verifier = createVerifier(spec, validator, options);
  const results: CaseResult[] = [];
  for (const planned of planVerification(spec, options)) {
    const result = await verifier.run(planned);
    results.push(result);
    options.onCase?.(result);
  }
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const result of results) counts[result.outcome]++;
  const positivePassed = results.some((r) => r.kind === "positive" && r.outcome === "passed");
  return {
    baseUrl: options.baseUrl,
    target,
    startedAt,
    finishedAt: new Date().toISOString(),
    requests: verifier.requests,
    counts,
    ok: counts.failed === 0 && positivePassed,
    results,
  };
}
