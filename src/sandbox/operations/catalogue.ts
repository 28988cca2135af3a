// What anyone may read without an account: the fiat rates, the currencies, and the trade pairs (all of them, one
// by its two codes, those of one currency), from the sandbox's catalogue and rates of the moment.
import { REFUSAL_STATUS } from "../rules.js";
import { answered, type Handler, refused, type OperationModule } from "../engine.js";
import { refuse } from "../refusal.js";
import { shaped } from "../templates.js";
import { pairSummaryView } from "../views.js";

const getFiatRates: Handler = (call) => {
  const { templates, state, baseCode } = call.engine;
  return answered(
    call,
    state.rates.fiat.map((rate) => shaped(templates.fiatRate, { ...rate, base: baseCode })),
  );
};

const getCurrencies: Handler = (call) => answered(call, call.engine.state.catalogue.currencies);

const getTradePairs: Handler = (call) =>
  answered(
    call,
    call.engine.state.catalogue.pairs.map((pair) => pairSummaryView(call.engine, pair)),
  );

const getTradePair: Handler = (call) => {
  const { sourceCode, targetCode } = call.request.params;
  const pair = call.engine.state.catalogue.pairs.find(
    (candidate) => candidate.source.code === sourceCode && candidate.target.code === targetCode,
  );
  if (!pair) return refuse(REFUSAL_STATUS.notFound, `the sandbox has no trade pair ${sourceCode}/${targetCode}`);
  return answered(call, pair);
};

const getCurrencyPairs: Handler = (call) => {
  const { id } = call.request.params;
  const { catalogue } = call.engine.state;
  if (!catalogue.currencies.some((currency) => currency.id === id))
    return refuse(REFUSAL_STATUS.notFound, `the sandbox has no currency ${id}`);
  const pairs = catalogue.pairs.filter((pair) => pair.source.id === id || pair.target.id === id);
  return answered(
    call,
    pairs.map((pair) => pairSummaryView(call.engine, pair)),
  );
};

/** What this module answers, the refusals it answers with, the register entries it applies (operations/index.ts). */
export const catalogueOperations: OperationModule = {
  handlers: { getFiatRates, getCurrencies, getTradePairs, getTradePair, getCurrencyPairs },
  refusals: ["notFound"],
  choices: ["catalogue", "rates.update"],
};
