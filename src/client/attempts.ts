// The attempt loop of one call: the wait a spent rate limit asks for, then attempts until one is not retried. Each
// attempt has its own timeout (merged with the caller's signal), is signed anew when the client has a secret, tells
// the hooks, records the rate-limit state, and reads its body inside the attempt (`finish`) so the timeout and the
// network errors cover it. Whether and how long to wait before the next attempt is retry.ts's pure policy; the
// sleep is a parameter, so the loop runs on a fake clock in tests.
import { ClientError, NetworkError, type RequestInfo, TimeoutError } from "./errors.js";
import type { RateLimitState } from "./rate-limit.js";
import { readRateLimit } from "./rate-limit.js";
import { type Redactor, redactError } from "./redact.js";
import {
  type AttemptOutcome,
  type RetryOptions,
  type RetryOverride,
  rateLimitWait,
  retryDelay,
  shouldRetry,
} from "./retry.js";
import { SIGNING_HEADERS, type Signer } from "./signing.js";
import type { ClientHooks, FetchLike } from "./types.js";

/** What the attempts of all the calls of one client share. */
export interface AttemptEnvironment {
  signer: Signer | undefined;
  redact: Redactor;
  hooks: ClientHooks;
  /** Whether any hook needs the events built for each attempt (skipped otherwise: they cost time on every call). */
  observed: boolean;
  /** The rate-limit state of the last response that carried one: the next call waits when it says 0 remain. */
  rateLimit: RateLimitState | undefined;
  /** Waits `ms`, or rejects with the signal's reason when it aborts first (retry.ts's sleep). */
  sleep(ms: number, signal: AbortSignal | undefined): Promise<void>;
}

/** How the body of an answer that ends the call was read: `streaming` keeps the attempt's timeout armed. */
export interface Finished {
  streaming: boolean;
}

/** One call's attempts. */
export interface AttemptPlan<Answer extends Finished> {
  /** The call's method (upper case), for the retry decision and the signature, whatever a middleware sends. */
  method: string;
  /** The call's facts, for errors and hooks; `url` is set here, redacted. */
  info: RequestInfo;
  timeoutMs: number;
  policy: Readonly<RetryOptions>;
  override: RetryOverride;
  /** The caller's signal: it aborts the attempt under way and the waits. */
  signal: AbortSignal | undefined;
  /** A custom fetch (it gets a Request), else globalThis.fetch. */
  fetch: FetchLike | undefined;
  /** Reads the answer that ends the call, inside its attempt. */
  finish(response: Response, method: string): Promise<Answer>;
}

/** One call's attempts, as sent: the URL and the RequestInit each attempt reuses, and the headers before signing. */
interface Exchange<Answer extends Finished> {
  url: string;
  init: RequestInit;
  unsignedHeaders: HeadersInit | undefined;
  plan: AttemptPlan<Answer>;
  environment: AttemptEnvironment;
}

/** Calls a hook; a hook that throws does not break the request. */
export function notify<K extends keyof ClientHooks>(
  hooks: ClientHooks,
  name: K,
  ...args: Parameters<NonNullable<ClientHooks[K]>>
): void {
  try {
    (hooks[name] as ((...a: unknown[]) => void) | undefined)?.(...args);
  } catch {
    // Observers must not break requests.
  }
}

/**
 * Sends `init` to `url` until an attempt is not retried, and returns what `plan.finish` read of its answer; throws
 * the TimeoutError, NetworkError or other ClientError of the last attempt, or the reason of the caller's signal.
 * `init` is the call's own: each attempt sets its signal (and, signing, its headers) on it.
 */
export async function sendWithRetries<Answer extends Finished>(
  url: string,
  init: RequestInit,
  plan: AttemptPlan<Answer>,
  environment: AttemptEnvironment,
): Promise<Answer> {
  const { info, policy, signal } = plan;
  info.url = environment.redact(url);
  const exchange = { url, init, unsignedHeaders: init.headers, plan, environment };
  const { rateLimit } = environment;
  const wait = rateLimitWait(rateLimit, policy);
  if (wait > 0) {
    notify(environment.hooks, "onRateLimitWait", { ...info, attempt: 1, delayMs: wait, rateLimit: rateLimit! });
    await environment.sleep(wait, signal);
  }
  for (let attempt = 1; ; attempt++) {
    const ended = await runAttempt(attempt, exchange);
    if (!("outcome" in ended)) return ended.answer;
    const { outcome } = ended;
    const delayMs = retryDelay(attempt, outcome, policy);
    const status = outcome.kind === "status" ? outcome.status : undefined;
    notify(environment.hooks, "onRetry", { ...info, attempt, reason: outcome.kind, status, delayMs });
    await environment.sleep(delayMs, signal);
  }
}

/** One attempt: its answer when it ends the call, or how it ended when it is retried. */
async function runAttempt<Answer extends Finished>(
  attempt: number,
  exchange: Exchange<Answer>,
): Promise<{ answer: Answer } | { outcome: AttemptOutcome }> {
  const { init, plan, environment } = exchange;
  const { info, timeoutMs, signal, override, policy, method } = plan;
  const controller = new AbortController();
  let timedOut: TimeoutError | undefined;
  let streaming = false;
  const onTimeout = () => {
    timedOut = new TimeoutError(info, timeoutMs, attempt);
    controller.abort(timedOut);
  };
  const timer = timeoutMs === Infinity ? undefined : setTimeout(onTimeout, timeoutMs);
  try {
    init.signal = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
    const response = await fetchOnce(attempt, exchange);
    const outcome: AttemptOutcome = { kind: "status", status: response.status, headers: response.headers };
    if (shouldRetry(attempt, method, override, outcome, policy)) {
      controller.abort(); // a retried status: its body is not read
      return { outcome };
    }
    const answer = await plan.finish(response, init.method!);
    // The caller reads the stream: the timeout stays armed (without keeping the process alive) until it fires.
    streaming = answer.streaming;
    if (streaming) (timer as { unref?: () => void } | undefined)?.unref?.();
    return { answer };
  } catch (error) {
    controller.abort(); // a refused body (too large, not JSON) is not read to its end
    const reason =
      timedOut ??
      (signal?.aborted || error instanceof ClientError
        ? error
        : new NetworkError(info, attempt, redactError(error, environment.redact)));
    const outcome: AttemptOutcome = { kind: timedOut ? "timeout" : "network" };
    const retried = reason instanceof TimeoutError || reason instanceof NetworkError;
    if (!retried || !shouldRetry(attempt, method, override, outcome, policy)) throw reason;
    return { outcome };
  } finally {
    if (!streaming) clearTimeout(timer);
  }
}

/** Signs (with a secret), sends, tells the hooks and records the rate-limit state: the response's headers. */
async function fetchOnce(attempt: number, exchange: Exchange<Finished>): Promise<Response> {
  const { url, init, plan, environment } = exchange;
  const { hooks, observed } = environment;
  if (environment.signer) init.headers = await signedHeaders(environment.signer, url, exchange);
  if (observed) notify(hooks, "onRequest", { ...plan.info, attempt });
  const started = observed ? performance.now() : 0;
  // fetch(url, init) costs less than fetch(request); a custom fetch gets a Request, as documented.
  const response = await (plan.fetch ? plan.fetch(new Request(url, init)) : fetch(url, init));
  const { status, headers } = response;
  const event = observed ? { ...plan.info, attempt, status, durationMs: performance.now() - started } : undefined;
  if (event) notify(hooks, "onResponse", event);
  const state = readRateLimit(headers);
  if (state) {
    environment.rateLimit = state;
    if (event) notify(hooks, "onRateLimit", state, event);
  }
  return response;
}

/** The call's headers with this attempt's signature: every attempt is signed anew (fresh timestamp). */
async function signedHeaders(signer: Signer, url: string, exchange: Exchange<Finished>): Promise<Headers> {
  const signed = await signer(exchange.plan.method, url);
  const headers = new Headers(exchange.unsignedHeaders);
  for (const [name, value] of Object.entries(signed)) headers.set(SIGNING_HEADERS[name as keyof typeof signed], value);
  return headers;
}
