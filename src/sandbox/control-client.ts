// A typed client of the sandbox's control API (/_sandbox, its document generated/sandbox-control.json), on
// openapi-fetch as the API's client is: one method per control operation, typed from the document, answering the
// documented body of its success. Any other answer throws a SandboxControlError with the status and the control
// API's message, so a test that sets the sandbox up never goes on from a refused step with state it did not get.
// Over HTTP it takes the sandbox's URL (its origin is used: the control API is beside /v1); in-process it takes
// the sandbox's own `fetch` (`createSandboxControl({ baseUrl: "http://sandbox.local", fetch: sandbox.fetch })`).
import createClient from "openapi-fetch";
import type { components, paths } from "../../generated/sandbox-control.js";
import type { SandboxDepositRequest } from "./money/index.js";

type Schemas = components["schemas"];

/** A control request answered with anything but its documented success. */
export class SandboxControlError extends Error {
  constructor(
    /** The control operation (its operationId). */
    readonly operation: string,
    /** The answer's status. */
    readonly status: number,
    /** The control API's message (its SandboxError body), or the status text. */
    readonly detail: string,
  ) {
    super(`${operation}: the sandbox answered ${status}: ${detail}`);
    this.name = "SandboxControlError";
  }
}

export interface SandboxControlOptions {
  /** The sandbox's URL: its API's base URL (`http://127.0.0.1:4020/v1`) or its origin; the origin is used. */
  baseUrl: string;
  /** The sandbox's control token (`api-contract sandbox --token`), sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** The fetch to send with: the global one by default, or an in-process sandbox's `sandbox.fetch`. */
  fetch?: (request: Request) => Promise<Response>;
}

/** What a call of openapi-fetch answers: its data on success, its error body otherwise, and the response. */
interface Answered<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The message of a control API's error body, else the response's status text. */
function detailOf(error: unknown, response: Response): string {
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : response.statusText || "no message";
}

/** The success's body of `call`, or a SandboxControlError. */
async function succeeded<T>(operation: string, call: Promise<Answered<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new SandboxControlError(operation, response.status, detailOf(error, response));
  return data as T;
}

/** The control API of the sandbox at `baseUrl` (its origin: `http://127.0.0.1:4020/v1` and `…:4020` alike). */
export function createSandboxControl(options: SandboxControlOptions) {
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const client = createClient<paths>({ baseUrl: new URL(options.baseUrl).origin, headers, fetch: options.fetch });
  const account = (apiKey: string) => ({ params: { path: { apiKey } } });
  return {
    /** Creates or replaces the key's account (its whole store: balances, history, windows, outbox). */
    putAccount: (apiKey: string, settings: Schemas["SandboxAccountSettings"] = {}) =>
      succeeded("putSandboxAccount", client.PUT("/_sandbox/accounts/{apiKey}", { ...account(apiKey), body: settings })),
    getAccount: (apiKey: string) =>
      succeeded("getSandboxAccount", client.GET("/_sandbox/accounts/{apiKey}", account(apiKey))),
    deleteAccount: (apiKey: string) =>
      succeeded("deleteSandboxAccount", client.DELETE("/_sandbox/accounts/{apiKey}", account(apiKey))),
    /**
     * A payment arriving at a deposit address: the transaction, as Get Transaction answers it. Typed as
     * `sandbox.deposit` takes it: the document's SandboxDeposit (an anyOf of `required` lists) is typed `unknown`.
     */
    deposit: (deposit: SandboxDepositRequest) =>
      succeeded("simulateSandboxDeposit", client.POST("/_sandbox/deposits", { body: deposit })),
    settleWithdrawal: (transactionId: string, settlement: Schemas["SandboxSettlement"]) =>
      succeeded(
        "settleSandboxWithdrawal",
        client.POST("/_sandbox/withdrawals/{transactionId}/settle", {
          params: { path: { transactionId } },
          body: settlement,
        }),
      ),
    clock: () => succeeded("getSandboxClock", client.GET("/_sandbox/clock")),
    /** Moves the sandbox clock `ms` forward (quotes expire, windows reopen, due retries and settlements run). */
    advanceClock: (ms: number) =>
      succeeded("advanceSandboxClock", client.POST("/_sandbox/clock/advance", { body: { ms } })),
    /** One key's clock: the sandbox's plus that key's own advances. */
    accountClock: (apiKey: string) =>
      succeeded("getSandboxAccountClock", client.GET("/_sandbox/accounts/{apiKey}/clock", account(apiKey))),
    /** Moves one key's clock `ms` forward (its quotes, windows, settlements and retries); no other key's moves. */
    advanceAccountClock: (apiKey: string, ms: number) =>
      succeeded(
        "advanceSandboxAccountClock",
        client.POST("/_sandbox/accounts/{apiKey}/clock/advance", { ...account(apiKey), body: { ms } }),
      ),
    rates: () => succeeded("getSandboxRates", client.GET("/_sandbox/rates")),
    setRates: (rates: Schemas["SandboxRatesUpdate"]) =>
      succeeded("putSandboxRates", client.PUT("/_sandbox/rates", { body: rates })),
    /** The settings that may change while the sandbox runs (requireKnownKeys). */
    settings: () => succeeded("getSandboxSettings", client.GET("/_sandbox/settings")),
    /** Changes them for every key, until the next change or the sandbox's stop; answers those now in force. */
    putSettings: (settings: Schemas["SandboxSettingsChange"]) =>
      succeeded("putSandboxSettings", client.PUT("/_sandbox/settings", { body: settings })),
    /** The webhooks of one key (or of every key), each with its delivery attempts. */
    webhooks: (apiKey?: string) =>
      succeeded("listSandboxWebhooks", client.GET("/_sandbox/webhooks", { params: { query: { apiKey } } })),
    /** The whole state, as a restore takes it back; the accounts' secrets only with `{ secrets: true }`. */
    state: ({ secrets = false }: { secrets?: boolean } = {}) =>
      succeeded(
        "getSandboxState",
        client.GET("/_sandbox/state", { params: { query: { secrets: secrets ? "true" : "false" } } }),
      ),
    /** One key's store; its secrets only with `{ secrets: true }`. */
    accountState: (apiKey: string, { secrets = false }: { secrets?: boolean } = {}) =>
      succeeded(
        "getSandboxAccountState",
        client.GET("/_sandbox/accounts/{apiKey}/state", {
          params: { path: { apiKey }, query: { secrets: secrets ? "true" : "false" } },
        }),
      ),
    /** Puts back one key's store (made if there is none); no other key's changes. */
    restoreAccount: (apiKey: string, store: Schemas["SandboxAccountStore"]) =>
      succeeded(
        "putSandboxAccountState",
        client.PUT("/_sandbox/accounts/{apiKey}/state", { ...account(apiKey), body: store }),
      ),
    restore: (state: Schemas["SandboxStateToRestore"]) =>
      succeeded("putSandboxState", client.PUT("/_sandbox/state", { body: state })),
    /** The register of choices: where the sandbox decides what no source shows. */
    choices: () => succeeded("getSandboxChoices", client.GET("/_sandbox/choices")),
  };
}

/** The control API's client (createSandboxControl). */
export type SandboxControlClient = ReturnType<typeof createSandboxControl>;
