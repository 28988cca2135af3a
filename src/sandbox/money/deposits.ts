// A simulated incoming payment (the control API's POST /_sandbox/deposits, `sandbox.deposit`): to one of the
// account's deposit addresses, or to its address of a receivable currency and network. It makes a CREDIT/DEPOSIT
// transaction whose deposit is CONFIRMED at once, credits the wallet with the amount less the network's deposit
// fee, and sends the DEPOSIT webhook (choices.ts, "deposits").
import { dollarRateOf, excessOf } from "../catalogue.js";
import { DEPOSIT_REFUSAL } from "../rules.js";
import { type Engine, nowOf } from "../engine.js";
import { uuid } from "../ids.js";
import {
  type AccountRecord,
  creditProblem,
  ownEntry,
  postTransaction,
  type TransactionRecord,
  toMinor,
} from "../state.js";
import { currencyOf } from "../views.js";
import { addressFor, receivableNetwork } from "./addresses.js";
import { chainHash, feeMinor } from "./generate.js";
import { SandboxRefusal } from "../refusal.js";
import { webhookPayload } from "./views.js";

/** A simulated deposit: to `address`, or to the account's address of `currency` on `network`. */
export interface SandboxDepositRequest {
  apiKey: string;
  address?: string;
  currency?: string;
  network?: string;
  amount: number;
  /** The on-chain hash; default: one the sandbox makes up. */
  hash?: string;
}

const invalid = (message: string) => new SandboxRefusal(DEPOSIT_REFUSAL.invalid, message);

/** An address of an account: one it was given, or the one a deposit to a currency and network makes. */
type DepositAddress = ReturnType<typeof addressFor>;

/**
 * Where the deposit is paid: the account's address named, or the latest of the currency and network; none yet
 * when the account has none there (the deposit makes it, once nothing refuses it).
 */
function destinationOf(
  engine: Engine,
  account: AccountRecord,
  request: SandboxDepositRequest,
): { currency: string; network: string; address?: DepositAddress } {
  if (request.address !== undefined) {
    const address = account.addresses.find((candidate) => candidate.value === request.address);
    if (!address) throw invalid(`the account of ${request.apiKey} was given no deposit address ${request.address}`);
    const { currency, network } = request;
    if ((currency ?? address.currency) !== address.currency || (network ?? address.network) !== address.network)
      throw invalid(`${address.value} is an address of ${address.currency} on ${address.network}`);
    return { currency: address.currency, network: address.network, address };
  }
  const { currency, network } = request;
  if (currency === undefined || network === undefined)
    throw invalid("a deposit needs address, or currency and network");
  const active = receivableNetwork(engine.state.catalogue, currency, network);
  if (typeof active === "string") throw invalid(active);
  const latest = [...account.addresses]
    .reverse()
    .find((address) => address.currency === currency && address.network === network);
  return { currency, network, address: latest };
}

/** Makes the deposit; throws a SandboxRefusal (a RangeError) saying why it cannot. */
export function makeDeposit(engine: Engine, request: SandboxDepositRequest) {
  const account = ownEntry(engine.state.accounts, request.apiKey);
  if (!account)
    throw new SandboxRefusal(DEPOSIT_REFUSAL.noAccount, `no sandbox account for the API key ${request.apiKey}`);
  const destination = destinationOf(engine, account, request);
  const { network } = destination;
  const currency = currencyOf(engine, destination.currency);
  const { amount } = request;
  if (typeof amount !== "number" || !(amount > 0) || !Number.isFinite(amount))
    throw invalid("amount must be a number above 0");
  const excess = excessOf(amount, currency);
  if (excess) throw invalid(`amount has ${excess}`);
  const active = engine.state.catalogue.networks[currency.code]?.networks.find((n) => n.networkCode === network);
  if (active && amount < active.minimumDeposit)
    throw invalid(`the minimum deposit of ${currency.code} on ${network} is ${active.minimumDeposit}`);
  if ((currency.maximumDeposit ?? 0) > 0 && amount > currency.maximumDeposit!)
    throw invalid(`the maximum deposit of ${currency.code} is ${currency.maximumDeposit}`);
  const amountMinor = toMinor(amount, currency);
  const fee = active ? feeMinor(amountMinor, currency, { fee: active.depositFee, type: active.receiveFeeType }) : 0;
  if (fee > amountMinor) throw invalid(`the deposit fee of ${currency.code} on ${network} is above the amount`);
  const wallet = account.wallets.find((candidate) => candidate.code === currency.code);
  const beyond = wallet && creditProblem(account, wallet, amountMinor - fee, currency);
  if (beyond) throw invalid(beyond);
  // Made only now: a refused deposit leaves the state as it was (no address, no id drawn).
  const address = destination.address ?? addressFor(engine, account, { currency: destination.currency, network });
  const now = nowOf(engine, account);
  const { ids } = engine.state;
  const transaction: TransactionRecord = {
    id: uuid(ids),
    createdAt: now,
    reference: uuid(ids),
    description: `${currency.code} deposit on ${address.network}`,
    narration: null,
    type: "CREDIT",
    category: "DEPOSIT",
    walletCode: currency.code,
    amountMinor,
    deposit: {
      id: uuid(ids),
      hash: request.hash ?? chainHash(ids),
      network: address.network,
      address: address.value,
      dollarRate: dollarRateOf(engine.state.rates, currency) ?? 0,
      feeMinor: fee,
    },
  };
  postTransaction(account, transaction);
  engine.notify(request.apiKey, transaction.id, webhookPayload(engine, account, transaction));
  return { account, transaction };
}
