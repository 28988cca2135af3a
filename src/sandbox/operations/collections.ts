// The collection operations, which need a Business account (the description says so): refused to any other
// account; a Business account has no collection customers yet (choices.ts, "accounts.business").
import { REFUSAL_STATUS } from "../rules.js";
import {
  type AccountCall,
  answered,
  type Handler,
  pageMeta,
  pageOf,
  withAccount,
  type OperationModule,
} from "../engine.js";
import { refuse } from "../refusal.js";

const businessOnly = (handler: (call: AccountCall) => ReturnType<Handler>): Handler =>
  withAccount((call) =>
    call.account.business
      ? handler(call)
      : refuse(REFUSAL_STATUS.notBusiness, "the collection operations need a Business account"),
  );

const getCollectionCustomers = businessOnly((call) => {
  const page = pageOf(call.request);
  return answered(call, [], pageMeta(call, page, 0));
});

const getCollectionCustomer = businessOnly((call) =>
  refuse(REFUSAL_STATUS.notFound, `no collection customer ${call.request.params.id} was found for this API key`),
);

/** What this module answers, the refusals it answers with, the register entries it applies (operations/index.ts). */
export const collectionOperations: OperationModule = {
  handlers: { getCollectionCustomers, getCollectionCustomer },
  refusals: ["notBusiness", "notFound", "invalidPage", "keylessAccountRead"],
  choices: ["accounts.business", "lists.pagination"],
};
