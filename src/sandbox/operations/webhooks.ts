// Resend Webhooks (a list of transaction ids) and its observed single-transaction form: each transaction's
// latest webhook is sent again, byte for byte (webhooks/). An id that is not one of the caller's transactions
// answers 404 and nothing is sent (choices.ts, "webhooks.resend").
import { REFUSAL_STATUS } from "../rules.js";
import { type AccountCall, answered, withAccount, type OperationModule } from "../engine.js";
import { refuse } from "../refusal.js";

function resend(call: AccountCall, ids: readonly string[]) {
  const known = new Set(call.account.transactions.map((transaction) => transaction.id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown !== undefined)
    return refuse(REFUSAL_STATUS.notFound, `no transaction ${unknown} was found for this API key`);
  call.engine.webhooks.resend(call.account.apiKey, ids);
  return answered(call, {});
}

const resendWebhooks = withAccount((call) => resend(call, (call.request.body as { ids: string[] }).ids));

const resendTransactionWebhook = withAccount((call) => resend(call, [call.request.params.transactionId!]));

/** What this module answers, the refusals it answers with, the register entries it applies (operations/index.ts). */
export const webhookOperations: OperationModule = {
  handlers: { resendWebhooks, resendTransactionWebhook },
  refusals: ["notFound", "keylessAccountRead"],
  choices: ["webhooks.resend", "accounts.keyless"],
};
