// How verify talks to its target: each request signed (when given a secret), timed, paced and not redirected, its
// answer's body read as sent. The package's mock says what it is in every answer (X-Api-Contract-Mock), the
// sandbox too and beside it X-Api-Contract-Sandbox: while every answer does, the target is the mock or the sandbox
// (unpaced by default); one answer without the header makes it a deployment.
import { API_KEY_HEADER, BASE_PATH, RATE_LIMIT_HEADERS, SIGNING_HEADERS } from "../../generated/client-meta.js";
import { createSigner, type Signer } from "../client/signing.js";
import { MOCK_IDENTITY_HEADER, SANDBOX_IDENTITY_HEADER } from "../pipeline/identity.js";
import type { VerifyClock, VerifyOptions, VerifyTarget } from "./types.js";

export const realClock: VerifyClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** The body's text as sent: a byte-order mark is kept (Response.text() drops it) for the validator to report. */
const asSent = new TextDecoder("utf-8", { ignoreBOM: true });

/** An HTTP answer as verify judges it. */
export interface Answer {
  status: number;
  headers: Headers;
  bodyText: string;
  durationMs: number;
}

/** One request, as a case sends it. */
export interface Outgoing {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** How one request is sent: `unpaced`, without waiting for a spent limit; `unsigned`, its headers as given. */
export interface SendHow {
  unpaced?: boolean;
  unsigned?: boolean;
}

/** Sends a run's requests to one target and learns from the answers what the target is. */
export interface Sender {
  send(request: Outgoing, how?: SendHow): Promise<Answer>;
  /** Requests sent. */
  readonly requests: number;
  /** HTTP answers received (any status). */
  readonly answers: number;
  /** What the target is, as far as the answers so far tell (options.target when given). */
  readonly target: VerifyTarget;
  /** The version the mock's header named first (whatever the target turned out to be). */
  readonly identity: string | undefined;
  /** The per-request time limit, in milliseconds. */
  readonly timeoutMs: number;
  /** Waits on the target's clock by `advance` from now on (the package's sandbox, through its control API). */
  useTargetClock(advance: (ms: number) => Promise<void>): void;
  /** Time waited for spent limits to reset, in milliseconds of the target's clock. */
  readonly limitWaitMs: number;
}

/** The limits a request counts against: every request's, and Create Quote's own besides. */
type LimitScope = "all" | "quote";

/** A request's limits: those of its scopes, in the windows of its API key (requests without one share theirs). */
interface Counted {
  apiKey: string;
  scopes: LimitScope[];
}

const CREATE_QUOTE_PATH = `${BASE_PATH}/trades/quote`;

const countedOf = ({ method, url, headers }: Omit<Outgoing, "body">): Counted => ({
  apiKey: headers[API_KEY_HEADER] ?? "",
  scopes:
    method === "POST" && new URL(url).pathname.replace(/\/+$/, "").endsWith(CREATE_QUOTE_PATH)
      ? ["all", "quote"]
      : ["all"],
});

/**
 * Paces by the target's own X-RateLimit-* headers (register "limits.headers"): a limit whose last answer left no
 * request waits until its reset, on the target's clock as its Date header shows it; every request sent takes one
 * from what is left of its limits until an answer says again. Create Quote's answers speak for its own limits,
 * every other answer for the limit of all requests; an answer describes one limit (the one with the fewest left),
 * told apart from the others of its scope by X-RateLimit-Limit, so a spent hourly limit is not forgotten when the
 * next answer describes the minute's.
 */
function createLimitPacer(timeOfDay: () => number) {
  const left = new Map<string, { apiKey: string; scope: LimitScope; remaining: number; resetMs: number }>();
  /**
   * The target's time as its last Date header said it (seconds; the time since is not added: it may stand still,
   * as the sandbox's clock does, and a wait from the whole second is never too short). A target that sends no Date
   * is taken to keep the time of day verify keeps.
   */
  let targetNow: number | undefined;
  const limitsOf = ({ apiKey, scopes }: Counted) =>
    [...left.values()].filter((limit) => limit.apiKey === apiKey && scopes.includes(limit.scope));
  return {
    /** How long (target ms) a request must wait for its spent limits to reset: 0 when none is spent. */
    waitFor(counted: Counted): number {
      const now = targetNow ?? timeOfDay();
      const spent = limitsOf(counted).filter((limit) => limit.remaining <= 0);
      return Math.max(0, ...spent.map((limit) => limit.resetMs - now));
    },
    /** The target's clock moved `ms` while verify waited on it: limits reset by then are forgotten. */
    waited(ms: number): void {
      if (targetNow !== undefined) targetNow += ms;
      const now = targetNow ?? timeOfDay();
      for (const [key, limit] of left) if (limit.resetMs <= now) left.delete(key);
    },
    sent(counted: Counted): void {
      for (const limit of limitsOf(counted)) limit.remaining--;
    },
    heard({ apiKey, scopes }: Counted, headers: Headers): void {
      const dateMs = Date.parse(headers.get("date") ?? "");
      if (!Number.isNaN(dateMs)) targetNow = dateMs;
      const [limit, remaining, reset] = [
        RATE_LIMIT_HEADERS.limit,
        RATE_LIMIT_HEADERS.remaining,
        RATE_LIMIT_HEADERS.reset,
      ].map((name) => Number(headers.get(name) ?? Number.NaN));
      if (![limit, remaining, reset].every(Number.isInteger)) return;
      const scope = scopes.at(-1)!;
      left.set(`${apiKey}\n${scope} ${limit}`, { apiKey, scope, remaining: remaining!, resetMs: reset! * 1000 });
    },
  };
}

type SenderOptions = Pick<
  VerifyOptions,
  "target" | "apiSecret" | "secondApiKey" | "secondApiSecret" | "minIntervalMs" | "timeoutMs" | "clock"
>;

/** What the answers so far say of the target: the mock's version, and whether any answer lacked a header. */
function identityTracker(given: VerifyTarget | undefined) {
  let mockVersion: string | undefined;
  let answerWithoutMock = false;
  let answerWithoutSandbox = false;
  return {
    heard(response: Response) {
      const identity = response.headers.get(MOCK_IDENTITY_HEADER);
      if (identity === null) answerWithoutMock = true;
      else mockVersion ??= identity;
      if (!response.headers.has(SANDBOX_IDENTITY_HEADER)) answerWithoutSandbox = true;
    },
    get version() {
      return mockVersion;
    },
    get target(): VerifyTarget {
      if (given) return given;
      if (mockVersion === undefined || answerWithoutMock) return "deployment";
      return answerWithoutSandbox ? "mock" : "sandbox";
    },
  };
}

/** A sender for a target: paces from the end of one exchange to the start of the next, signs, times out. */
export function createSender(options: SenderOptions): Sender {
  const clock = options.clock ?? realClock;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const sign = options.apiSecret ? createSigner(options.apiSecret) : undefined;
  const signSecond = options.secondApiSecret ? createSigner(options.secondApiSecret) : undefined;
  // A request with the second key is signed with its own secret (or not at all, without one).
  const signerOf = (headers: Record<string, string>) =>
    options.secondApiKey !== undefined && headers[API_KEY_HEADER] === options.secondApiKey ? signSecond : sign;
  const tracker = identityTracker(options.target);
  const pacer = createLimitPacer(() => clock.timeOfDay?.() ?? Date.now());
  let waitOnTarget = (ms: number) => clock.sleep(ms);
  let limitWaitMs = 0;
  const minIntervalMs = () => options.minIntervalMs ?? (tracker.target === "deployment" ? 1000 : 0);
  let lastExchangeEnd = -Infinity;
  let requests = 0;
  let answers = 0;
  // The pause runs from the end of the previous exchange, so the gap the target sees between two requests
  // is never shorter, however late one of them arrives. setTimeout may fire a little early: check again.
  const pauseLeft = () => lastExchangeEnd + minIntervalMs() - clock.now();

  async function exchange({ method, url, headers, body }: Outgoing, unsigned = false): Promise<Answer> {
    requests++;
    const signer = unsigned ? undefined : signerOf(headers);
    const outgoingHeaders = signer ? { ...headers, ...(await signatureHeaders(signer, method, url)) } : { ...headers };
    const started = clock.now();
    // A redirect is an answer of its own, judged like any other (fetch would follow it unseen).
    const response = await fetch(url, {
      method,
      headers: outgoingHeaders,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    answers++;
    tracker.heard(response);
    pacer.heard(countedOf({ method, url, headers }), response.headers);
    const bodyText = asSent.decode(await response.arrayBuffer());
    return {
      status: response.status,
      headers: response.headers,
      bodyText,
      durationMs: Math.round(clock.now() - started),
    };
  }

  return {
    async send(request, how = {}) {
      while (pauseLeft() > 0) await clock.sleep(Math.ceil(pauseLeft()));
      const counted = countedOf(request);
      const wait = how.unpaced ? 0 : Math.ceil(pacer.waitFor(counted));
      if (wait > 0) {
        await waitOnTarget(wait);
        pacer.waited(wait);
        limitWaitMs += wait;
      }
      pacer.sent(counted);
      try {
        return await exchange(request, how.unsigned);
      } finally {
        lastExchangeEnd = clock.now();
      }
    },
    get requests() {
      return requests;
    },
    get answers() {
      return answers;
    },
    get target() {
      return tracker.target;
    },
    get identity() {
      return tracker.version;
    },
    timeoutMs,
    useTargetClock(advance) {
      waitOnTarget = advance;
    },
    get limitWaitMs() {
      return limitWaitMs;
    },
  };
}

/** The signing headers of one request (x-api-timestamp, x-api-signature), as a real client of the service sends. */
async function signatureHeaders(sign: Signer, method: string, url: string): Promise<Record<string, string>> {
  const signed = await sign(method, url);
  return { [SIGNING_HEADERS.timestamp]: signed.timestamp, [SIGNING_HEADERS.signature]: signed.signature };
}
