// verify's flows (trade-, account-, sandbox- and webhook-flow modules) run after its cases, and the register's
// verdicts on this target: every entry of the sandbox's register of choices stamped confirmed (the target behaved
// as it says), contradicted (with the exchange that shows it) or untested (and why). A contradicted entry fails the
// run unless the user allowed that divergence; a flow that could not go on fails it too.
import type { ContractValidator } from "../../contract/validator.js";
import { SANDBOX_CHOICES } from "../../sandbox/choices.js";
import type { ChoiceVerdict, FlowResult } from "../types.js";
import {
  ANSWERS_CHECKED,
  createFlowContext,
  type FlowContext,
  type FlowRunSettings,
  type FlowSend,
  type RuleVerdict,
} from "./context.js";
import { ACCOUNT_FLOWS } from "./account-flows.js";
import { ACCOUNT_RULE_FLOWS } from "./account-rules.js";
import { MONEY_RULE_FLOWS } from "./money-rules.js";
import { QUOTE_RULE_FLOWS } from "./quote-rules.js";
import { SANDBOX_FLOWS } from "./sandbox-flows.js";
import { SERVICE_RULE_FLOWS } from "./service-rules.js";
import { webhookFlow } from "./webhook-flow.js";
import { type Flow, type FlowFitness, type FlowSpend, TRADE_FLOWS } from "./trade-flows.js";

/**
 * Every flow, in the order verify runs them: the trades first, which leave a history for the lists to walk; the
 * rules of quotes, accounts and money; the flows of the sandbox's control API; the transport's rules last (the
 * webhook retries among them move the sandbox clock by hours).
 */
const FLOWS: readonly Flow[] = [
  ...TRADE_FLOWS,
  ...ACCOUNT_FLOWS,
  ...QUOTE_RULE_FLOWS,
  ...ACCOUNT_RULE_FLOWS,
  ...MONEY_RULE_FLOWS,
  ...SANDBOX_FLOWS,
  webhookFlow,
  ...SERVICE_RULE_FLOWS,
];

export interface FlowsReport {
  flows: FlowResult[];
  choices: ChoiceVerdict[];
}

type FlowOptions = FlowRunSettings & {
  allowDivergence: string[];
  /** Only the flows that check one of these entries run (VerifyOptions.rules); absent: every flow. */
  rules?: readonly string[];
};

/** The reason of a flow left out because it checks none of the rules asked for (VerifyOptions.rules). */
export const NOT_ASKED_FOR = "it checks none of the rules asked for (--rule)";

/** Why a flow does not run when only `rules` were asked for and it checks none of them, else undefined. */
function notAskedFor(flow: Flow, rules: readonly string[] | undefined): string | undefined {
  if (rules === undefined || rules.includes(ANSWERS_CHECKED)) return undefined;
  if (flow.choices.some((id) => rules.includes(id))) return undefined;
  return NOT_ASKED_FOR;
}

/** Runs one flow: passed, failed (it could not go on, or contradicted a rule it checks, not allowed), or untested. */
async function runFlow(
  flow: Flow,
  context: FlowContext,
  verdicts: Map<string, RuleVerdict>,
  { allowDivergence, rules }: Pick<FlowOptions, "allowDivergence" | "rules">,
): Promise<FlowResult> {
  const skipped = notAskedFor(flow, rules);
  if (skipped !== undefined) return { flow: flow.name, outcome: "untested", reason: skipped };
  const lacking = flow.operations.filter((id) => !context.operationIds.has(id));
  if (lacking.length)
    return { flow: flow.name, outcome: "untested", reason: `the contract verified has no ${lacking.join(", ")}` };
  const unfit = flow.unfit(context);
  if (unfit !== undefined) return { flow: flow.name, outcome: "untested", reason: unfit };
  try {
    await flow.run(context);
  } catch (error) {
    return { flow: flow.name, outcome: "failed", reason: error instanceof Error ? error.message : String(error) };
  }
  const contradicted = flow.choices.filter(
    (id) => verdicts.get(id)?.verdict === "contradicted" && !allowDivergence.includes(id),
  );
  if (!contradicted.length) return { flow: flow.name, outcome: "passed" };
  return { flow: flow.name, outcome: "failed", reason: `the target contradicts ${contradicted.join(", ")}` };
}

/** Why an entry no flow confirmed or contradicted is untested: its flows' reasons, or that none checks it. */
function untestedReason(id: string, results: FlowResult[]): string {
  const flows = FLOWS.map((flow, index) => ({ flow, result: results[index]! })).filter(({ flow }) =>
    flow.choices.includes(id),
  );
  if (id === ANSWERS_CHECKED) return "no flow sent a request (every flow checks it)";
  if (!flows.length) return "no flow of this version of verify checks it";
  return flows.map(({ flow, result }) => `${flow.name}: ${result.reason ?? result.outcome}`).join("; ");
}

/** Runs every flow on the target, then stamps every entry of the register. */
export async function runFlows(
  options: FlowOptions,
  send: FlowSend,
  validator: ContractValidator,
): Promise<FlowsReport> {
  const verdicts = new Map<string, RuleVerdict>();
  const context = createFlowContext(options, send, validator, verdicts);
  const flows: FlowResult[] = [];
  for (const flow of FLOWS) flows.push(await runFlow(flow, context, verdicts, options));
  const choices = SANDBOX_CHOICES.map(({ id }): ChoiceVerdict => {
    const found = verdicts.get(id);
    if (!found) return { id, verdict: "untested", reason: untestedReason(id, flows) };
    if (found.verdict !== "contradicted") return { id, ...found };
    const allowed = options.allowDivergence.includes(id);
    return { id, verdict: "contradicted", evidence: found.evidence, ...(allowed ? { allowed } : {}) };
  });
  return { flows, choices };
}

/** Whether the flows let the run pass: none failed, no entry contradicted that the user did not allow. */
export const flowsPass = ({ flows, choices }: FlowsReport): boolean =>
  flows.every((flow) => flow.outcome !== "failed") &&
  choices.every((choice) => choice.verdict !== "contradicted" || choice.allowed === true);

/** What the flows that would run on a target spend there at most, added up, and how many they are. */
export function flowsSpend(
  fitness: FlowFitness,
  operationIds: ReadonlySet<string>,
  rules?: readonly string[],
): FlowSpend & { flows: number } {
  const running = FLOWS.filter(
    (flow) =>
      notAskedFor(flow, rules) === undefined &&
      flow.operations.every((id) => operationIds.has(id)) &&
      flow.unfit(fitness) === undefined,
  );
  const total = { flows: running.length, requests: 0, quotes: 0, trades: 0, addresses: 0 };
  for (const { spend } of running) {
    total.requests += spend.requests;
    total.quotes += spend.quotes;
    total.trades += spend.trades;
    total.addresses += spend.addresses;
  }
  return total;
}
