// What verify prepares on the package's sandbox so that every case finds what it names: the documented examples
// name ids that exist nowhere (a transaction, a collection customer) and values no catalogue has (currency
// "string", ETH on ETH), so a fresh sandbox refused 8 of the cases. Through the control API (createSandboxControl)
// verify makes an account of its own, a Business account with the documented collection customer and balances for
// the withdrawals, and a deposit to its address; it reads the sandbox's catalogue through the API as any client
// would (currencies, active networks, withdrawal networks) and builds bodies from it. The run then sends that
// account's key, with the deposit's transaction id as a path value and those bodies for the positive cases (the
// negative ones break one rule of them). The account is deleted at the end of the run; no other key is touched.
import {
  isObject,
  type JsonObject,
  jsonMedia,
  namedExamples,
  type OpenApiDocument,
  type Operation,
} from "../openapi/document.js";
import { createSandboxControl } from "../sandbox/control-client.js";

/** An API request of the set-up, answered with the body's JSON (any other status than 200 throws). */
export type SetupRequest = (method: "GET" | "POST", path: string, apiKey: string, body?: unknown) => Promise<unknown>;

export interface SandboxSetup {
  /** The key of verify's own account: the run sends it from now on. */
  apiKey: string;
  /** Path values: the transaction id of the deposit made. */
  params: Record<string, string>;
  /** The body of each positive case that needs real values, by operationId. */
  bodies: Record<string, unknown>;
  /** What was prepared, in one line. */
  summary: string;
  /** Deletes verify's account (the end of the run). */
  cleanUp(): Promise<void>;
}

interface SetupOptions {
  baseUrl: string;
  /** The sandbox's control token (--token), if it has one. */
  token?: string;
  request: SetupRequest;
}

/** A currency of Get Currencies, as far as the set-up reads it. */
interface CurrencyFacts {
  id: string;
  code: string;
  type?: string;
  withdrawable?: boolean;
  minimumWithdrawal?: number;
}

/** A network of Get Active Networks, as far as the set-up reads it. */
interface ActiveNetwork {
  networkCode: string;
  minimumDeposit?: number;
  minimumWithdrawal?: number;
  isReceivable?: boolean;
  isWithdrawable?: boolean;
}

/** The `data` of an answer's envelope. */
const dataOf = (body: unknown): unknown => (isObject(body) ? body.data : undefined);

/** The first documented example of `operationId`'s request body (JSON), or of its 200 answer's `data`. */
function documented(spec: OpenApiDocument, operations: Operation[], operationId: string, part: "body" | "answer") {
  const operation = operations.find((candidate) => candidate.operationId === operationId);
  const media = part === "body" ? jsonMedia(operation?.requestBody) : jsonMedia(operation?.responses["200"]);
  const [first] = namedExamples(spec, media);
  const value = part === "body" ? first?.value : dataOf(first?.value);
  if (!isObject(value)) throw new Error(`the contract documents no ${part} example of ${operationId}`);
  return value;
}

/** The larger of the minimums given (a withdrawal must reach each), at least 1. */
const atLeast = (...minimums: Array<number | undefined>): number => Math.max(1, ...minimums.map((m) => m ?? 0));

/** A crypto currency and network the sandbox takes deposits on and withdrawals from, with its minimum. */
async function cryptoRoute(request: SetupRequest, apiKey: string, currencies: CurrencyFacts[]) {
  const active = dataOf(await request("GET", "/currencies/networks/active", apiKey));
  for (const currency of currencies.filter((c) => c.type !== "FIAT" && c.withdrawable !== false)) {
    const entry = isObject(active) ? active[currency.code] : undefined;
    const networks = (isObject(entry) && Array.isArray(entry.networks) ? entry.networks : []) as ActiveNetwork[];
    const network = networks.find((n) => n.isReceivable !== false && n.isWithdrawable !== false);
    if (!network) continue;
    const path = `/currencies/${encodeURIComponent(currency.id)}/networks`;
    const withdrawal = dataOf(await request("GET", path, apiKey)) as Array<{ code?: string; minimum?: number }>;
    const route = withdrawal.find((candidate) => candidate.code === network.networkCode);
    if (!route) continue;
    const amount = atLeast(currency.minimumWithdrawal, network.minimumWithdrawal, route.minimum);
    return { currency, network, amount, deposit: atLeast(network.minimumDeposit) };
  }
  throw new Error("the sandbox's catalogue has no crypto currency with a network for deposits and withdrawals");
}

/** A FIAT currency a bank withdrawal pays out, with its minimum. */
function fiatRoute(currencies: CurrencyFacts[]) {
  const currency = currencies.find((c) => c.type === "FIAT" && c.withdrawable !== false);
  if (!currency) throw new Error("the sandbox's catalogue has no FIAT currency to withdraw to a bank");
  return { currency, amount: atLeast(currency.minimumWithdrawal) };
}

/** Prepares verify's account on the sandbox at `baseUrl` (see the top of this file). */
export async function prepareSandbox(spec: OpenApiDocument, operations: Operation[], options: SetupOptions) {
  const { request } = options;
  const control = createSandboxControl({ baseUrl: options.baseUrl, token: options.token });
  const apiKey = `api-contract-verify-${crypto.randomUUID().slice(0, 8)}`;
  const customer = documented(spec, operations, "getCollectionCustomer", "answer");
  const account = { business: true, collectionCustomers: [{ ...customer, id: String(customer.id) }] };
  await control.putAccount(apiKey, account);
  try {
    const currencies = dataOf(await request("GET", "/currencies", apiKey)) as CurrencyFacts[];
    const crypto = await cryptoRoute(request, apiKey, currencies);
    const fiat = fiatRoute(currencies);
    // Enough for every withdrawal the run asks for (a hundred of each), fees included.
    const balances = { [crypto.currency.code]: crypto.amount * 100, [fiat.currency.code]: fiat.amount * 100 };
    await control.putAccount(apiKey, { ...account, balances });
    const where = { currency: crypto.currency.code, network: crypto.network.networkCode };
    const addressBody = { ...documented(spec, operations, "createDepositAddress", "body"), ...where };
    const address = dataOf(await request("POST", "/addresses/broker", apiKey, addressBody)) as { value: string };
    const deposit = await control.deposit({ apiKey, address: address.value, amount: crypto.deposit });
    return {
      apiKey,
      params: { [transactionParameter(operations)]: deposit.id },
      bodies: setupBodies(spec, operations, { addressBody, address: address.value, crypto, fiat, deposit: deposit.id }),
      summary:
        `an account of its own (${apiKey}: Business, one collection customer, ${crypto.currency.code} and ` +
        `${fiat.currency.code} to withdraw) and a deposit of ${crypto.deposit} ${crypto.currency.code} ` +
        `on ${crypto.network.networkCode} (transaction ${deposit.id})`,
      cleanUp: async () => void (await control.deleteAccount(apiKey)),
    } satisfies SandboxSetup;
  } catch (error) {
    await control.deleteAccount(apiKey).catch(() => undefined);
    throw error;
  }
}

/** The name of Get Transaction's path parameter (transactionId), which Resend Transaction Webhook shares. */
function transactionParameter(operations: Operation[]): string {
  const operation = operations.find((candidate) => candidate.operationId === "getTransaction");
  return String(operation?.parameters.find((parameter) => parameter.in === "path")?.name ?? "transactionId");
}

/** The bodies of the positive cases, from their documented examples with the sandbox's real values. */
function setupBodies(
  spec: OpenApiDocument,
  operations: Operation[],
  made: {
    addressBody: JsonObject;
    address: string;
    crypto: Awaited<ReturnType<typeof cryptoRoute>>;
    fiat: ReturnType<typeof fiatRoute>;
    deposit: string;
  },
): Record<string, unknown> {
  const example = (operationId: string) => documented(spec, operations, operationId, "body");
  const crypto = example("requestCryptoWithdrawal");
  const bank = example("requestBankWithdrawal");
  return {
    createDepositAddress: made.addressBody,
    requestCryptoWithdrawal: {
      ...crypto,
      destination: {
        ...(crypto.destination as JsonObject),
        address: made.address,
        network: made.crypto.network.networkCode,
      },
      amount: made.crypto.amount,
      currency: made.crypto.currency.code,
    },
    requestBankWithdrawal: { ...bank, amount: made.fiat.amount, currency: made.fiat.currency.code },
    resendWebhooks: { ids: [made.deposit] },
  };
}
