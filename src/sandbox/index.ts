// The sandbox (entry `@trading-wallet-settlement/api-contract/sandbox`): the service in a box. `createSandbox()`
// answers the API under /v1 from an in-memory state (accounts per API key, quotes that expire on the sandbox's
// own clock and are accepted once, balances that move, limits that are hit) and the control API under
// /_sandbox, both through one Fetch handler, `sandbox.fetch(request)`, so the HTTP front (server.ts), the ./msw
// handlers and a test in-process drive the same engine, in Node and in a browser. API requests go through the
// mock's request pipeline (src/pipeline/pipeline.ts) with the engine as its answer source; every answer is checked
// against the contract before it is sent. Where the service's description is silent the sandbox decides, and
// every such decision is in one register (choices.ts, `sandbox.choices`).
import { BASE_PATH } from "../../generated/client-meta.js";
import { openApiDocument } from "../contract/bundled.js";
import { answerFetchRequest } from "../pipeline/fetch-front.js";
import { SANDBOX_IDENTITY } from "../pipeline/identity.js";
import { createRequestPipeline } from "../pipeline/pipeline.js";
import type {
  FiatRateSetting,
  SandboxAccount,
  SandboxAccountStore,
  SandboxChoice,
  SandboxRates,
  SandboxSettings,
  SandboxState,
} from "../../generated/sandbox-control.js";
import { type Accounts, createAccounts } from "./accounts.js";
import { createAdmission } from "./admission.js";
import {
  baseCodeOf,
  type Catalogue,
  createCatalogueCheck,
  defaultCatalogue,
  defaultRates,
  documentedBalances,
  networkCurrencyProblem,
} from "./catalogue.js";
import { SANDBOX_CHOICES } from "./choices.js";
import { refuse } from "./refusal.js";
import { DEFAULT_QUOTE_SIDE_READING, QUOTE_SIDE_READINGS, type QuoteSideReading } from "./rules.js";
import { advanceProblem, createClock, wallClock } from "./clock.js";
import { keepPipeline } from "./direct.js";
import { createAnswerCheck, sharedValidator } from "./conformance.js";
import { CONTROL_PREFIX, createControl } from "./control.js";
import { type Engine, nowOf } from "./engine.js";
import { freshIds } from "./ids.js";
import { createLimits } from "./limits.js";
import { createMoney, type SandboxDepositRequest, type WithdrawalOptions, withdrawalSettings } from "./money/index.js";
import { createSandboxSource } from "./source.js";
import {
  type AccountRecord,
  type AccountSettings,
  ownEntry,
  type SandboxStateData,
  STATE_VERSION,
  setOwnEntry,
} from "./state.js";
import { checkedStateSteps, checkedStore, highestQuoteCounter } from "./state-check.js";
import { readTemplates } from "./templates.js";
import { allAtOnce, inTurns, type Steps } from "./turns.js";
import type { Sandbox } from "./types.js";
import {
  createWebhooks,
  type WebhookDelivery,
  type WebhookOptions,
  type Webhooks,
  type WebhookView,
} from "./webhooks/index.js";

export type {
  AccountSettings,
  SandboxAccount,
  SandboxAccountStore,
  SandboxChoice,
  SandboxRates,
  SandboxSettings,
  SandboxState,
};
export {
  createSandboxControl,
  type SandboxControlClient,
  SandboxControlError,
  type SandboxControlOptions,
} from "./control-client.js";
export type { Sandbox, SandboxDepositRequest, WithdrawalOptions };
/** The control API's types (`paths`, `components`, one type per schema), from its OpenAPI document. */
export type * as SandboxControl from "../../generated/sandbox-control.js";

export interface SandboxOptions {
  /** `start`: the clock's first moment (ms since the epoch), then it moves only by advances. Absent: real time. */
  clock?: { start?: number };
  /** Default: the contract's examples. Each fiat rate given replaces that currency's, each dollar rate that code's. */
  rates?: Partial<SandboxRates>;
  /** Accounts by API key, made at start. */
  accounts?: Record<string, AccountSettings>;
  /** Refuse (401) a key that has no account. Default false: any key gets an account on first use. */
  requireKnownKeys?: boolean;
  /** Default 200 requests per minute, 100 Create Quote requests per hour (the description's figures). */
  limits?: { requestsPerMinute?: number; quotesPerHour?: number };
  /**
   * Default: the contract's examples. Currencies and pairs as the contract's Currency and Pair schemas; networks as
   * Get Active Networks' data; withdrawalNetworks, by currency code, as Get Withdrawal Currency Networks' data.
   */
  catalogue?: {
    currencies?: unknown[];
    pairs?: unknown[];
    networks?: Record<string, unknown>;
    withdrawalNetworks?: Record<string, unknown[]>;
  };
  /**
   * How Create Quote reads sourceId, targetId and side (register "quotes.sides"): "pair" (default, as the official
   * clients send it) or "source-pays" (the source is always debited, as the published pages say).
   */
  quotes?: { sideReading?: QuoteSideReading };
  /** When withdrawals settle on the sandbox clock, and how (default: SUCCESSFUL 1 min after the request). */
  withdrawals?: WithdrawalOptions;
  /** When set, the control API requires `authorization: Bearer <token>`. */
  controlToken?: string;
  /**
   * The clock a signed request's timestamp is checked against besides the sandbox's (default: this machine's time):
   * clients sign with their own wall clock, whatever the sandbox clock shows (choices.ts, "signing").
   */
  signatureClock?: () => number;
  /** Receives a line for each sandbox bug (an answer that fails the contract). */
  log?: (line: string) => void;
  /** Webhook delivery: the retry delays, the delivery timeout, the fetch or the in-process callback it uses. */
  webhooks?: WebhookOptions;
}

export type { WebhookDelivery, WebhookOptions, WebhookView };

type Check = ReturnType<typeof createCatalogueCheck>;

/** Throws a RangeError when `catalogue` breaks the contract's schemas or a pair joins a currency it lacks. */
function checkCatalogue(catalogue: Parameters<Check["catalogueProblem"]>[0], check: Check): void {
  const problem = check.catalogueProblem(catalogue) ?? networkCurrencyProblem(catalogue as Catalogue);
  if (problem) refuse(400, `sandbox catalogue: ${problem}`);
  const { currencies, pairs } = catalogue as Catalogue;
  const codes = new Set(currencies.map((currency) => currency.code));
  const stray = pairs.find((pair) => !codes.has(pair.source.code) || !codes.has(pair.target.code));
  if (stray) refuse(400, `sandbox catalogue: pair ${stray.id} joins a currency the catalogue lacks`);
}

/** What the options make of the catalogue, checked against the contract. */
function catalogueOf(options: SandboxOptions, check: Check): Catalogue {
  const defaults = defaultCatalogue(openApiDocument);
  const catalogue = {
    currencies: (options.catalogue?.currencies ?? defaults.currencies) as Catalogue["currencies"],
    pairs: (options.catalogue?.pairs ?? defaults.pairs) as Catalogue["pairs"],
    networks: (options.catalogue?.networks ?? defaults.networks) as Catalogue["networks"],
    withdrawalNetworks: (options.catalogue?.withdrawalNetworks ??
      defaults.withdrawalNetworks) as Catalogue["withdrawalNetworks"],
  };
  checkCatalogue(catalogue, check);
  return structuredClone(catalogue);
}

/** The catalogue's default networks of its own currencies, where it has none (states saved before networks). */
function withDefaultNetworks(catalogue: Catalogue): void {
  const defaults = defaultCatalogue(openApiDocument);
  const codes = new Set(catalogue.currencies.map((currency) => currency.code));
  const own = <T>(entries: Record<string, T>) =>
    Object.fromEntries(Object.entries(entries).filter(([code]) => codes.has(code)));
  catalogue.networks ??= own(defaults.networks);
  catalogue.withdrawalNetworks ??= own(defaults.withdrawalNetworks);
}

type Json = Record<string, unknown>;
const isJsonObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const ownOf = (record: unknown, key: string): unknown =>
  isJsonObject(record) && Object.hasOwn(record, key) ? record[key] : undefined;

/**
 * A state of format 1 (limit windows, outbox and settlements kept beside the accounts, by API key) in format 2 (each
 * in its key's store). A part it lacks (a state saved before webhooks, deposits or addresses) is left absent: the
 * schema's default fills it in (state-schema.ts). A part of the wrong type is moved as it is, for the check to name.
 */
function fromVersion1(saved: Json): Json {
  const { windows, outbox, settlements, ...rest } = saved;
  const accounts: Json = {};
  for (const [apiKey, account] of Object.entries(isJsonObject(saved.accounts) ? saved.accounts : {})) {
    const due = Array.isArray(settlements) ? settlements.filter((entry) => ownOf(entry, "apiKey") === apiKey) : [];
    const store = {
      ...(account as Json),
      windows: ownOf(windows, apiKey),
      outbox: ownOf(outbox, apiKey),
      settlements: due.map((entry) => ({ at: ownOf(entry, "at"), transactionId: ownOf(entry, "transactionId") })),
    };
    Object.defineProperty(accounts, apiKey, { value: store, writable: true, enumerable: true, configurable: true });
  }
  return { ...rest, version: STATE_VERSION, accounts, keylessWindows: ownOf(windows, "\n") };
}

/**
 * A copy of `saved` as this version restores it, what older states lack filled in; a refusal where it cannot (its
 * shape and rules: state-check.ts; its catalogue and rates: the contract). The networks of a state saved before
 * them are filled in here, not by the schema: they are the contract's default networks of the state's currencies.
 * In steps, a store at a time (turns.ts): at once in process, with turns of the event loop between over HTTP.
 */
function* restorableSteps(saved: unknown, check: Check, handedOver: boolean): Steps<SandboxStateData> {
  const next = yield* checkedStateSteps(
    isJsonObject(saved) && saved.version === 1 ? fromVersion1(saved) : saved,
    handedOver,
  );
  withDefaultNetworks(next.catalogue);
  checkCatalogue(next.catalogue, check);
  const ratesProblem = check.ratesProblem(next.rates);
  if (ratesProblem) refuse(400, `sandbox state: ${ratesProblem}`);
  return next;
}

/** `current`'s fiat rates with each one `given` in place of its currency's (a currency it lacks added at the end). */
function mergedFiat(current: FiatRateSetting[], given: FiatRateSetting[]): FiatRateSetting[] {
  const byCode = new Map(given.map(({ currency, buyRate, sellRate }) => [currency, { currency, buyRate, sellRate }]));
  const known = new Set(current.map((rate) => rate.currency));
  const added = [...byCode.values()].filter((rate) => !known.has(rate.currency));
  return [...current.map((rate) => byCode.get(rate.currency) ?? rate), ...added];
}

/** `rates` over `current`: each fiat and dollar rate given in place of its code's; a RangeError on invalid rates. */
function mergedRates(current: SandboxRates, rates: Partial<SandboxRates>, check: Check) {
  const problem = check.ratesProblem(rates);
  if (problem) refuse(400, `sandbox rates: ${problem}`);
  const fiat = rates.fiat === undefined ? current.fiat : mergedFiat(current.fiat, rates.fiat);
  return { fiat, dollar: { ...current.dollar, ...rates.dollar } };
}

/** The reading of a quote's side the options choose; a RangeError for one the sandbox does not know. */
function sideReadingOf(quotes: SandboxOptions["quotes"]): QuoteSideReading {
  const reading = quotes?.sideReading ?? DEFAULT_QUOTE_SIDE_READING;
  if (!(QUOTE_SIDE_READINGS as readonly unknown[]).includes(reading))
    throw new RangeError(`sandbox quotes.sideReading: one of ${QUOTE_SIDE_READINGS.join(", ")}, not ${reading}`);
  return reading;
}

/** The engine of a new sandbox: its state from the options, its clock. */
function createEngine(options: SandboxOptions, check: Check) {
  const spec = openApiDocument;
  const clock = createClock(options.clock?.start);
  let state: SandboxStateData = {
    version: STATE_VERSION,
    clock: clock.state(),
    ids: freshIds(),
    catalogue: catalogueOf(options, check),
    rates: mergedRates(defaultRates(spec), options.rates ?? {}, check),
    accounts: {},
    keylessWindows: {},
  };
  let webhooks: Webhooks | undefined;
  const engine: Engine & { webhooks: Webhooks; replace(next: SandboxStateData): void } = {
    spec,
    clock,
    templates: readTemplates(spec),
    baseCode: baseCodeOf(spec),
    withdrawals: withdrawalSettings(options.withdrawals),
    quotes: { sideReading: sideReadingOf(options.quotes) },
    get state() {
      return state;
    },
    get webhooks() {
      webhooks ??= createWebhooks(engine, options.webhooks);
      return webhooks;
    },
    notify: (apiKey, transactionId, payload) => engine.webhooks.notify(apiKey, transactionId, payload),
    replace(next) {
      state = next;
      engine.webhooks.restored();
    },
  };
  void engine.webhooks; // made now, so that wrong webhook options are refused at start, not at the first webhook
  return engine;
}

let catalogueCheck: Check | undefined;

/** Each sandbox's restore of a state handed over to it (see restoreHandedOver). */
const handedOverRestores = new WeakMap<Sandbox, (saved: unknown) => void>();

/**
 * Restores `saved` into `sandbox` as restore() does, checked the same, but without copying it first: for a state
 * parsed for this restore alone (the --state file at start), which nothing else holds. A refusal leaves it changed.
 */
export function restoreHandedOver(sandbox: Sandbox, saved: unknown): void {
  handedOverRestores.get(sandbox)!(saved);
}

/** The store of `apiKey`, or a 404 refusal. */
function storeOf(engine: Engine, apiKey: string): AccountRecord {
  return ownEntry(engine.state.accounts, apiKey) ?? refuse(404, `No sandbox account for the API key ${apiKey}`);
}

/** Refuses (400) an advance of the sandbox clock by `ms` that would take a key's clock past its last moment. */
function keysAdvanceCheck(engine: Engine, ms: number): void {
  for (const account of Object.values(engine.state.accounts)) {
    if (account.clockOffsetMs === 0) continue; // the sandbox clock's own check covers it
    const problem = advanceProblem(ms, nowOf(engine, account));
    if (problem) refuse(400, `the clock of API key ${account.apiKey}: ${problem}`);
  }
}

/**
 * The restores of the sandbox of `engine`: each checks a state (restorableSteps), then applies it in one step (its
 * clock, its state, the withdrawals and webhooks it holds going on), so a refusal changes nothing. `copied`:
 * sandbox.restore (the caller keeps its state); `handedOver`: a state parsed for it alone (the --state file at
 * start); `inTurns`: one parsed for PUT /_sandbox/state, checked with a turn of the event loop between two stores.
 */
function createRestores(engine: ReturnType<typeof createEngine>, check: Check, money: ReturnType<typeof createMoney>) {
  const apply = (next: SandboxStateData) => {
    engine.clock.restore(next.clock);
    engine.replace(next);
    money.resume();
  };
  return {
    copied: (saved: unknown) => apply(allAtOnce(restorableSteps(saved, check, false))),
    handedOver: (saved: unknown) => apply(allAtOnce(restorableSteps(saved, check, true))),
    inTurns: async (saved: unknown) => apply(await inTurns(restorableSteps(saved, check, true))),
  };
}

/** The settings that may change while the sandbox runs (PUT /_sandbox/settings); admission reads `current`. */
function createSettings(options: SandboxOptions) {
  const current: SandboxSettings = { requireKnownKeys: options.requireKnownKeys ?? false };
  return {
    current,
    read: (): SandboxSettings => ({ ...current }),
    put(changed: SandboxSettings): SandboxSettings {
      // The control route's body is checked by the control document; an in-process caller's here.
      if (typeof changed?.requireKnownKeys !== "boolean") refuse(400, "settings: requireKnownKeys must be a boolean");
      current.requireKnownKeys = changed.requireKnownKeys;
      return { ...current };
    },
  };
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  catalogueCheck ??= createCatalogueCheck(openApiDocument);
  const check = catalogueCheck;
  const engine = createEngine(options, check);
  const accounts: Accounts = createAccounts(engine, documentedBalances(openApiDocument), check);
  const limits = createLimits(engine, options.limits ?? {});
  const settings = createSettings(options);
  const pipeline = createRequestPipeline({
    spec: openApiDocument,
    source: createSandboxSource(engine),
    basePaths: [BASE_PATH],
    now: () => engine.clock.now(),
    admit: createAdmission({
      engine,
      accounts,
      limits,
      settings: settings.current,
      signatureClock: options.signatureClock ?? wallClock,
    }),
    refreshQuotes: false,
    identity: SANDBOX_IDENTITY,
    validator: sharedValidator(openApiDocument),
    checkAnswer: createAnswerCheck(openApiDocument, options.log),
  });
  const money = createMoney(engine);
  const restores = createRestores(engine, check, money);
  const sandbox: Sandbox = {
    fetch(request) {
      const path = new URL(request.url).pathname;
      // API requests settle due withdrawals in the answer source (source.ts), which the HTTP front reaches directly.
      if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
        money.settleDue();
        return control(request);
      }
      return answerFetchRequest(pipeline, request);
    },
    clock: {
      now: () => engine.clock.now(),
      advance(ms) {
        keysAdvanceCheck(engine, ms);
        const now = engine.clock.advance(ms);
        money.resume();
        engine.webhooks.pump(); // due retries go out before advance returns
        return now;
      },
    },
    accountClock: (apiKey) => ({
      now: () => nowOf(engine, storeOf(engine, apiKey)),
      advance(ms) {
        const account = storeOf(engine, apiKey);
        const problem = advanceProblem(ms, nowOf(engine, account));
        if (problem) refuse(400, `the clock of API key ${apiKey}: ${problem}`);
        account.clockOffsetMs += ms;
        money.resume();
        engine.webhooks.pump(); // its due retries go out before advance returns
        return nowOf(engine, account);
      },
    }),
    putAccount: (apiKey, settings) => accounts.put(apiKey, settings),
    getAccount: (apiKey) => accounts.get(apiKey),
    deleteAccount: (apiKey) => accounts.delete(apiKey),
    setRates(rates) {
      const merged = mergedRates(engine.state.rates, rates, check);
      engine.state.rates = merged;
      return structuredClone(merged);
    },
    settings: settings.read,
    putSettings: settings.put,
    snapshot: () => structuredClone({ ...engine.state, clock: engine.clock.state() }) as SandboxState,
    accountState: (apiKey) => {
      const store = ownEntry(engine.state.accounts, apiKey);
      return store && (structuredClone(store) as SandboxAccountStore);
    },
    restoreAccount(apiKey, saved) {
      const store = checkedStore(engine.state, apiKey, saved);
      // The generator moves past the store's quote ids (it may come from another sandbox), so new ones cannot collide.
      engine.state.ids.counter = Math.max(engine.state.ids.counter, highestQuoteCounter(store));
      engine.webhooks.forget(apiKey);
      setOwnEntry(engine.state.accounts, apiKey, store);
      engine.webhooks.restoredKey(apiKey);
      money.resume();
    },
    restore: restores.copied,
    choices: SANDBOX_CHOICES,
    deposit: money.deposit,
    settleWithdrawal: money.settleWithdrawal,
    webhooks: { list: (apiKey) => engine.webhooks.list(apiKey), settled: () => engine.webhooks.settled() },
  };
  const control = createControl(sandbox, engine, { ...options, restoreInTurns: restores.inTurns });
  keepPipeline(sandbox, pipeline, engine);
  handedOverRestores.set(sandbox, restores.handedOver);
  for (const [apiKey, settings] of Object.entries(options.accounts ?? {})) accounts.put(apiKey, settings);
  return sandbox;
}
