// One delivery attempt of one webhook: a POST of its exact bytes with `Content-Type: application/json` and
// `x-obiex-signature` to the account's webhook URL (the global fetch, or the one a test gives), or a call of
// the in-process callback, bounded by the delivery timeout (real time by default: the receiver is real; the wait
// starts through the target's `startTimeout`, so a test can end it itself). Redirects are not followed: only the
// URL the account was configured with is ever called. The outcome is what the outbox records: the receiver's
// status, or why there was none. Never throws.
import { ON_WEBHOOK_DEFAULT_STATUS } from "../rules.js";
import { WEBHOOK_SIGNATURE_HEADER } from "../../../generated/client-meta.js";

/** A webhook as the in-process callback receives it. */
export interface WebhookDelivery {
  id: string;
  apiKey: string;
  transactionId: string;
  /** The exact text a receiver gets as the body. */
  body: string;
  signature: string;
  /** The headers a receiver gets (content-type, x-obiex-signature). */
  headers: Record<string, string>;
  /** 1 for the first attempt, 2 for the first retry, ... */
  attempt: number;
}

export interface DeliveryTarget {
  url?: string;
  fetch: typeof fetch;
  /** Resolves or answers a 2xx status: delivered; throws or answers another status: failed. */
  onWebhook?: (delivery: WebhookDelivery) => unknown;
  timeoutMs: number;
  /** Starts the attempt's wait of `timeoutMs` for its answer (`realTimeout`, or the one a test gives). */
  startTimeout: WebhookTimeout;
}

/** Calls `expire` once `ms` have passed; what it returns cancels the wait (the answer came first). */
export type WebhookTimeout = (ms: number, expire: () => void) => () => void;

interface AttemptOutcome {
  status?: number;
  error?: string;
}

export const deliveredBy = (outcome: AttemptOutcome): boolean =>
  outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;

/** Why a fetch or a callback failed, in a line (the cause's code when there is one: ECONNREFUSED). */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  const detail = typeof cause?.code === "string" ? cause.code : cause?.message;
  const message = error instanceof Error ? error.message : String(error);
  return detail ? `${message} (${String(detail)})` : message;
}

/** A wait in real time on an unref'd timer (Node keeps no process alive for a webhook; a browser's is a number). */
export const realTimeout: WebhookTimeout = (ms, expire) => {
  const timer = setTimeout(expire, ms);
  (timer as { unref?: () => void }).unref?.();
  return () => clearTimeout(timer);
};

async function post(url: string, delivery: WebhookDelivery, target: DeliveryTarget): Promise<AttemptOutcome> {
  const controller = new AbortController();
  const cancel = target.startTimeout(target.timeoutMs, () => controller.abort());
  try {
    const init = { method: "POST", headers: delivery.headers, body: delivery.body, redirect: "manual" } as const;
    const response = await target.fetch(url, { ...init, signal: controller.signal });
    await response.body?.cancel().catch(() => undefined);
    return { status: response.status };
  } catch (error) {
    if (controller.signal.aborted) return { error: `no answer within ${target.timeoutMs} ms` };
    return { error: reasonOf(error) };
  } finally {
    cancel();
  }
}

async function call(
  onWebhook: NonNullable<DeliveryTarget["onWebhook"]>,
  delivery: WebhookDelivery,
  target: DeliveryTarget,
) {
  const ms = target.timeoutMs;
  let cancel = () => {};
  const timeout = new Promise<AttemptOutcome>((resolve) => {
    cancel = target.startTimeout(ms, () => resolve({ error: `no answer within ${ms} ms` }));
  });
  const answered = (async (): Promise<AttemptOutcome> => {
    try {
      const result = await onWebhook(structuredClone(delivery));
      return { status: typeof result === "number" ? result : ON_WEBHOOK_DEFAULT_STATUS };
    } catch (error) {
      return { error: reasonOf(error) };
    }
  })();
  try {
    return await Promise.race([answered, timeout]);
  } finally {
    cancel();
  }
}

/** One attempt to `target`: the receiver's status or why there was none. */
export function attempt(target: DeliveryTarget, delivery: WebhookDelivery): Promise<AttemptOutcome> {
  if (target.url !== undefined) return post(target.url, delivery, target);
  if (target.onWebhook) return call(target.onWebhook, delivery, target);
  return Promise.resolve({ error: "the account has no webhookUrl" });
}

/** The headers of a webhook request. */
export const webhookHeaders = (signature: string): Record<string, string> => ({
  "content-type": "application/json",
  [WEBHOOK_SIGNATURE_HEADER]: signature,
});
