// What a run of verify will spend on a deployment, worked out before it sends anything, for the command to announce:
// the requests of its cases and flows against the contract's limit for all requests, its Create Quote calls against
// that operation's own limit, the trades it may execute and the deposit addresses it makes. (It makes no deposit and
// no withdrawal on a deployment: the flows that do run only on the package's sandbox.)
import { isObject, listOperations, type OpenApiDocument } from "../openapi/document.js";
import { ownQuotaOf } from "./cases.js";
import { flowsSpend } from "./flows/index.js";
import { planVerification } from "./plan.js";
import type { VerifyOptions } from "./types.js";

/** A limit of the contract's x-rate-limits: so many requests per so many seconds. */
interface Limit {
  requests: number;
  seconds: number;
}

interface VerifyBudget {
  /** Requests at most: those of the cases that run, and of the flows. */
  requests: number;
  cases: number;
  flowRequests: number;
  flows: number;
  createQuotes: number;
  /** Trades of 1 unit at most (a flow whose target refuses as the register says executes none). */
  trades: number;
  addresses: number;
  /** The contract's limit for all requests of a key, and Create Quote's own. */
  allRequests: Limit | undefined;
  quotes: Limit | undefined;
}

/** ISO 8601 durations of the x-rate-limits windows the contract uses (PT1M, PT1H), in seconds. */
function seconds(window: unknown): number | undefined {
  const match = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$/.exec(String(window));
  if (!match) return undefined;
  return Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
}

/** A limit as an x-rate-limits entry states it, if it states one in requests and a window the contract uses. */
function limitOf(entry: unknown): Limit | undefined {
  if (!isObject(entry) || typeof entry.requests !== "number") return undefined;
  const window = seconds(entry.window);
  return window ? { requests: entry.requests, seconds: window } : undefined;
}

/** The contract's limit for all requests of a key (the entry every operation repeats), if it states one. */
function allRequestsLimit(spec: OpenApiDocument): Limit | undefined {
  for (const operation of listOperations(spec)) {
    const entries = operation.operation["x-rate-limits"];
    const all = (Array.isArray(entries) ? entries : []).find(
      (entry) => isObject(entry) && String(entry.appliesTo).toLowerCase() === "all api requests",
    );
    if (all) return limitOf(all);
  }
  return undefined;
}

/** What a run with `options` spends on a deployment at most. */
export function deploymentBudget(
  spec: OpenApiDocument,
  options: Pick<VerifyOptions, "allowSideEffects" | "params" | "flows" | "rules" | "secondApiKey" | "webhookSecret">,
): VerifyBudget {
  const running = planVerification(spec, { ...options, target: "deployment" }).filter((c) => !c.skip);
  const count = (operationId: string, kind?: "positive") =>
    running.filter((c) => c.operation.operationId === operationId && (!kind || c.kind === kind)).length;
  const operationIds = new Set(listOperations(spec).flatMap((operation) => operation.operationId ?? []));
  const fitness = {
    target: "deployment" as const,
    allowSideEffects: options.allowSideEffects ?? false,
    control: undefined,
    secondKey: options.secondApiKey,
    webhookSecret: options.webhookSecret,
  };
  const flows =
    options.flows === false
      ? { flows: 0, requests: 0, quotes: 0, trades: 0, addresses: 0 }
      : flowsSpend(fitness, operationIds, options.rules);
  const quoteOperation = listOperations(spec).find((operation) => operation.operationId === "createQuote");
  return {
    requests: running.length + flows.requests,
    cases: running.length,
    flowRequests: flows.requests,
    flows: flows.flows,
    createQuotes: count("createQuote") + flows.quotes,
    trades: count("acceptQuote", "positive") + flows.trades,
    addresses: count("createDepositAddress", "positive") + flows.addresses,
    allRequests: allRequestsLimit(spec),
    quotes: quoteOperation && limitOf(ownQuotaOf(quoteOperation)),
  };
}
