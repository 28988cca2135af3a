// The collection operations, which need a Business account (the description says so): refused to any other
// account; a Business account has no collection customers yet (choices.ts, "accounts.business").
import { REFUSAL_STATUS } from "../choices.js";
import { type AccountCall, answered, type Handler, pageMeta, pageOf, refused, withAccount } from "../engine.js";

const businessOnly = (handler: (call: AccountCall) => ReturnType<Handler>): Handler =>
  withAccount((call) =>
    call.account.business
      ? handler(call)
      : refused(REFUSAL_STATUS.notBusiness, "the collection operations need a Business account"),
  );

export const getCollectionCustomers = businessOnly((call) => {
  const page = pageOf(call.request);
  if ("kind" in page) return page;
  return answered(call, [], pageMeta(call, page, 0));
});

export const getCollectionCustomer = businessOnly((call) =>
  refused(REFUSAL_STATUS.notFound, `no collection customer ${call.request.params.id} was found for this API key`),
);
