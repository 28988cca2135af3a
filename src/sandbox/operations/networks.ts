// Get Active Networks and Get Withdrawal Currency Networks, from the sandbox's catalogue (the contract's examples
// by default, configurable: choices.ts "catalogue"), the same data deposit addresses and withdrawals are checked
// against.
import { REFUSAL_STATUS } from "../choices.js";
import { answered, type Handler, refused } from "../engine.js";

export const getActiveNetworks: Handler = (call) => answered(call, call.engine.state.catalogue.networks);

export const getWithdrawalCurrencyNetworks: Handler = (call) => {
  const { id } = call.request.params;
  const { catalogue } = call.engine.state;
  const currency = catalogue.currencies.find((candidate) => candidate.id === id);
  if (!currency) return refused(REFUSAL_STATUS.notFound, `the sandbox has no currency ${id}`);
  const networks = Object.hasOwn(catalogue.withdrawalNetworks, currency.code)
    ? catalogue.withdrawalNetworks[currency.code]
    : [];
  return answered(call, networks);
};
