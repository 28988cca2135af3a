// What a flow of verify works with: calls to the target (each answer checked against the contract: a violation, or
// an answer the flow cannot go on from, ends the flow as failed), the package's sandbox's control API when the
// target is that sandbox, and the verdicts it records on the register's rules: confirmed, or contradicted with the
// request and answer that show it.
import type { ContractValidator } from "../../contract/validator.js";
import type { OpenApiDocument } from "../../openapi/document.js";
import type { SandboxControlClient } from "../../sandbox/control-client.js";
import type { Answer } from "../send.js";
import type { VerifyTarget } from "../types.js";

/** An answer as a flow reads it: its status, its parsed body, and the exchange in one line for evidence. */
export interface FlowAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the contract's shapes, checked before a flow reads them
  body: any;
  headers: Headers;
  /** "POST /trades/quote/q_1 → 200 {…}" (the body cut at 300 characters). */
  exchange: string;
}

/**
 * The register's entry every call of every flow checks: an answer that breaks the contract is one the sandbox
 * never sends (it answers 500 in its place).
 */
export const ANSWERS_CHECKED = "answers.checked";

/** A flow that cannot go on: the step's answer broke the contract or was not what the step needs. */
export class FlowFailure extends Error {}

/** What a flow records of one rule of the register (its id). */
export type RuleVerdict =
  | { verdict: "confirmed" }
  | { verdict: "contradicted"; evidence: string }
  | { verdict: "untested"; reason: string };

/**
 * How one request of a flow is sent beyond its key: `headers` sent as given (a flow's own signature: the run's
 * secret does not sign it), `unpaced` without waiting for a spent limit (a flow that wants to see the 429).
 */
export interface FlowRequestOptions {
  headers?: Record<string, string>;
  unpaced?: boolean;
}

export interface FlowContext {
  /** The contract verified (its examples and x-rate-limits). */
  document: OpenApiDocument;
  /** The path of the contract's operation `operationId` (templated), if it has one. */
  pathOf(operationId: string): string | undefined;
  target: VerifyTarget;
  /** The target's API base URL as given (its origin and base path), for requests a flow sends past `call`. */
  baseUrl: string;
  /** The operationIds of the contract verified. */
  operationIds: ReadonlySet<string>;
  allowSideEffects: boolean;
  /**
   * Sends one API request with the run's key (or `apiKey`; null: without one); the answer checked against the
   * contract (else FlowFailure).
   */
  call(
    method: "GET" | "POST",
    path: string,
    body?: unknown,
    apiKey?: string | null,
    options?: FlowRequestOptions,
  ): Promise<FlowAnswer>;
  /** The control API, on the package's sandbox only. */
  control: SandboxControlClient | undefined;
  /** Another account's key on the target (VerifyOptions.secondApiKey), for the isolation flow on a deployment. */
  secondKey: string | undefined;
  /** Waits `ms` on the run's clock (VerifyOptions.clock). */
  sleep(ms: number): Promise<void>;
  /** How long the run has waited so far for spent rate limits (on the sandbox, its clock moved by as much). */
  limitWaitMs(): number;
  /** Where the webhook flow's receiver listens (port 0: a free one). */
  webhookReceiver: { host: string; port: number };
  /** The secret a deployment signs the run's key's webhooks with (VerifyOptions.webhookSecret). */
  webhookSecret: string | undefined;
  /** Records that the target behaved as the rule `choice` says (a contradiction already recorded stands). */
  confirm(choice: string): void;
  /** Records that the target did not behave as `choice` says, with the exchange that shows it. */
  contradict(choice: string, evidence: string): void;
  /** `choice` confirmed when `holds`, else contradicted with `evidence`. */
  check(choice: string, holds: boolean, evidence: string): void;
  /** Records why the flow, which checks `choice`, could not on this target (unless another flow gave a verdict). */
  untested(choice: string, reason: string): void;
}

/** Sends one request of a flow (with the run's key, `apiKey`, or none: null) and answers it as sent (any status). */
export type FlowSend = (
  method: string,
  path: string,
  body: unknown,
  apiKey?: string | null,
  options?: FlowRequestOptions,
) => Promise<Answer>;

/** The one line that shows an exchange: the request, the status and the start of the body. */
function exchangeLine(method: string, path: string, answer: Answer): string {
  const text = answer.bodyText.length > 300 ? `${answer.bodyText.slice(0, 300)}…` : answer.bodyText;
  return `${method} ${path} → ${answer.status} ${text}`;
}

/** A flow's context over `send`, recording its verdicts into `verdicts` (shared by the run's flows). */
/** What a run gives its flows' context, beside the sending and the verdicts (run.ts fills it). */
export type FlowRunSettings = Pick<
  FlowContext,
  "target" | "baseUrl" | "allowSideEffects" | "control" | "secondKey" | "webhookReceiver" | "webhookSecret" | "sleep"
> &
  Pick<FlowContext, "limitWaitMs">;

export function createFlowContext(
  options: FlowRunSettings,
  send: FlowSend,
  validator: ContractValidator,
  verdicts: Map<string, RuleVerdict>,
): FlowContext {
  const contradict = (choice: string, evidence: string) => verdicts.set(choice, { verdict: "contradicted", evidence });
  const confirm = (choice: string) => {
    if (verdicts.get(choice)?.verdict !== "contradicted") verdicts.set(choice, { verdict: "confirmed" });
  };
  const untested = (choice: string, reason: string) => {
    if (!verdicts.has(choice)) verdicts.set(choice, { verdict: "untested", reason });
  };
  return {
    ...options,
    document: validator.document,
    operationIds: new Set(validator.operations.flatMap((operation) => operation.operationId ?? [])),
    pathOf: (operationId) => validator.operations.find((operation) => operation.operationId === operationId)?.path,
    async call(method, path, body, apiKey, requestOptions) {
      const answer = await send(method, path, body, apiKey, requestOptions);
      const exchange = exchangeLine(method, path, answer);
      const { headers, bodyText, status } = answer;
      const checked = validator.validateResponse({ method, path, status, headers, bodyText });
      if (!checked.ok) {
        const [first] = checked.violations;
        const why = `${exchange}: breaks the contract (${first?.pointer ?? ""} ${first?.message ?? ""})`;
        // The sandbox would have answered 500 rather than send it (answers.checked).
        contradict(ANSWERS_CHECKED, why);
        throw new FlowFailure(why);
      }
      confirm(ANSWERS_CHECKED);
      return { status, headers, body: bodyText === "" ? undefined : (JSON.parse(bodyText) as unknown), exchange };
    },
    confirm,
    contradict,
    untested,
    check: (choice, holds, evidence) => (holds ? confirm(choice) : contradict(choice, evidence)),
  };
}

/** `answer`'s status when it is `status`; else the flow cannot go on. */
export function expectStatus(answer: FlowAnswer, status: number, why: string): FlowAnswer {
  if (answer.status !== status) throw new FlowFailure(`${answer.exchange}: expected ${status} ${why}`);
  return answer;
}
