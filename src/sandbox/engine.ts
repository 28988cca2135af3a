// What every operation of the sandbox works with: the state (replaced whole by a restore, so always read through
// `engine.state`), the clock, the answer templates, the contract, and the small helpers that write an answer or a
// refusal as the request pipeline (src/pipeline/pipeline.ts) takes them. The operations themselves are in
// operations/, one file per resource.
import { documentedAnswer } from "../pipeline/answers.js";
import type { SourceAnswer, SourceRequest } from "../pipeline/pipeline.js";
import type { OpenApiDocument, Operation } from "../openapi/document.js";
import { API_KEY_HEADER } from "../../generated/client-meta.js";
import type { components } from "../../generated/schema.js";
import { PAGE_DEFAULTS, type QuoteSideReading, REFUSAL_STATUS, RULE_FORMS } from "./rules.js";
import type { ControlledClock } from "./clock.js";
import type { AccountRecord, SandboxStateData } from "./state.js";
import { shaped, type Templates } from "./templates.js";
import { refuse } from "./refusal.js";

/** A webhook's body: the contract's flat payload (type, currency, amount, status, reference, ...). */
export type WebhookPayload = components["schemas"]["WebhookPayload"];

/**
 * The seam with webhook delivery: called whenever a transaction's state changes, with the payload to send to the
 * account's webhook receiver. It never blocks the answer.
 */
export type Notify = (apiKey: string, transactionId: string, payload: WebhookPayload) => void;

/** What the resend operations use of webhook delivery (webhooks/index.ts, Webhooks, has it). */
export interface WebhookResend {
  /** Sends the latest webhook of each transaction again, byte for byte (ids already checked as the caller's). */
  resend(apiKey: string, transactionIds: readonly string[]): void;
}

/** How withdrawals settle on the sandbox clock (choices.ts, "withdrawals.settlement"). */
export interface WithdrawalSettings {
  /** How long after its request a withdrawal settles; null: only when a test settles it. */
  settleAfterMs: number | null;
  outcome: "SUCCESSFUL" | "FAILED";
}

export interface Engine {
  readonly spec: OpenApiDocument;
  /** The state now (a restore replaces it). */
  readonly state: SandboxStateData;
  readonly clock: ControlledClock;
  readonly templates: Templates;
  /** The code every fiat rate is against (USDT). */
  readonly baseCode: string;
  readonly withdrawals: WithdrawalSettings;
  /** How Create Quote reads a side (choices.ts, "quotes.sides"). */
  readonly quotes: { sideReading: QuoteSideReading };
  /** Where state changes of deposits and withdrawals go (webhooks). */
  notify: Notify;
  /** Webhook delivery beyond notify: the resend operations send a transaction's latest webhook again. */
  readonly webhooks: WebhookResend;
}

/** One request as an operation sees it: the engine, the request, and the caller's account if it has a key. */
export interface Call {
  engine: Engine;
  request: SourceRequest;
  account: AccountRecord | undefined;
}

export type Handler = (call: Call) => SourceAnswer;

/** An operation module (operations/): what it answers, its refusals, the register entries it applies. */
export interface OperationModule {
  /** Its handlers, by the operationId each answers. */
  handlers: Record<string, Handler>;
  /** The refusals it answers with (keys of REFUSAL_STATUS, rules.ts). */
  refusals: readonly (keyof typeof REFUSAL_STATUS)[];
  /** The ids of the register entries (choices.ts) it applies. */
  choices: readonly string[];
}

/** A call of a caller with an account. */
export type AccountCall = Call & { account: AccountRecord };

/**
 * The moment on `account`'s clock: the sandbox's, plus the key's own advances (choices.ts, "clock.per-key"). Every
 * moment a store records, and every moment its rules compare with, is on this clock.
 */
export const nowOf = (engine: Pick<Engine, "clock">, account: AccountRecord): number =>
  engine.clock.now() + account.clockOffsetMs;

/** The value of a single-valued header or query parameter. */
export function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The API key of a request, if it carries one. An empty value is no key (choices.ts, "accounts.keyless"): it named
 * an account `""` that every caller without a key shared, where the mock answers 401.
 */
export const apiKeyOf = (headers: SourceRequest["headers"]): string | undefined =>
  single(headers[API_KEY_HEADER]) || undefined;

const successHeaders = new WeakMap<Operation, Record<string, string>>();

/** The documented headers of `operation`'s success answer (content type, rate-limit headers). */
function headersOf(spec: OpenApiDocument, operation: Operation): Record<string, string> {
  let headers = successHeaders.get(operation);
  if (!headers) {
    // Frozen: shared by every answer of the operation, and the pipeline makes its safe form once.
    headers = Object.freeze({
      ...(documentedAnswer(spec, operation, 200)?.headers ?? { "content-type": "application/json" }),
    });
    successHeaders.set(operation, headers);
  }
  return headers;
}

/** A 200 answer: the envelope of `data` (and `meta`), with the documented message and headers. */
export function answered(call: Call, data: unknown, meta?: unknown): SourceAnswer {
  const body: Record<string, unknown> = { message: call.engine.templates.message, data };
  if (meta !== undefined) body.meta = meta;
  return { kind: "answer", status: 200, headers: headersOf(call.engine.spec, call.request.operation), body };
}

/** An operation on the caller's account: refused when the request has no key (choices.ts, "accounts.keyless"). */
export function withAccount(handler: (call: AccountCall) => SourceAnswer): Handler {
  return (call) => {
    if (!call.account)
      return refuse(
        REFUSAL_STATUS.keylessAccountRead,
        `the sandbox keeps one account per API key: ${call.request.operation.operationId} ` +
          `needs the ${API_KEY_HEADER} header, not empty`,
      );
    return handler(call as AccountCall);
  };
}

interface Page {
  page: number;
  pageSize: number;
}

/** The page a list request asks for; a page or size below 1 is refused (choices.ts, "lists.pagination"). */
export function pageOf(request: SourceRequest): Page {
  const page = Number(single(request.query.page) ?? PAGE_DEFAULTS.page);
  const pageSize = Number(single(request.query.pageSize) ?? PAGE_DEFAULTS.pageSize);
  if (page < 1 || pageSize < 1) return refuse(REFUSAL_STATUS.invalidPage, "page and pageSize must be 1 or more");
  return { page, pageSize };
}

/** The items of `page` in the register's order (choices.ts, "lists.pagination"; `items` is oldest first). */
export function pageItems<T>(items: readonly T[], { page, pageSize }: Page): T[] {
  const ordered = RULE_FORMS.listOrder === "newest-first" ? [...items].reverse() : items;
  return ordered.slice((page - 1) * pageSize, page * pageSize);
}

/** Pagination meta, shape B, of a page of `total` items (in the documented meta's shape). */
export function pageMeta(call: Call, { page, pageSize }: Page, total: number): unknown {
  const count = Math.max(0, Math.min(pageSize, total - (page - 1) * pageSize));
  const values = { perPage: pageSize, currentPage: page, totalPages: Math.ceil(total / pageSize), count, total };
  return shaped(call.engine.templates.pageMeta, values);
}
