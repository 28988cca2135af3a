// The collection operations, which need a Business account (the description says so): refused to any other
// account; a Business account's collection customers are those its settings gave it (choices.ts, "accounts.business"),
// paged in the register's list order.
import { REFUSAL_STATUS } from "../rules.js";
import {
  type AccountCall,
  answered,
  type Handler,
  pageItems,
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

/** The account's collection customers, oldest (first put) first. */
const customersOf = (call: AccountCall) => call.account.collectionCustomers;

const getCollectionCustomers = businessOnly((call) => {
  const page = pageOf(call.request);
  const customers = customersOf(call);
  return answered(call, pageItems(customers, page), pageMeta(call, page, customers.length));
});

const getCollectionCustomer = businessOnly((call) => {
  const { id } = call.request.params;
  const customer = customersOf(call).find((candidate) => candidate.id === id);
  if (customer) return answered(call, customer);
  return refuse(REFUSAL_STATUS.notFound, `no collection customer ${id} was found for this API key`);
});

/** What this module answers, the refusals it answers with, the register entries it applies (operations/index.ts). */
export const collectionOperations: OperationModule = {
  handlers: { getCollectionCustomers, getCollectionCustomer },
  refusals: ["notBusiness", "notFound", "invalidPage", "keylessAccountRead"],
  choices: ["accounts.business", "lists.pagination"],
};
