// What anyone may read without an account: the fiat rates, the currencies, and the trade pairs (all of them, one
// by its two codes, those of one currency), from the sandbox's catalogue and rates of the moment.
import type { SourceAnswer } from "../../pipeline/pipeline.js";
import { REFUSAL_STATUS } from "../rules.js";
import { answered, type Handler, type OperationModule } from "../engine.js";
import { refuse } from "../refusal.js";
import { shaped } from "../templates.js";
import { pairSummaryView } from "../views.js";

/**
 * Get Fiat Rates' answer by the rates it shows, written as JSON once: its body depends on nothing but the rates, and
 * setRates and a restore put new rates in place (never changed in place), so the next answer is written anew. The
 * most read answer, so kept for the throughput target (BENCHMARKS.md).
 */
const fiatRatesAnswers = new WeakMap<object, SourceAnswer>();

const getFiatRates: Handler = (call) => {
  const { templates, state, baseCode } = call.engine;
  let answer = fiatRatesAnswers.get(state.rates);
  if (!answer) {
    const data = state.rates.fiat.map((rate) => shaped(templates.fiatRate, { ...rate, base: baseCode }));
    const written = answered(call, data);
    answer = Object.freeze(
      written.kind === "answer" ? { ...written, bodyText: JSON.stringify(written.body) } : written,
    );
    fiatRatesAnswers.set(state.rates, answer);
  }
  return answer;
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
