// The attempt loop (src/client/attempts.ts) alone: no client, no socket. A scripted fetch answers each attempt, the
// sleep between attempts is a recording fake, and timeouts run on the fake clock.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type AttemptEnvironment,
  type AttemptPlan,
  type Finished,
  notify,
  sendWithRetries,
} from "../../src/client/attempts.js";
import { createRedactor } from "../../src/client/redact.js";
import { DEFAULT_RETRY } from "../../src/client/retry.js";
import { InvalidResponseError, NetworkError, type RequestInfo, TimeoutError } from "../../src/index.js";
import { API_KEY_HEADER, BASE_PATH, RATE_LIMIT_HEADERS, SIGNING_HEADERS } from "../support/spec.js";
import { track, until, useFakeClock } from "./support/clock.js";

afterEach(() => {
  vi.useRealTimers();
});

const URL_SENT = `https://api.example.com${BASE_PATH}/currencies/fiat-rates?key=k3y`;
type Answer = Finished & { status: number };

function infoOf(): RequestInfo {
  return { method: "GET", path: "/currencies/fiat-rates", operationId: "getFiatRates", url: "" };
}

function environmentOf(overrides: Partial<AttemptEnvironment> = {}) {
  const sleeps: number[] = [];
  const environment: AttemptEnvironment = {
    signer: undefined,
    redact: createRedactor("k3y"),
    hooks: {},
    observed: false,
    rateLimit: undefined,
    sleep: async (ms) => void sleeps.push(ms),
    ...overrides,
  };
  return { environment, sleeps };
}

/** A plan whose fetch answers attempt n with `answers[n - 1]` (a Response, or an error to throw). */
function planOf(answers: Array<Response | Error | "hang">, overrides: Partial<AttemptPlan<Answer>> = {}) {
  const requests: Request[] = [];
  const plan: AttemptPlan<Answer> = {
    method: "GET",
    info: infoOf(),
    timeoutMs: 1000,
    policy: DEFAULT_RETRY,
    override: undefined,
    signal: undefined,
    fetch: async (request) => {
      requests.push(request);
      const answer = answers[requests.length - 1]!;
      if (answer === "hang")
        return new Promise((_, reject) =>
          request.signal.addEventListener("abort", () => reject(request.signal.reason)),
        );
      if (answer instanceof Error) throw answer;
      return answer;
    },
    finish: async (response) => ({ status: response.status, streaming: false }),
    ...overrides,
  };
  return { plan, requests };
}

const status = (code: number, headers: Record<string, string> = {}) => new Response(null, { status: code, headers });

describe("sendWithRetries", () => {
  it("retries a retried status after the wait the server asks for; returns what finish read of the last", async () => {
    const { plan, requests } = planOf([status(503, { "retry-after": "2" }), status(200)]);
    const retries: unknown[] = [];
    const { environment, sleeps } = environmentOf({ hooks: { onRetry: (e) => retries.push(e) } });
    const answer = await sendWithRetries(URL_SENT, { method: "GET" }, plan, environment);
    expect(answer).toEqual({ status: 200, streaming: false });
    expect(sleeps).toEqual([2000]);
    expect(requests).toHaveLength(2);
    expect(plan.info.url).toBe(`https://api.example.com${BASE_PATH}/currencies/fiat-rates?key=[REDACTED]`);
    expect(retries).toEqual([{ ...plan.info, attempt: 1, reason: "status", status: 503, delayMs: 2000 }]);
  });

  it("does not retry a method the policy does not name, nor past its retries", async () => {
    const post = planOf([status(503), status(200)], { method: "POST" });
    const answer = await sendWithRetries(URL_SENT, { method: "POST" }, post.plan, environmentOf().environment);
    expect([answer.status, post.requests.length]).toEqual([503, 1]);
    const get = planOf([status(503), status(503), status(503), status(200)]);
    const last = await sendWithRetries(URL_SENT, { method: "GET" }, get.plan, environmentOf().environment);
    expect([last.status, get.requests.length]).toEqual([503, 3]);
  });

  it("waits before the first attempt while the last rate-limit state says nothing remains, and says so", async () => {
    const now = Date.UTC(2030, 0, 1, 12, 0, 0);
    useFakeClock(now);
    const rateLimit = { limit: 10, remaining: 0, reset: now / 1000 + 3, observedAt: now };
    const waits: unknown[] = [];
    const { environment, sleeps } = environmentOf({ rateLimit, hooks: { onRateLimitWait: (e) => waits.push(e) } });
    const reset = status(200, { [RATE_LIMIT_HEADERS.remaining]: "9" });
    const { plan } = planOf([reset]);
    await sendWithRetries(URL_SENT, { method: "GET" }, plan, environment);
    expect(sleeps).toEqual([3000]);
    expect(waits).toEqual([{ ...plan.info, attempt: 1, delayMs: 3000, rateLimit }]);
    expect(environment.rateLimit).toMatchObject({ remaining: 9, observedAt: now });
  });

  it("ends an attempt at its timeout with a TimeoutError, retried like a network error", async () => {
    useFakeClock();
    const { plan, requests } = planOf(["hang", "hang", "hang"], { timeoutMs: 50 });
    const call = track(sendWithRetries(URL_SENT, { method: "GET" }, plan, environmentOf().environment));
    for (const attempt of [1, 2, 3]) {
      await until(() => requests.length === attempt, `attempt ${attempt}`);
      await vi.advanceTimersByTimeAsync(50);
    }
    await until(() => call.settled, "the last timeout");
    expect(call.error).toBeInstanceOf(TimeoutError);
    expect(call.error).toMatchObject({ timeoutMs: 50, attempts: 3 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("wraps a failed fetch in a NetworkError, cause redacted; a ClientError from finish is not retried", async () => {
    const failed = planOf([new TypeError("fetch failed for k3y"), new TypeError("again")], { override: false });
    const error = await sendWithRetries(URL_SENT, { method: "GET" }, failed.plan, environmentOf().environment).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(((error as Error).cause as Error).message).toBe("fetch failed for [REDACTED]");
    const refusal = new InvalidResponseError(infoOf(), 200, "text/html", "content-type", "x");
    const refused = planOf([status(200), status(200)], {
      finish: async () => {
        throw refusal;
      },
    });
    const thrown = sendWithRetries(URL_SENT, { method: "GET" }, refused.plan, environmentOf().environment);
    await expect(thrown).rejects.toBe(refusal);
    expect(refused.requests).toHaveLength(1);
  });

  it("signs every attempt anew over the headers as given, and sends the caller's signal's abort reason", async () => {
    let count = 0;
    const signer = async (method: string, url: string) => ({
      timestamp: String(++count),
      signature: `${method} ${url}`,
    });
    const { plan, requests } = planOf([status(503, { "retry-after": "0" }), status(200)]);
    const init = { method: "GET", headers: { [API_KEY_HEADER]: "k" } };
    await sendWithRetries(URL_SENT, init, plan, environmentOf({ signer }).environment);
    const signed = requests.map((r) => [r.headers.get(API_KEY_HEADER), r.headers.get(SIGNING_HEADERS.timestamp)]);
    expect(signed).toEqual([
      ["k", "1"],
      ["k", "2"],
    ]);
    expect(requests[0]!.headers.get(SIGNING_HEADERS.signature)).toBe(`GET ${URL_SENT}`);
    const controller = new AbortController();
    const aborted = planOf(["hang"], { signal: controller.signal });
    const call = track(sendWithRetries(URL_SENT, { method: "GET" }, aborted.plan, environmentOf().environment));
    await until(() => aborted.requests.length === 1, "the attempt");
    controller.abort(new Error("stop"));
    await until(() => call.settled, "the aborted call");
    expect(call.error).toEqual(new Error("stop"));
  });

  it("clears the timeout of each attempt that ends without an answer (a retried status, a network error)", async () => {
    useFakeClock();
    const { plan, requests } = planOf([status(503), new TypeError("fetch failed"), status(200)]);
    const answer = await sendWithRetries(URL_SENT, { method: "GET" }, plan, environmentOf().environment);
    expect([answer.status, requests.length]).toEqual([200, 3]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps the timeout armed while the caller reads a stream, and clears it otherwise", async () => {
    useFakeClock();
    const read = planOf([status(200)]);
    await sendWithRetries(URL_SENT, { method: "GET" }, read.plan, environmentOf().environment);
    expect(vi.getTimerCount()).toBe(0);
    const streamed = planOf([status(200)], { finish: async (r) => ({ status: r.status, streaming: true }) });
    await sendWithRetries(URL_SENT, { method: "GET" }, streamed.plan, environmentOf().environment);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(streamed.requests[0]!.signal.reason).toBeInstanceOf(TimeoutError);
  });

  it("tells the hooks of each request and response only when one observes them", async () => {
    const events: string[] = [];
    const hooks = {
      onRequest: () => void events.push("request"),
      onResponse: () => void events.push("response"),
      onRateLimit: () => void events.push("rateLimit"),
    };
    const limited = () => status(200, { [RATE_LIMIT_HEADERS.limit]: "5" });
    const observed = environmentOf({ hooks, observed: true });
    await sendWithRetries(URL_SENT, { method: "GET" }, planOf([limited()]).plan, observed.environment);
    expect(events).toEqual(["request", "response", "rateLimit"]);
    const unobserved = environmentOf({ hooks, observed: false });
    await sendWithRetries(URL_SENT, { method: "GET" }, planOf([limited()]).plan, unobserved.environment);
    expect(events).toHaveLength(3);
    expect(unobserved.environment.rateLimit?.limit).toBe(5);
  });
});

describe("notify", () => {
  it("calls the hook with the event, and swallows what it throws", () => {
    const seen: unknown[] = [];
    notify({ onRequest: (e) => void seen.push(e) }, "onRequest", { ...infoOf(), attempt: 1 });
    expect(seen).toEqual([{ ...infoOf(), attempt: 1 }]);
    const throwing = {
      onRequest: () => {
        throw new Error("observer bug");
      },
    };
    expect(() => notify(throwing, "onRequest", { ...infoOf(), attempt: 1 })).not.toThrow();
    expect(() => notify({}, "onRequest", { ...infoOf(), attempt: 1 })).not.toThrow();
  });
});
