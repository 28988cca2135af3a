// Request Crypto Withdrawal and Request Bank Account Withdrawal: the destination checked against the catalogue
// (a crypto address against its network's addressRegex and memoRegex; the minimums, maximums and fees of the
// currency and network), the balance against the amount and the fee, then the withdrawal recorded in its first
// state (money/withdrawals.ts). Each refusal leaves the state as it was; its status is the register's.
import type { components } from "../../../generated/schema.js";
import { type Currency, dollarRateOf, excessOf, findCurrency } from "../catalogue.js";
import { DOLLAR_VALUE_DECIMALS, REFUSAL_STATUS } from "../rules.js";
import { type AccountCall, answered, type Engine, withAccount, type OperationModule } from "../engine.js";
import { refuse } from "../refusal.js";
import { uuid } from "../ids.js";
import { withdrawalNetworkOf } from "../money/addresses.js";
import { type FeeTerms, feeMinor } from "../money/generate.js";
import { cryptoWithdrawalView, bankWithdrawalView } from "../money/views.js";
import { recordWithdrawal, type WithdrawalTerms } from "../money/withdrawals.js";
import { type AccountRecord, fromMinor, roundAt15Digits, toMinor, type WithdrawalDestination } from "../state.js";

type CryptoRequest = components["schemas"]["CryptoWithdrawalRequest"];
type BankRequest = components["schemas"]["BankWithdrawalRequest"];

const notWithdrawable = (why: string) => refuse(REFUSAL_STATUS.notWithdrawable, why);
const invalid = (why: string) => refuse(REFUSAL_STATUS.invalidWithdrawal, why);

/** Why `amount` of `currency` is no withdrawal of at least `minimum` (at most the currency's maximum), or undefined. */
function amountProblem(currency: Currency, amount: number, minimum: number) {
  if (!(amount > 0)) return invalid("amount must be above 0");
  const excess = excessOf(amount, currency);
  if (excess) return invalid(`amount has ${excess}`);
  if (amount < minimum) return invalid(`the minimum withdrawal of ${currency.code} here is ${minimum}`);
  const maximum = currency.maximumWithdrawal ?? 0;
  if (maximum > 0 && amount > maximum) return invalid(`the maximum withdrawal of ${currency.code} is ${maximum}`);
  return undefined;
}

/** The terms of a withdrawal of `amount` with `fee`, or the refusal of a balance that does not cover both. */
function termsOf(
  engine: Engine,
  account: AccountRecord,
  request: { currency: Currency; amount: number; fee: FeeTerms },
) {
  const { currency, amount, fee } = request;
  const amountMinor = toMinor(amount, currency);
  const fees = feeMinor(amountMinor, currency, fee);
  const wallet = account.wallets.find((candidate) => candidate.code === currency.code);
  if (!wallet || wallet.balanceMinor < amountMinor + fees)
    return refuse(
      REFUSAL_STATUS.balanceTooLow,
      `balance too low: the ${currency.code} wallet holds ${fromMinor(wallet?.balanceMinor ?? 0, currency)}, ` +
        `the withdrawal needs ${amount} and a fee of ${fromMinor(fees, currency)}`,
    );
  const scale = 10 ** DOLLAR_VALUE_DECIMALS;
  const dollarValue = roundAt15Digits(amount * (dollarRateOf(engine.state.rates, currency) ?? 0) * scale) / scale;
  const bitcoinRate = engine.state.rates.dollar.BTC;
  const bitcoinValue = bitcoinRate ? Number((dollarValue / bitcoinRate).toFixed(8)) : 0;
  return { currency: currency.code, amountMinor, feeMinor: fees, dollarValue, bitcoinValue };
}

/** The withdrawable catalogue currency of `code`, or its refusal. */
function withdrawableCurrency(engine: Engine, code: string) {
  const currency = findCurrency(engine.state.catalogue, code);
  if (!currency || currency.code !== code)
    return notWithdrawable(`${code} is no currency code of the sandbox's catalogue`);
  if (currency.withdrawable === false) return notWithdrawable(`${code} is not withdrawable`);
  return currency;
}

/** The checked terms of a crypto withdrawal, or its refusal. */
function cryptoTerms(engine: Engine, account: AccountRecord, body: CryptoRequest) {
  const currency = withdrawableCurrency(engine, body.currency);
  const { address, network: code, memo } = body.destination;
  const network = withdrawalNetworkOf(engine.state.catalogue, currency.code, code);
  if (!network) return notWithdrawable(`${currency.code} cannot be withdrawn on ${code} in the sandbox`);
  const active = engine.state.catalogue.networks[currency.code]?.networks.find((n) => n.networkCode === code);
  if (active && !active.isWithdrawable) return notWithdrawable(`${currency.code} on ${code} is not withdrawable`);
  if (!new RegExp(network.addressRegex).test(address))
    return invalid(`${address} is no ${code} address (addressRegex ${network.addressRegex})`);
  if (memo !== undefined && memo !== "" && network.memoRegex && !new RegExp(network.memoRegex).test(memo))
    return invalid(`the memo does not match ${code}'s memoRegex ${network.memoRegex}`);
  const minimum = Math.max(network.minimum, currency.minimumWithdrawal ?? 0);
  const problem = amountProblem(currency, body.amount, minimum);
  if (problem) return problem;
  const fee = { fee: network.fee, type: network.feeType };
  const terms = termsOf(engine, account, { currency, amount: body.amount, fee });
  const destination: WithdrawalDestination = { kind: "crypto", address, network: code };
  if (memo !== undefined) destination.memo = memo;
  return { ...terms, destination, narration: body.narration ?? null } satisfies WithdrawalTerms;
}

const requestCryptoWithdrawal = withAccount((call: AccountCall) => {
  const { engine, account } = call;
  const terms = cryptoTerms(engine, account, call.request.body as CryptoRequest);
  return answered(call, cryptoWithdrawalView(engine, account, recordWithdrawal(engine, account, terms)));
});

/** The checked terms of a bank withdrawal, or its refusal. */
function bankTerms(engine: Engine, account: AccountRecord, body: BankRequest) {
  const currency = withdrawableCurrency(engine, body.currency);
  if (currency.type !== "FIAT")
    return notWithdrawable(`a bank withdrawal pays out a FIAT currency, not ${currency.code}`);
  const problem = amountProblem(currency, body.amount, currency.minimumWithdrawal ?? 0);
  if (problem) return problem;
  const fee = {
    fee: currency.withdrawalFee ?? 0,
    type: currency.withdrawalFeeType ?? "FLAT",
    maximum: currency.maximumWithdrawalFee,
  };
  const terms = termsOf(engine, account, { currency, amount: body.amount, fee });
  const { accountNumber, accountName, bankName, bankCode, merchantCode } = body.destination;
  const bankAccountId = uuid(engine.state.ids);
  const destination: WithdrawalDestination = {
    kind: "bank",
    bankAccountId,
    accountNumber,
    accountName,
    bankName,
    bankCode,
  };
  if (merchantCode !== undefined) destination.merchantCode = merchantCode;
  return { ...terms, destination, narration: body.narration ?? null } satisfies WithdrawalTerms;
}

const requestBankWithdrawal = withAccount((call: AccountCall) => {
  const { engine, account } = call;
  const terms = bankTerms(engine, account, call.request.body as BankRequest);
  return answered(call, bankWithdrawalView(engine, account, recordWithdrawal(engine, account, terms)));
});

/** What this module answers, the refusals it answers with, the register entries it applies (operations/index.ts). */
export const withdrawalOperations: OperationModule = {
  handlers: { requestCryptoWithdrawal, requestBankWithdrawal },
  refusals: ["balanceTooLow", "invalidWithdrawal", "notWithdrawable", "keylessAccountRead"],
  choices: [
    "withdrawals.checks",
    "withdrawals.fees",
    "withdrawals.states",
    "withdrawals.settlement",
    "withdrawals.records",
    "accounts.keyless",
  ],
};
