// Calling a sandbox in-process in the sandbox's own tests: API requests under /v1 with a key (or none), control
// requests under /_sandbox, each answer read whole (status, headers, parsed body) and, for the API, checked
// with the package's contract validator so a test can count the answers that break the contract.
import { expect } from "vitest";
import { createSandbox, type Sandbox, SandboxControlError, type SandboxOptions } from "../../../src/sandbox/index.js";
import type { SandboxStateData } from "../../../src/sandbox/state.js";
import { API_KEY_HEADER, BASE_PATH, sharedValidator } from "../../support/spec.js";

export const ORIGIN = "http://sandbox.test";
/** The sandbox clock's first moment in these tests. */
export const START = Date.UTC(2026, 10, 26, 10, 0, 0);

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  /** The body's exact text ("" for none). */
  text: string;
  /** The contract validator's findings about this answer (API answers only). */
  violations: string[];
}

/** A sandbox at START, with a log that collects its bug reports. */
export function newSandbox(options: SandboxOptions = {}): Sandbox & { bugs: string[] } {
  const bugs: string[] = [];
  const sandbox = createSandbox({ clock: { start: START }, log: (line) => bugs.push(line), ...options });
  return Object.assign(sandbox, { bugs });
}

async function read(response: Response): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text), text };
}

interface CallOptions {
  /** The API key; null for none. Default "key-a". */
  key?: string | null;
  headers?: Record<string, string>;
}

/** An API request to `sandbox`: `path` is relative to the base path (`/wallets/me`). */
export async function api(
  sandbox: Sandbox,
  method: string,
  path: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<Answer> {
  const key = options.key === undefined ? "key-a" : options.key;
  const headers: Record<string, string> = { ...options.headers };
  if (key !== null) headers[API_KEY_HEADER] = key;
  if (body !== undefined) headers["content-type"] = "application/json";
  const request = new Request(`${ORIGIN}${BASE_PATH}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await read(await sandbox.fetch(request));
  const result = sharedValidator().validateResponse({ method, path: `${BASE_PATH}${path}`, ...answer });
  return { ...answer, violations: result.violations.map((violation) => violation.message) };
}

/** A control request to `sandbox` (`path` starts with /_sandbox). */
export async function control(
  sandbox: Sandbox,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const request = new Request(`${ORIGIN}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { ...(await read(await sandbox.fetch(request))), violations: [] };
}

/** The state of `sandbox` as the sandbox holds it (the public type leaves it open). */
export const stateOf = (sandbox: Sandbox): SandboxStateData => sandbox.snapshot() as unknown as SandboxStateData;

/** Each key's store without its limit windows: what a refused request leaves as it was (counting it moves those). */
export function storesBeyondLimits(sandbox: Sandbox): Record<string, unknown> {
  const stores: Record<string, unknown> = {};
  for (const [key, { windows: _counted, ...rest }] of Object.entries(stateOf(sandbox).accounts))
    Object.defineProperty(stores, key, { value: rest, enumerable: true });
  return stores;
}

/** An answer's headers as a plain object. */
export function headersOf(answer: { headers: Headers }): Record<string, string> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/** A TRX address of the contract's addressRegex, and a bank account, as withdrawal destinations. */
export const TRX_DESTINATION = { address: `T${"9".repeat(33)}`, network: "TRX" };
export const BANK_DESTINATION = {
  accountNumber: "0123456789",
  accountName: "Jane Doe",
  bankName: "OPAY",
  bankCode: "999992",
};

/** A crypto withdrawal of 10 USDT to TRX_DESTINATION and a bank one of 15 000 NGNX, by key-a. */
export async function withdrawBoth(sandbox: Sandbox) {
  const crypto = await api(sandbox, "POST", "/wallets/ext/debit/crypto", {
    amount: 10,
    currency: "USDT",
    destination: TRX_DESTINATION,
  });
  const bank = await api(sandbox, "POST", "/wallets/ext/debit/fiat", {
    amount: 15_000,
    currency: "NGNX",
    destination: BANK_DESTINATION,
  });
  return { crypto, bank };
}

export const SELL_100 = { sourceId: "USDT", targetId: "NGNX", amount: 100, side: "SELL" } as const;
/** A BUY of USDT with 1000 NGNX, as the official clients send it (choices.ts, "quotes.sides"). */
export const BUY_1000 = { sourceId: "USDT", targetId: "NGNX", amount: 1000, side: "BUY" } as const;

/** What `run` throws (to assert its class and exact message together), or undefined when it throws nothing. */
export function thrownBy(run: () => unknown): Error | undefined {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  return undefined;
}

/** Creates a quote and answers its id (the test fails when it is refused). */
export async function quoteId(sandbox: Sandbox, body: unknown = SELL_100, key = "key-a"): Promise<string> {
  const answer = await api(sandbox, "POST", "/trades/quote", body, { key });
  if (answer.status !== 200) throw new Error(`quote refused: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data.id;
}

/** The error `run` rejects with (the test fails when it resolves). */
export async function rejectionOf(run: Promise<unknown>): Promise<SandboxControlError> {
  const error = await run.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SandboxControlError);
  return error as SandboxControlError;
}
