// The outbox as the state holds it: every webhook of each API key with the exact bytes it is sent as, their
// signature, where it goes and each attempt, so a test can assert what its receiver was sent and a snapshot
// carries the pending deliveries with it. Also how the outbox is read (GET /_sandbox/webhooks). What a restore
// accepts of it is the shape the sandbox writes, nothing else: the control document's SandboxWebhookRecord.
import type {
  SandboxWebhook,
  SandboxWebhookAttemptRecord,
  SandboxWebhookRecord,
} from "../../../generated/sandbox-control.js";
import { iso } from "../clock.js";

/** One delivery attempt: when it started (sandbox clock), then the receiver's status or why there was none. */
export type WebhookAttempt = SandboxWebhookAttemptRecord;

/** A webhook with the exact text it is sent as (the control document's SandboxWebhookRecord). */
export type WebhookRecord = SandboxWebhookRecord;

/** A webhook as the outbox lists it: the control document's, with when it was made and what it resends. */
export type WebhookView = SandboxWebhook & { createdAt: string; resendOf?: string };

/** A webhook as the outbox listing answers it (times as ISO 8601 on the sandbox clock). */
export function webhookView(apiKey: string, record: WebhookRecord): WebhookView {
  const view: WebhookView = {
    id: record.id,
    apiKey,
    transactionId: record.transactionId,
    url: record.url ?? null,
    body: record.body,
    signature: record.signature ?? null,
    status: record.status,
    attempts: record.attempts.map(({ at, ...outcome }) => ({ at: iso(at), ...outcome })),
    createdAt: iso(record.createdAt),
  };
  if (record.nextAttemptAt !== undefined) view.nextAttemptAt = iso(record.nextAttemptAt);
  if (record.resendOf !== undefined) view.resendOf = record.resendOf;
  return view;
}

/** What is wrong with an account's webhook settings, or undefined (only http(s) URLs; a URL needs a secret). */
export function webhookSettingsProblem(settings: { webhookUrl?: unknown; webhookSecret?: unknown }) {
  const { webhookUrl, webhookSecret } = settings;
  if (webhookSecret !== undefined && (typeof webhookSecret !== "string" || webhookSecret === ""))
    return "webhookSecret must be a non-empty string";
  if (webhookUrl === undefined) return undefined;
  const url = typeof webhookUrl === "string" && URL.canParse(webhookUrl) ? new URL(webhookUrl) : undefined;
  if (url?.protocol !== "http:" && url?.protocol !== "https:") return "webhookUrl must be an http or https URL";
  return webhookSecret === undefined ? "a webhookUrl needs a webhookSecret to sign the webhooks with" : undefined;
}
