// What the sandbox trades: its currencies, its trade pairs and its rates. The defaults are read from the
// contract's documented examples (generated/openapi.json), never copied by hand, so the sandbox's catalogue is
// the one the docs, the mock and the client tests show (choices.ts, "catalogue"). A configured catalogue or rate
// is checked against the contract's schemas before it is used: the sandbox answers only what the contract allows.
import type { FiatRateSetting, SandboxRates } from "../../generated/sandbox-control.js";
import type { components } from "../../generated/schema.js";
import { SchemaCompiler } from "../contract/schemas.js";
import { documentedAnswer } from "../pipeline/answers.js";
import { isObject, listOperations, type OpenApiDocument, type Operation, successKey } from "../openapi/document.js";
import { DEFAULT_DECIMAL_PLACES, MAX_DECIMAL_PLACES, MAX_MINOR_UNITS } from "./rules.js";

export type Currency = components["schemas"]["Currency"];
export type Pair = components["schemas"]["Pair"];
export type ActiveNetworkEntry = components["schemas"]["ActiveNetworkEntry"];
export type WithdrawalNetwork = components["schemas"]["WithdrawalNetwork"];

export interface Catalogue {
  currencies: Currency[];
  pairs: Pair[];
  /** Get Active Networks' data: each currency's networks with their fees, minimums and isReceivable. */
  networks: Record<string, ActiveNetworkEntry>;
  /** Get Withdrawal Currency Networks' data by currency code: each network's addressRegex, fee and minimum. */
  withdrawalNetworks: Record<string, WithdrawalNetwork[]>;
}

const operationsOf = new WeakMap<OpenApiDocument, Operation[]>();

/** The body (an envelope) of `operationId`'s first documented success example. */
export function exampleBody(spec: OpenApiDocument, operationId: string): Record<string, unknown> {
  let operations = operationsOf.get(spec);
  if (!operations) {
    operations = listOperations(spec);
    operationsOf.set(spec, operations);
  }
  const operation = operations.find((candidate) => candidate.operationId === operationId);
  if (!operation) throw new Error(`sandbox: the contract has no operation ${operationId}`);
  const answer = documentedAnswer(spec, operation, Number(successKey(operation) ?? 200));
  if (!answer || !isObject(answer.body)) throw new Error(`sandbox: ${operationId} documents no success example`);
  return answer.body;
}

/** The `data` of `operationId`'s first documented success example. */
export const exampleData = (spec: OpenApiDocument, operationId: string): unknown => exampleBody(spec, operationId).data;

/** A copy of a documented value (a default must never be changed through a sandbox's state). */
const copyOf = <T>(value: unknown): T => structuredClone(value) as T;

/** The contract's examples; Get Withdrawal Currency Networks' example is USDT's, its base code's (its name says). */
export function defaultCatalogue(spec: OpenApiDocument): Catalogue {
  return {
    currencies: copyOf<Currency[]>(exampleData(spec, "getCurrencies")),
    pairs: [copyOf<Pair>(exampleData(spec, "getTradePair"))],
    networks: copyOf<Record<string, ActiveNetworkEntry>>(exampleData(spec, "getActiveNetworks")),
    withdrawalNetworks: {
      [baseCodeOf(spec)]: copyOf<WithdrawalNetwork[]>(exampleData(spec, "getWithdrawalCurrencyNetworks")),
    },
  };
}

export function defaultRates(spec: OpenApiDocument): SandboxRates {
  const fiat = (exampleData(spec, "getFiatRates") as FiatRateSetting[]).map(({ currency, buyRate, sellRate }) => ({
    currency,
    buyRate,
    sellRate,
  }));
  const quote = exampleData(spec, "createQuote") as components["schemas"]["Quote"];
  return { fiat, dollar: { [quote.sourceCode]: quote.sourceDollarRate, [quote.targetCode]: quote.targetDollarRate } };
}

/** The available balance of each documented wallet (Get My Wallets' example), by currency code. */
export function documentedBalances(spec: OpenApiDocument): Record<string, number> {
  const wallets = exampleData(spec, "getMyWallets") as components["schemas"]["Wallet"][];
  const balances: Record<string, number> = {};
  for (const wallet of wallets) if (wallet.currency) balances[wallet.currency.code] ??= wallet.availableBalance;
  return balances;
}

/** The currency a code or an id names (both are seen in Create Quote), or undefined. */
export function findCurrency(catalogue: Catalogue, codeOrId: string): Currency | undefined {
  return (
    catalogue.currencies.find((currency) => currency.code === codeOrId) ??
    catalogue.currencies.find((currency) => currency.id === codeOrId)
  );
}

/** The code every fiat rate is against (the FiatRate schema's `base` constant: USDT). */
export function baseCodeOf(spec: OpenApiDocument): string {
  const schema = spec.components?.schemas?.FiatRate as { properties?: { base?: { const?: unknown } } } | undefined;
  const base = schema?.properties?.base?.const;
  if (typeof base !== "string") throw new Error("sandbox: the contract's FiatRate has no constant base");
  return base;
}

/** The catalogue pair joining two currency codes, in either order. */
export function pairJoining(catalogue: Catalogue, a: string, b: string): Pair | undefined {
  return catalogue.pairs.find(
    (pair) => (pair.source.code === a && pair.target.code === b) || (pair.source.code === b && pair.target.code === a),
  );
}

/** Which network names a currency the catalogue lacks (deposits and withdrawals need its wallet), or undefined. */
export function networkCurrencyProblem(catalogue: Catalogue): string | undefined {
  const codes = new Set(catalogue.currencies.map((currency) => currency.code));
  const stray = [...Object.keys(catalogue.networks), ...Object.keys(catalogue.withdrawalNetworks)].find(
    (code) => !codes.has(code),
  );
  return stray === undefined ? undefined : `networks of ${stray}, a currency the catalogue lacks`;
}

export const decimalsOf = (currency: Currency): number => currency.maximumDecimalPlaces ?? DEFAULT_DECIMAL_PLACES;

/** The largest amount of `currency` the sandbox takes (MAX_MINOR_UNITS minor units), written out. */
export const largestAmountOf = (currency: Currency): string =>
  (MAX_MINOR_UNITS / 10 ** decimalsOf(currency)).toFixed(decimalsOf(currency));

/** "more than…" when `amount` is beyond the largest amount of `currency` or has more decimals than it takes. */
export function excessOf(amount: number, currency: Currency): string | undefined {
  const decimals = decimalsOf(currency);
  if (Math.abs(amount) * 10 ** decimals > MAX_MINOR_UNITS)
    return `more than ${largestAmountOf(currency)} ${currency.code}, the most the sandbox keeps exact`;
  if (Number.isInteger(amount)) return undefined; // a whole amount has no decimals (no text to write out)
  if (Number(amount.toFixed(decimals)) === amount) return undefined;
  return `more than ${decimals} decimals, the most ${currency.code} takes`;
}

/** The dollar rate of a currency: configured, else 1 / its fiat sellRate to 8 decimals (choices.ts, "catalogue"). */
export function dollarRateOf(rates: SandboxRates, currency: Currency): number | undefined {
  const configured = rates.dollar[currency.code];
  if (configured !== undefined) return configured;
  const fiat = rates.fiat.find((candidate) => candidate.currency === currency.code);
  return fiat ? Number((1 / fiat.sellRate).toFixed(8)) : undefined;
}

/** Checks configured catalogue entries, rates and collection customers against the contract's schemas. */
export interface CatalogueCheck {
  /** What is wrong with `catalogue`, or undefined. */
  catalogueProblem(catalogue: {
    currencies?: unknown[];
    pairs?: unknown[];
    networks?: Record<string, unknown>;
    withdrawalNetworks?: Record<string, unknown[]>;
  }): string | undefined;
  /** What is wrong with an account's collection customers (each a CollectionCustomer of the contract), or undefined. */
  collectionCustomersProblem(customers: readonly unknown[]): string | undefined;
  /** What is wrong with `rates` (either part may be absent), or undefined. */
  ratesProblem(rates: { fiat?: unknown; dollar?: unknown }): string | undefined;
}

// Number.isFinite is false for anything but a finite number (it converts nothing), so no typeof check is needed.
const positive = (value: unknown): boolean => Number.isFinite(value) && (value as number) > 0;

/** A network's addressRegex or memoRegex that is no regular expression (a withdrawal or an address would throw). */
function patternProblem(code: string, networks: readonly WithdrawalNetwork[]): string | undefined {
  for (const network of networks)
    for (const field of ["addressRegex", "memoRegex"] as const) {
      const pattern = network[field];
      if (typeof pattern !== "string") continue;
      try {
        new RegExp(pattern);
      } catch (error) {
        const why = (error as Error).message;
        return `withdrawalNetworks of ${code}: ${network.code}'s ${field} is not a regular expression (${why})`;
      }
    }
  return undefined;
}

/** A currency whose decimal places the sandbox cannot count in exactly ("money.exact"), named. */
const decimalsProblem = (currencies: readonly Currency[]): string | undefined =>
  currencies
    .filter(({ maximumDecimalPlaces: places }) => places !== undefined && (places < 0 || places > MAX_DECIMAL_PLACES))
    .map(({ code }) => `currency ${code}: maximumDecimalPlaces must be from 0 to ${MAX_DECIMAL_PLACES}`)[0];

export function createCatalogueCheck(spec: OpenApiDocument): CatalogueCheck {
  let compiler: SchemaCompiler | undefined;
  const schemaProblem = (name: string, values: unknown[] | undefined): string | undefined => {
    for (const [index, value] of (values ?? []).entries()) {
      compiler ??= new SchemaCompiler(spec);
      const [error] = compiler.validate(name, { $ref: `#/components/schemas/${name}` }, value);
      if (error) return `${name} ${index}: ${error.message}`; // the message starts with its pointer
    }
    return undefined;
  };
  const fiatCodes = (spec.components?.schemas?.FiatCurrency as { enum?: string[] } | undefined)?.enum ?? [];
  const fiatProblem = (entry: unknown): string | undefined => {
    if (!isObject(entry) || !fiatCodes.includes(String(entry.currency)))
      return `a fiat rate's currency must be one of ${fiatCodes.join(", ")}`;
    return positive(entry.buyRate) && positive(entry.sellRate) ? undefined : "buyRate and sellRate must be above 0";
  };
  return {
    catalogueProblem: (catalogue) =>
      schemaProblem("Currency", catalogue.currencies) ??
      decimalsProblem((catalogue.currencies ?? []) as Currency[]) ??
      schemaProblem("Pair", catalogue.pairs) ??
      schemaProblem("ActiveNetworkEntry", Object.values(catalogue.networks ?? {})) ??
      // A currency's withdrawal networks are a list (Get Withdrawal Currency Networks answers it as its data).
      Object.entries(catalogue.withdrawalNetworks ?? {})
        .map(([code, networks]) =>
          Array.isArray(networks)
            ? (schemaProblem("WithdrawalNetwork", networks) ?? patternProblem(code, networks as WithdrawalNetwork[]))
            : `withdrawalNetworks of ${code} must be a list of WithdrawalNetwork`,
        )
        .find((problem) => problem !== undefined),
    collectionCustomersProblem: (customers) => schemaProblem("CollectionCustomer", [...customers]),
    ratesProblem({ fiat, dollar }) {
      if (fiat !== undefined) {
        if (!Array.isArray(fiat)) return "fiat must be a list of fiat rates";
        const problem = fiat.map(fiatProblem).find((found) => found !== undefined);
        if (problem) return problem;
      }
      if (dollar === undefined) return undefined;
      if (!isObject(dollar) || !Object.values(dollar).every(positive))
        return "dollar must map currency codes to rates above 0";
      return undefined;
    },
  };
}
