// Deposit addresses, deposits, withdrawals and their webhooks as the contract shows them: each in the shape of
// its documented example or published sample (templates.ts), filled from the state. Written once here, read by
// the operations, the control API and webhook delivery alike.
import { iso } from "../clock.js";
import type { Engine, WebhookPayload } from "../engine.js";
import { type AccountRecord, type DepositAddressRecord, fromMinor, type TransactionRecord } from "../state.js";
import { shaped } from "../templates.js";
import { currencyOf, transactionFields, transactionView, walletOfTransaction, walletView } from "../views.js";
import { ACCOUNT_NUMBER_MASK, DEPOSIT_STATUS } from "../rules.js";

type JsonRecord = Record<string, unknown>;

/** An address's own fields; `purpose` is its identifier (or the account's userId) and its pair (choices.ts). */
function addressFields(engine: Engine, account: AccountRecord, address: DepositAddressRecord) {
  const identifier = address.identifier ?? account.userId;
  return {
    id: address.id,
    createdAt: iso(address.createdAt),
    updatedAt: iso(address.createdAt),
    active: true,
    value: address.value,
    reference: address.reference,
    network: address.network,
    memo: null,
    userId: account.userId,
    isMaster: address.identifier === undefined,
    purpose: `${identifier} ${address.currency}.${address.network}`,
    uniqueUserIdentifier: identifier,
    currencyId: currencyOf(engine, address.currency).id,
    deletedAt: null,
  };
}

/** An address as Create Deposit Address answers it. */
export const createdAddressView = (engine: Engine, account: AccountRecord, address: DepositAddressRecord): unknown =>
  shaped(engine.templates.createdAddress, addressFields(engine, account, address));

/** An address as Get Deposit Addresses lists it. */
export const listedAddressView = (engine: Engine, account: AccountRecord, address: DepositAddressRecord): unknown =>
  shaped(engine.templates.listedAddress, addressFields(engine, account, address));

/** A deposit transaction with its deposit, as List Deposits answers it. */
export function depositTransactionView(engine: Engine, account: AccountRecord, transaction: TransactionRecord) {
  const deposit = transaction.deposit!;
  const currency = currencyOf(engine, transaction.walletCode);
  const fields = transactionFields(engine, account, transaction);
  const template = engine.templates.depositTransaction;
  return shaped(template, {
    ...fields,
    deposit: shaped(template.deposit as JsonRecord, {
      id: deposit.id,
      createdAt: fields.createdAt,
      updatedAt: fields.updatedAt,
      active: true,
      hash: deposit.hash,
      network: deposit.network,
      dollarRate: deposit.dollarRate,
      status: DEPOSIT_STATUS,
      fee: fromMinor(deposit.feeMinor, currency),
      transactionId: transaction.id,
      destinationAddress: deposit.address,
    }),
  });
}

/** A bank withdrawal's payout fields; the account number masked in listings (choices.ts, "withdrawals.payouts"). */
function payoutFields(engine: Engine, transaction: TransactionRecord, masked: boolean) {
  const withdrawal = transaction.withdrawal!;
  const destination = withdrawal.destination;
  if (destination.kind !== "bank") throw new Error("sandbox: a payout is a bank withdrawal's");
  const currency = currencyOf(engine, transaction.walletCode);
  const [createdAt, updatedAt] = [iso(transaction.createdAt), iso(transaction.updatedAt ?? transaction.createdAt)];
  const { accountNumber } = destination;
  const bankAccount = {
    ...destination,
    id: destination.bankAccountId,
    createdAt,
    updatedAt: createdAt,
    active: true,
    accountNumber: masked ? `${ACCOUNT_NUMBER_MASK}${accountNumber.slice(-4)}` : accountNumber,
    payoutId: withdrawal.payoutId,
  };
  return {
    id: withdrawal.payoutId,
    createdAt,
    updatedAt,
    active: true,
    transferReference: withdrawal.transferReference,
    externalReference: withdrawal.externalReference,
    status: withdrawal.status,
    fee: fromMinor(withdrawal.feeMinor, currency),
    dollarValue: withdrawal.dollarValue,
    bitcoinValue: withdrawal.bitcoinValue,
    payoutAmount: fromMinor(transaction.amountMinor, currency),
    payoutCurrency: currency.code,
    transactionId: transaction.id,
    bankAccount,
  };
}

/** A bank withdrawal with its payout, shaped as `template` (an answer with a `payout` holding a bankAccount). */
function withPayoutView(
  template: JsonRecord,
  masked: boolean,
  engine: Engine,
  account: AccountRecord,
  transaction: TransactionRecord,
) {
  const payout = payoutFields(engine, transaction, masked);
  const payoutTemplate = template.payout as JsonRecord;
  return shaped(template, {
    ...transactionFields(engine, account, transaction),
    payout: shaped(payoutTemplate, {
      ...payout,
      bankAccount: shaped(payoutTemplate.bankAccount as JsonRecord, payout.bankAccount),
    }),
  });
}

/** A bank withdrawal with its payout, as List Payouts answers it (the account number masked). */
export const payoutTransactionView = (engine: Engine, account: AccountRecord, transaction: TransactionRecord) =>
  withPayoutView(engine.templates.payoutTransaction, true, engine, account, transaction);

/** A bank withdrawal with its payout, as Request Bank Account Withdrawal answers it. */
export const bankWithdrawalView = (engine: Engine, account: AccountRecord, transaction: TransactionRecord) =>
  withPayoutView(engine.templates.bankWithdrawal, false, engine, account, transaction);

/** A crypto withdrawal with its wallet (as it is now), as Request Crypto Withdrawal answers it. */
export function cryptoWithdrawalView(engine: Engine, account: AccountRecord, transaction: TransactionRecord) {
  return shaped(engine.templates.cryptoWithdrawal, {
    ...transactionFields(engine, account, transaction),
    wallet: walletView(engine, account, walletOfTransaction(account, transaction)),
  });
}

/**
 * The webhook of a deposit or withdrawal as it is now, in its published sample's key order. A bank withdrawal has
 * no network and its address is the account number (choices.ts, "webhooks.payloads").
 */
export function webhookPayload(engine: Engine, account: AccountRecord, transaction: TransactionRecord): WebhookPayload {
  const fields = transactionFields(engine, account, transaction);
  const common = {
    currency: transaction.walletCode,
    amount: fields.amount,
    reference: transaction.reference,
    transactionId: transaction.id,
    createdAt: fields.createdAt,
    lastUpdated: fields.updatedAt,
  };
  const { deposit, withdrawal } = transaction;
  if (deposit) {
    const values = { ...common, type: "DEPOSIT", status: DEPOSIT_STATUS, hash: deposit.hash, address: deposit.address };
    return shaped<WebhookPayload>(engine.templates.depositWebhook, values);
  }
  const destination = withdrawal!.destination;
  const crypto = destination.kind === "crypto";
  const payload = shaped<WebhookPayload>(engine.templates.withdrawalWebhook, {
    ...common,
    type: "WITHDRAWAL",
    status: withdrawal!.status,
    hash: withdrawal!.hash,
    network: crypto ? destination.network : undefined,
    address: crypto ? destination.address : destination.accountNumber,
  });
  if (!crypto) delete payload.network;
  return payload;
}

/** A transaction as Get Transaction answers it: with its wallet, and its deposit or (a bank withdrawal's) payout. */
export function transactionDetailView(engine: Engine, account: AccountRecord, transaction: TransactionRecord) {
  const view = transactionView(engine, account, transaction) as JsonRecord;
  if (transaction.deposit) view.deposit = (depositTransactionView(engine, account, transaction) as JsonRecord).deposit;
  if (transaction.withdrawal?.destination.kind === "bank")
    view.payout = (payoutTransactionView(engine, account, transaction) as JsonRecord).payout;
  return view;
}
