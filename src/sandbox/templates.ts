// The shapes of the sandbox's answers, taken from the contract's documented examples: an answer has exactly the
// fields its example has, each filled from the state where the state holds it and kept from the example where
// nothing stands behind it. So an answer never carries a field the contract's example does not show, and the
// envelope's message is the documented one. Read once per sandbox.
import { isObject, namedExamples, type OpenApiDocument } from "../openapi/document.js";
import { exampleBody, exampleData } from "./catalogue.js";

type JsonRecord = Record<string, unknown>;

/** `template`'s fields, each from `values` where it has the key, else the template's. */
export function shaped<T = JsonRecord>(template: JsonRecord, values: object): T {
  const given = values as JsonRecord;
  const out: JsonRecord = {};
  // for…in over the template's own keys, in Object.entries' order, without an array of pairs per answer.
  for (const key in template)
    if (Object.hasOwn(template, key)) out[key] = Object.hasOwn(given, key) ? given[key] : template[key];
  return out as T;
}

const first = (value: unknown): JsonRecord => (Array.isArray(value) ? value[0] : value) as JsonRecord;

export interface Templates {
  message: string;
  quote: JsonRecord;
  trade: JsonRecord;
  tradePair: JsonRecord;
  currencySummary: JsonRecord;
  /** A wallet with its currency (Get Wallet Balance, Get My Wallets). */
  wallet: JsonRecord;
  transaction: JsonRecord;
  /** The wallet inside a transaction (no currency). */
  transactionWallet: JsonRecord;
  pairSummary: JsonRecord;
  fiatRate: JsonRecord;
  pageMeta: JsonRecord;
  /** Create Deposit Address's answer, and an address as Get Deposit Addresses lists it. */
  createdAddress: JsonRecord;
  listedAddress: JsonRecord;
  /** A transaction with its deposit (List Deposits), with its payout (List Payouts). */
  depositTransaction: JsonRecord;
  payoutTransaction: JsonRecord;
  /** The withdrawal answers: a transaction with its wallet (crypto), with its payout (bank). */
  cryptoWithdrawal: JsonRecord;
  bankWithdrawal: JsonRecord;
  /** The webhook bodies, in the published samples' key order. */
  depositWebhook: JsonRecord;
  withdrawalWebhook: JsonRecord;
}

/** The first example body of the contract's webhook `name` (deposit, withdrawal). */
function webhookExample(spec: OpenApiDocument, name: string): JsonRecord {
  const webhooks = (spec as { webhooks?: Record<string, { post?: { requestBody?: { content?: object } } }> }).webhooks;
  const content = webhooks?.[name]?.post?.requestBody?.content as Record<string, unknown> | undefined;
  const [example] = namedExamples(spec, content?.["application/json"]);
  if (!isObject(example?.value)) throw new Error(`sandbox: the contract documents no ${name} webhook example`);
  return example.value;
}

export function readTemplates(spec: OpenApiDocument): Templates {
  const trade = exampleData(spec, "acceptQuote") as JsonRecord;
  const tradePair = trade.pair as JsonRecord;
  const transaction = first(exampleData(spec, "getUserTransactions"));
  return {
    message: String(exampleBody(spec, "createQuote").message),
    quote: exampleData(spec, "createQuote") as JsonRecord,
    trade,
    tradePair,
    currencySummary: tradePair.source as JsonRecord,
    wallet: exampleData(spec, "getWalletBalance") as JsonRecord,
    transaction,
    transactionWallet: transaction.wallet as JsonRecord,
    pairSummary: first(exampleData(spec, "getTradePairs")),
    fiatRate: first(exampleData(spec, "getFiatRates")),
    pageMeta: exampleBody(spec, "listDeposits").meta as JsonRecord,
    createdAddress: exampleData(spec, "createDepositAddress") as JsonRecord,
    listedAddress: first(exampleData(spec, "getDepositAddresses")),
    depositTransaction: first(exampleData(spec, "listDeposits")),
    payoutTransaction: first(exampleData(spec, "listPayouts")),
    cryptoWithdrawal: exampleData(spec, "requestCryptoWithdrawal") as JsonRecord,
    bankWithdrawal: exampleData(spec, "requestBankWithdrawal") as JsonRecord,
    depositWebhook: webhookExample(spec, "deposit"),
    withdrawalWebhook: webhookExample(spec, "withdrawal"),
  };
}
