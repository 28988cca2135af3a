// Create Deposit Address and Get Deposit Addresses: an address per account, currency, network and customer
// identifier (uniqueUserIdentifier, or its former name purpose), only for a pair whose active network
// isReceivable, else refused (choices.ts, "addresses.*"); the caller's addresses listed newest first, paged,
// as every list of the sandbox.
import type { components } from "../../../generated/schema.js";
import { REFUSAL_STATUS } from "../rules.js";
import { type AccountCall, answered, pageItems, pageOf, withAccount, type OperationModule } from "../engine.js";
import { refuse } from "../refusal.js";
import { addressFor, receivableNetwork } from "../money/addresses.js";
import { createdAddressView, listedAddressView } from "../money/views.js";

type AddressRequest = components["schemas"]["CreateDepositAddressRequest"];

const createDepositAddress = withAccount((call: AccountCall) => {
  const { engine, account } = call;
  const { currency, network, uniqueUserIdentifier, purpose } = call.request.body as AddressRequest;
  if (uniqueUserIdentifier !== undefined && purpose !== undefined && uniqueUserIdentifier !== purpose)
    return refuse(
      REFUSAL_STATUS.invalidAddressRequest,
      "uniqueUserIdentifier and purpose name the same identifier: send one, or the same value in both",
    );
  const active = receivableNetwork(engine.state.catalogue, currency, network);
  if (typeof active === "string") return refuse(REFUSAL_STATUS.notReceivable, active);
  const address = addressFor(engine, account, { currency, network, identifier: uniqueUserIdentifier ?? purpose });
  return answered(call, createdAddressView(engine, account, address));
});

/** Every address, newest first, when the request asks for no page (the description shows no paging here). */
const getDepositAddresses = withAccount((call: AccountCall) => {
  const { engine, account } = call;
  const { query } = call.request;
  const unpaged = query.page === undefined && query.pageSize === undefined;
  const page = unpaged ? { page: 1, pageSize: Math.max(1, account.addresses.length) } : pageOf(call.request);
  return answered(
    call,
    pageItems(account.addresses, page).map((address) => listedAddressView(engine, account, address)),
  );
});

/** What this module answers, the refusals it answers with, the register entries it applies (operations/index.ts). */
export const depositAddressOperations: OperationModule = {
  handlers: { createDepositAddress, getDepositAddresses },
  refusals: ["invalidAddressRequest", "notReceivable", "invalidPage", "keylessAccountRead"],
  choices: [
    "addresses.identifiers",
    "addresses.values",
    "addresses.not-receivable",
    "lists.pagination",
    "accounts.keyless",
  ],
};
