// The types verify's modules share (its options, a case's result, the report, the clock), in a module of their own
// so that plan.ts, send.ts and report.ts need not import run.ts, which imports them.
import type { ContractViolation, ContractWarning } from "../contract/types.js";

/** The verifier's clock, in milliseconds; a test gives a fake one to see the pauses asked for. */
export interface VerifyClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /**
   * The time of day, in milliseconds since the epoch (default Date.now()): a target's rate-limit resets are read
   * against its Date header, and against this when it sends none.
   */
  timeOfDay?(): number;
}

export interface VerifyOptions {
  /** Base URL ending in the contract's base path, e.g. https://staging.example.com/v1. */
  baseUrl: string;
  apiKey?: string;
  /** Signs every request (x-api-timestamp, x-api-signature) as a real client of the service does. */
  apiSecret?: string;
  /**
   * Another account's key on the same target, for the isolation flow on a deployment (another key's quote and
   * transaction, read with the run's key); the sandbox gets a second account through its control API instead.
   */
  secondApiKey?: string;
  /** Signs the requests sent with `secondApiKey` (as apiSecret does the run's). */
  secondApiSecret?: string;
  /**
   * `deployment`: the safety rules of plan.ts. `mock`: this package's mock (every case, exact refusal statuses,
   * examples as path values). Default: learned from the answers (see VerifyTarget), a deployment's rules until the
   * first.
   */
  target?: VerifyTarget;
  /** Run operations that change state (POST other than one with its own quota) and invalid bodies of such ones. */
  allowSideEffects?: boolean;
  /** Values for path and query parameters, by name (e.g. { id: "cus-123" }). */
  params?: Record<string, string>;
  /** The control token of the package's sandbox (`api-contract sandbox --token`), for verify's set-up there. */
  sandboxToken?: string;
  /** Register entries (ids) the target may contradict without failing the run: divergences the user knows of. */
  allowDivergence?: string[];
  /** Run the flows after the cases and stamp the register (default true); false: the per-operation cases only. */
  flows?: boolean;
  /**
   * Register entries (ids) to check: only the flows that check one of them run, the others are untested ("it
   * checks none of the rules asked for"); absent, every flow runs.
   */
  rules?: string[];
  /** Where the webhook flow's receiver listens, `host:port` (default 127.0.0.1:0, a free port of loopback). */
  webhookReceiver?: string;
  /**
   * The secret a deployment signs the run's key's webhooks with: the webhook flow then runs there (with side
   * effects allowed), resending a transaction's webhook twice to the receiver, where the user routes them.
   */
  webhookSecret?: string;
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
 * What is verified: `sandbox` when every answer so far carried X-Api-Contract-Sandbox (this package's sandbox says
 * so), `mock` when every one carried the mock's X-Api-Contract-Mock (the package's mock, or a sandbox that also
 * says it is one), else `deployment` (any other server, which verify cannot know to be a test one). The package's
 * targets get every case, unpaced.
 */
export type VerifyTarget = "deployment" | "mock" | "sandbox";

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
  /** The package's version, from its X-Api-Contract-Mock header, when the target is the package's mock or sandbox. */
  mockVersion?: string;
  startedAt: string;
  finishedAt: string;
  requests: number;
  /** Milliseconds (of the target's clock) verify waited for spent rate limits to reset; absent when none. */
  limitWaitMs?: number;
  counts: { passed: number; failed: number; skipped: number };
  /** True when nothing failed and at least one positive case passed. */
  ok: boolean;
  /** Set when the target could not be checked (no HTTP answer to the first request sent): why, in one line. */
  unchecked?: string;
  /** Set when one cause explains the failures (the API key was refused; every request answered 404): in one line. */
  cause?: string;
  /** On the package's sandbox: what verify prepared there for its cases, or why it could not (sandbox-setup.ts). */
  sandboxSetup?: string;
  /** The flows run after the cases (flows/), each passed, failed or untested. */
  flows?: FlowResult[];
  /** Every entry of the sandbox's register of choices, stamped confirmed, contradicted or untested on this target. */
  choices?: ChoiceVerdict[];
  results: CaseResult[];
}

/** How one flow went: to its end with every rule it checks confirmed, not, or not run (and why). */
export interface FlowResult {
  flow: string;
  outcome: "passed" | "failed" | "untested";
  reason?: string;
}

/** The verdict on one entry of the register on this target. */
export interface ChoiceVerdict {
  id: string;
  verdict: "confirmed" | "contradicted" | "untested";
  /** For a contradicted entry: the exchange that shows it. */
  evidence?: string;
  /** For an untested entry: why. */
  reason?: string;
  /** For a contradicted entry the user allowed (--allow-divergence): it does not fail the run. */
  allowed?: boolean;
}
