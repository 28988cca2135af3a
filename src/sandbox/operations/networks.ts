// Get Active Networks and Get Withdrawal Currency Networks, from the sandbox's catalogue (the contract's examples
// by default, configurable: choices.ts "catalogue"), the same data deposit addresses and withdrawals are checked
// against.
import { REFUSAL_STATUS } from "../rules.js";
import { answered, type Handler, type OperationModule } from "../engine.js";
import { refuse } from "../refusal.js";

const getActiveNetworks: Handler = (call) => answered(call, call.engine.state.catalogue.networks);

const getWithdrawalCurrencyNetworks: Handler = (call) => {
  const { id } = call.request.params;
  const { catalogue } = call.engine.state;
  const currency = catalogue.currencies.find((candidate) => candidate.id === id);
  if (!currency) return refuse(REFUSAL_STATUS.notFound, `the sandbox has no currency ${id}`);
  const networks = Object.hasOwn(catalogue.withdrawalNetworks, currency.code)
    ? catalogue.withdrawalNetworks[currency.code]
    : [];
  return answered(call, networks);
};

/** What this module answers, the refusals it answers with, the register entries it applies (operations/index.ts). */
export const networkOperations: OperationModule = {
  handlers: { getActiveNetworks, getWithdrawalCurrencyNetworks },
  refusals: ["notFound"],
  choices: ["catalogue"],
};
