// Where the contract suite sends its requests: a Prism mock it starts itself on a free port, or a
// live deployment named by CONTRACT_BASE_URL (+ CONTRACT_API_KEY, CONTRACT_API_SECRET). Requests are
// paced on live targets, and signed as a real client signs them when there is a secret.
import { type StartedMock, startMock } from "../../../src/mock/index.js";
import { createSigner, SIGNING_HEADERS } from "../../../src/index.js";

export interface Target {
  kind: "mock" | "live";
  baseUrl: string;
  apiKey: string;
  /** Signs every request (x-api-timestamp, x-api-signature; observed in a real client) when set. */
  apiSecret: string | undefined;
  allowSideEffects: boolean;
  /** Minimum time between two requests (ms). */
  minIntervalMs: number;
  stop(): Promise<void>;
}

export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export interface ReceivedResponse {
  status: number;
  headers: Headers;
  bodyText: string;
  durationMs: number;
}

/** Stays far under the general limit (200 requests per minute per key) on a live target. */
const LIVE_DEFAULT_INTERVAL_MS = 1000;

export async function openTarget(): Promise<Target> {
  const liveUrl = process.env.CONTRACT_BASE_URL?.trim();
  const allowSideEffects = process.env.CONTRACT_ALLOW_SIDE_EFFECTS === "1";
  if (liveUrl) {
    const interval = Number(process.env.CONTRACT_MIN_INTERVAL_MS ?? LIVE_DEFAULT_INTERVAL_MS);
    return {
      kind: "live",
      baseUrl: liveUrl.replace(/\/+$/, ""),
      apiKey: process.env.CONTRACT_API_KEY ?? "",
      apiSecret: process.env.CONTRACT_API_SECRET || undefined,
      allowSideEffects,
      minIntervalMs: Number.isFinite(interval) && interval >= 0 ? interval : LIVE_DEFAULT_INTERVAL_MS,
      stop: async () => {},
    };
  }
  const mock: StartedMock = await startMock();
  return {
    kind: "mock",
    baseUrl: mock.baseUrl,
    apiKey: "contract-test-key",
    // The mock checks the signing headers' form only; signing exercises their declarations as a real client would.
    apiSecret: "contract-test-secret",
    allowSideEffects: true, // the mock is stateless: nothing can happen
    minIntervalMs: 0,
    stop: () => mock.stop(),
  };
}

/** A fetch that keeps minIntervalMs between requests and returns the raw response parts. */
export function createSender(target: Target) {
  let last = 0;
  let count = 0;
  const sign = target.apiSecret ? createSigner(target.apiSecret) : undefined;
  return {
    get count() {
      return count;
    },
    async send(request: SentRequest): Promise<ReceivedResponse> {
      const wait = last + target.minIntervalMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      last = Date.now();
      count++;
      const headers = { ...request.headers };
      if (sign) {
        const signed = await sign(request.method, request.url);
        headers[SIGNING_HEADERS.timestamp] = signed.timestamp;
        headers[SIGNING_HEADERS.signature] = signed.signature;
      }
      const started = performance.now();
      const response = await fetch(request.url, {
        method: request.method,
        headers,
        body: request.body,
        signal: AbortSignal.timeout(15_000),
      });
      const bodyText = await response.text();
      return { status: response.status, headers: response.headers, bodyText, durationMs: performance.now() - started };
    },
  };
}

/** Headers with the API key redacted, for reports and logs. */
export function redactHeaders(headers: Record<string, string>, keyHeader: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, k.toLowerCase() === keyHeader.toLowerCase() ? "<redacted>" : v]));
}
