// Webhook delivery of the sandbox: the engine calls `notify(apiKey, transactionId, payload)` whenever a
// transaction's state changes (deposits, withdrawals). The payload is serialised once to the bytes sent (kept
// for resend), signed with the account's webhookSecret (src/webhooks.ts signWebhook, Web Crypto), kept in the
// outbox (the state, so it survives snapshot and restore) and delivered off the request's path: the API answer
// never waits for a receiver. A failed attempt is retried on the sandbox clock (choices.ts, "webhooks.retry"):
// with real time an unref'd timer fires due attempts; with clock.start they go out when the clock advances.
// The webhooks of one transaction go out in order ("webhooks.order").
import { signWebhook } from "../../webhooks.js";
import { WEBHOOK_RETRY_DELAYS_MS, WEBHOOK_TIMEOUT_MS } from "../rules.js";
import { type ClockAlarm, createAlarm, MAX_TIMER_MS } from "../clock.js";
import { type Engine, nowOf, type WebhookPayload, type WebhookResend } from "../engine.js";
import { uuid } from "../ids.js";
import { ownEntry } from "../state.js";
import {
  attempt,
  type DeliveryTarget,
  deliveredBy,
  realTimeout,
  type WebhookDelivery,
  type WebhookTimeout,
  webhookHeaders,
} from "./delivery.js";
import { type WebhookAttempt, type WebhookRecord, type WebhookView, webhookView } from "./outbox.js";

export type { WebhookDelivery, WebhookView };

export interface WebhookOptions {
  /** Delays (ms on the sandbox clock) before each retry; after the last, a webhook has failed. [] retries never. */
  retry?: readonly number[];
  /** How long (real ms) an attempt waits for the receiver's answer. */
  timeoutMs?: number;
  /**
   * Starts an attempt's wait of timeoutMs: `startTimeout(ms, expire)` calls `expire` once the wait is over (the
   * attempt then fails, "no answer within <ms> ms") and returns a function that cancels it, which delivery calls
   * once the attempt has its outcome. Default: an unref'd setTimeout, real time. A test gives its own to end the
   * wait when it chooses, with no real time spent. Not in a config file (a function).
   */
  startTimeout?: WebhookTimeout;
  /** The fetch that POSTs webhooks (default: the global fetch). */
  fetch?: typeof fetch;
  /** Receives the webhooks of accounts without a webhookUrl (resolve or answer 2xx: delivered). */
  onWebhook?: (delivery: WebhookDelivery) => unknown;
}

/** What the engine and the sandbox use of webhook delivery (resend: as the engine declares it). */
export interface Webhooks extends WebhookResend {
  /** A transaction's state changed: make its webhook and deliver it (never blocks, never throws). */
  notify(apiKey: string, transactionId: string, payload: WebhookPayload): void;
  /** Every webhook of `apiKey` (absent: of every key), oldest first, once the ones being signed are signed. */
  list(apiKey?: string): Promise<WebhookView[]>;
  /** Resolves once nothing is being signed or sent and no attempt is due on the sandbox clock. */
  settled(): Promise<void>;
  /** Starts the attempts now due (after the clock moved). */
  pump(): void;
  /** An account was put or deleted: its webhooks are no longer the state's. */
  forget(apiKey: string): void;
  /** The state was replaced: resume its pending webhooks. */
  restored(): void;
  /** One key's store was replaced (forget called before): resume its pending webhooks. */
  restoredKey(apiKey: string): void;
}

/** The pending webhooks of one transaction of one key, in order: only the first is ever attempted. */
interface Queue {
  apiKey: string;
  records: WebhookRecord[];
}

const queueKey = (apiKey: string, transactionId: string) => `${apiKey}\n${transactionId}`;

function checkedOptions(options: WebhookOptions) {
  const retry = options.retry ?? WEBHOOK_RETRY_DELAYS_MS;
  if (!retry.every((ms) => Number.isSafeInteger(ms) && ms >= 0))
    throw new RangeError("sandbox webhooks: retry must list whole numbers of milliseconds, 0 or more");
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  // A longer wait than a timer's would end at once (Node and browsers take it as 1 ms).
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMER_MS)
    throw new RangeError(`sandbox webhooks: timeoutMs must be a whole number of milliseconds, 1 to ${MAX_TIMER_MS}`);
  return { retry: [...retry], timeoutMs };
}

/** Delivery of the webhooks of one sandbox (its state's outbox; in memory only what runs now). */
class Sender implements Webhooks {
  private readonly retry: number[];
  private readonly timeoutMs: number;
  private readonly queues = new Map<string, Queue>();
  private readonly inFlight = new Map<WebhookRecord, Promise<void>>();
  private readonly signing = new Set<Promise<void>>();
  /** The signature made last: the next takes effect after it (sign). */
  private lastSigned: Promise<void> = Promise.resolve();
  private readonly alarm: ClockAlarm;

  constructor(
    private readonly engine: Engine,
    private readonly options: WebhookOptions,
  ) {
    ({ retry: this.retry, timeoutMs: this.timeoutMs } = checkedOptions(options));
    this.alarm = createAlarm(engine.clock, () => this.pump());
  }

  notify(apiKey: string, transactionId: string, payload: WebhookPayload): void {
    this.make(apiKey, transactionId, JSON.stringify(payload));
  }

  resend(apiKey: string, transactionIds: readonly string[]): void {
    const records = ownEntry(this.engine.state.accounts, apiKey)?.outbox ?? [];
    for (const transactionId of transactionIds) {
      const latest = records.filter((record) => record.transactionId === transactionId).at(-1);
      if (latest) this.make(apiKey, transactionId, latest.body, latest.id);
    }
  }

  async list(apiKey?: string): Promise<WebhookView[]> {
    await Promise.all(this.signing);
    const { accounts } = this.engine.state;
    const keys = apiKey === undefined ? Object.keys(accounts) : [apiKey];
    const records = keys.flatMap((key) => (ownEntry(accounts, key)?.outbox ?? []).map((record) => ({ key, record })));
    records.sort((a, b) => a.record.createdAt - b.record.createdAt); // stable: a key's order stays
    return records.map(({ key, record }) => webhookView(key, record));
  }

  async settled(): Promise<void> {
    for (;;) {
      this.pump();
      if (this.inFlight.size === 0 && this.signing.size === 0) return;
      await Promise.all([...this.inFlight.values(), ...this.signing]);
    }
  }

  pump(): void {
    const sandboxNow = this.engine.clock.now();
    let earliest: number | undefined;
    for (const [key, queue] of this.queues) {
      const head = queue.records[0]!;
      if (this.inFlight.has(head) || head.signature === undefined || head.nextAttemptAt === undefined) continue;
      // Each key's moments are on its own clock: its offset brings them to the sandbox clock.
      const due = head.nextAttemptAt - this.offsetOf(queue.apiKey);
      if (due <= sandboxNow) this.start(key, queue.apiKey, head);
      else earliest = Math.min(earliest ?? due, due);
    }
    this.alarm.set(earliest); // with real time, the earliest attempt due later
  }

  /** How far `apiKey`'s clock is ahead of the sandbox's (0 once its store is gone). */
  private offsetOf(apiKey: string): number {
    return ownEntry(this.engine.state.accounts, apiKey)?.clockOffsetMs ?? 0;
  }

  /** The moment on `apiKey`'s clock. */
  private nowOf(apiKey: string): number {
    return this.engine.clock.now() + this.offsetOf(apiKey);
  }

  forget(apiKey: string): void {
    // The outbox itself is the store's: a put or a delete replaces or removes it with the rest of the key.
    for (const [key, queue] of this.queues) if (queue.apiKey === apiKey) this.queues.delete(key);
  }

  /** After a restore: an attempt that had no outcome when the state was saved failed; the pending go on. */
  restored(): void {
    this.queues.clear();
    for (const apiKey of Object.keys(this.engine.state.accounts)) this.takeBack(apiKey);
    this.pump();
  }

  /** After one key's store is restored (its queues forgotten before): its pending webhooks go on from its store. */
  restoredKey(apiKey: string): void {
    this.takeBack(apiKey);
    this.pump();
  }

  /** Queues the pending webhooks of `apiKey`'s store (restored); one whose attempt had no outcome failed it. */
  private takeBack(apiKey: string): void {
    // There: restored names the state's keys, restoredKey the key whose store was just set.
    const account = ownEntry(this.engine.state.accounts, apiKey)!;
    for (const record of account.outbox) {
      if (record.status !== "pending") continue;
      const last = record.attempts.at(-1);
      if (last && last.status === undefined && last.error === undefined) {
        last.error = "no outcome: the state was saved while this attempt ran";
        this.retryLater(record, last);
        if (record.status !== "pending") continue;
      }
      this.enqueue(apiKey, record);
      const secret = account.webhookSecret;
      if (record.signature === undefined && secret !== undefined) this.sign(apiKey, record, secret);
    }
  }

  /** Makes a webhook of `body` (the exact text) and sends it when the account can be sent webhooks. */
  private make(apiKey: string, transactionId: string, body: string, resendOf?: string): void {
    const account = ownEntry(this.engine.state.accounts, apiKey);
    if (!account) return;
    const now = nowOf(this.engine, account);
    const id = uuid(this.engine.state.ids);
    const record: WebhookRecord = { id, transactionId, body, status: "pending", attempts: [], createdAt: now };
    if (account.webhookUrl !== undefined) record.url = account.webhookUrl;
    if (resendOf !== undefined) record.resendOf = resendOf;
    account.outbox.push(record);
    const secret = account.webhookSecret;
    if (secret === undefined || (record.url === undefined && !this.options.onWebhook)) {
      record.status = "failed"; // choices.ts, "webhooks.destination": kept, never sent
      return;
    }
    record.nextAttemptAt = now;
    this.enqueue(apiKey, record);
    this.sign(apiKey, record, secret);
  }

  private enqueue(apiKey: string, record: WebhookRecord): void {
    const key = queueKey(apiKey, record.transactionId);
    const queue = this.queues.get(key) ?? { apiKey, records: [] };
    if (queue.records.length === 0) this.queues.set(key, queue);
    queue.records.push(record);
  }

  /**
   * Signs `record` with `secret` (Web Crypto is asynchronous), then lets it go out. Signatures are made at once but
   * take effect in the order the webhooks were made, whichever Web Crypto finishes first, so webhooks made together
   * (one advance settling several withdrawals) go out in that order every time: a replay delivers the same. Where it
   * cannot be signed (no Web Crypto: a browser page outside a secure context), it fails at once, its one attempt
   * saying why.
   */
  private sign(apiKey: string, record: WebhookRecord, secret: string): void {
    const made = signWebhook(record.body, secret).then(
      (signature) => ({ signature }),
      (error: unknown) => ({ error }),
    );
    const signed = this.lastSigned
      .then(() => made)
      .then((outcome) => {
        if ("signature" in outcome) record.signature = outcome.signature;
        else this.unsignable(apiKey, record, outcome.error);
      })
      .finally(() => {
        this.signing.delete(signed);
        this.pump();
      });
    this.lastSigned = signed;
    this.signing.add(signed);
  }

  /** `record` could not be signed: failed, out of its queue, so the webhooks after it go on. */
  private unsignable(apiKey: string, record: WebhookRecord, error: unknown): void {
    record.attempts.push({ at: this.nowOf(apiKey), error: `not signed: ${(error as Error)?.message ?? error}` });
    record.status = "failed";
    delete record.nextAttemptAt;
    for (const [key, queue] of this.queues) {
      const at = queue.records.indexOf(record);
      if (at === -1) continue;
      queue.records.splice(at, 1);
      if (queue.records.length === 0) this.queues.delete(key);
    }
  }

  private start(key: string, apiKey: string, record: WebhookRecord): void {
    const tried: WebhookAttempt = { at: this.nowOf(apiKey) };
    record.attempts.push(tried);
    delete record.nextAttemptAt;
    const signature = record.signature!;
    const { id, transactionId, body } = record;
    const delivery = { id, apiKey, transactionId, body, signature, headers: webhookHeaders(signature) };
    const target: DeliveryTarget = {
      url: record.url,
      fetch: this.options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      onWebhook: this.options.onWebhook,
      timeoutMs: this.timeoutMs,
      startTimeout: this.options.startTimeout ?? realTimeout,
    };
    const running = attempt(target, { ...delivery, attempt: record.attempts.length }).then((outcome) => {
      Object.assign(tried, outcome);
      this.finish(key, record, tried);
    });
    this.inFlight.set(record, running);
  }

  /** The next attempt of `record` is due after the policy's delay; after the last, it has failed. */
  private retryLater(record: WebhookRecord, tried: WebhookAttempt): void {
    const delay = this.retry[record.attempts.length - 1];
    if (delay === undefined) record.status = "failed";
    else record.nextAttemptAt = tried.at + delay;
  }

  /** The attempt of `record` ended: delivered, due again later, or failed after the last retry. */
  private finish(key: string, record: WebhookRecord, tried: WebhookAttempt): void {
    this.inFlight.delete(record);
    const queue = this.queues.get(key);
    if (queue?.records[0] !== record) return; // the account was put or deleted, or the state restored
    if (deliveredBy(tried)) record.status = "delivered";
    else this.retryLater(record, tried);
    if (record.status !== "pending") queue.records.shift();
    if (queue.records.length === 0) this.queues.delete(key);
    this.pump();
  }
}

export const createWebhooks = (engine: Engine, options: WebhookOptions = {}): Webhooks => new Sender(engine, options);
