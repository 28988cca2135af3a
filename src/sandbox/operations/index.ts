// The operations the sandbox models, one module each (operations/<x>.ts): every module declares the operations it
// answers, the refusals it answers with and the register entries it applies. The handler table and the list of
// operations the sandbox does not model are derived here from those and the contract, never written by hand.
import { openApiDocument } from "../../contract/bundled.js";
import { listOperations } from "../../openapi/document.js";
import type { Handler, OperationModule } from "../engine.js";
import { acceptQuoteOperation } from "./accept-quote.js";
import { catalogueOperations } from "./catalogue.js";
import { collectionOperations } from "./collections.js";
import { createQuoteOperation } from "./create-quote.js";
import { depositAddressOperations } from "./deposit-addresses.js";
import { networkOperations } from "./networks.js";
import { tradeOperations } from "./trades.js";
import { transactionOperations } from "./transactions.js";
import { walletOperations } from "./wallets.js";
import { webhookOperations } from "./webhooks.js";
import { withdrawalOperations } from "./withdrawals.js";

/** Every operation module of the sandbox. */
export const OPERATION_MODULES: readonly OperationModule[] = [
  catalogueOperations,
  createQuoteOperation,
  acceptQuoteOperation,
  walletOperations,
  transactionOperations,
  tradeOperations,
  collectionOperations,
  networkOperations,
  depositAddressOperations,
  withdrawalOperations,
  webhookOperations,
];

/** The modelled operations' handlers, by operationId. */
export const HANDLERS: Readonly<Record<string, Handler>> = Object.assign(
  {},
  ...OPERATION_MODULES.map((module) => module.handlers),
);

/** The contract's operations the sandbox does not model: they answer the documented example (by operationId). */
export const UNMODELLED_OPERATIONS: readonly string[] = listOperations(openApiDocument)
  .map((operation) => operation.operationId ?? "")
  .filter((id) => !Object.hasOwn(HANDLERS, id));
