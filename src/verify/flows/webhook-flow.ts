// The webhook flow of verify on the package's sandbox: a receiver of verify's own on 127.0.0.1 (or the address
// given), an account whose webhooks go there, signed with a secret of the run's; then a deposit, a withdrawal
// settled SUCCESSFUL, and a resend. Each webhook is checked as it arrived: its signature over the exact bytes, its
// request headers, its payload, the order of a transaction's states, a resend identical byte for byte. Waiting is
// on the webhooks themselves, up to a stated bound, never a fixed sleep. On a deployment (its secret given, side
// effects allowed) it resends a transaction's webhook twice to the receiver, where the user routes the key's.
// Every payload is checked against the contract's webhooks (their request body schemas).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { WEBHOOK_SIGNATURE_HEADER } from "../../../generated/client-meta.js";
import { SchemaCompiler } from "../../contract/schemas.js";
import { verifyWebhookSignature } from "../../webhooks.js";
import { expectStatus, type FlowContext, FlowFailure } from "./context.js";
import { withdrawalRoute } from "./sandbox-flows.js";
import type { Flow, FlowFitness } from "./trade-flows.js";

/** How long the flow waits for the webhooks it caused, at most. */
const WEBHOOK_WAIT_MS = 10_000;

/** A webhook as the receiver took it: its exact bytes and its request headers. */
interface Received {
  raw: Buffer;
  headers: http.IncomingHttpHeaders;
}

/** A receiver on `host`:`port` that answers 200 to every POST and keeps what it took, in order. */
async function startReceiver(host: string, port: number) {
  const taken: Received[] = [];
  const waiting: Array<() => void> = [];
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    taken.push({ raw: Buffer.concat(chunks), headers: request.headers });
    response.writeHead(200).end();
    for (const wake of waiting.splice(0)) wake();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${address.port}/webhooks`,
    /**
     * The first `count` webhooks (of those `which` picks), once they have arrived (a FlowFailure after
     * WEBHOOK_WAIT_MS).
     */
    async taken(count: number, which: (webhook: Received) => boolean = () => true): Promise<Received[]> {
      const bound = Date.now() + WEBHOOK_WAIT_MS;
      while (taken.filter(which).length < count) {
        const left = bound - Date.now();
        if (left <= 0) {
          const arrived = taken.filter(which).length;
          throw new FlowFailure(`${arrived} of ${count} webhooks arrived within ${WEBHOOK_WAIT_MS} ms`);
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiting.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return taken.filter(which).slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** The payload of a webhook, parsed. */
const payloadOf = (webhook: Received) => JSON.parse(webhook.raw.toString("utf8")) as Record<string, unknown>;

/** Checks what every webhook taken shows: a signature over its exact bytes in lowercase hex, and its headers. */
async function checkRequests(context: FlowContext, webhooks: Received[], secret: string): Promise<void> {
  const problems: string[] = [];
  for (const [index, webhook] of webhooks.entries()) {
    const signature = webhook.headers[WEBHOOK_SIGNATURE_HEADER];
    const signed = await verifyWebhookSignature(webhook.raw, signature, secret);
    const lowercase = typeof signature === "string" && signature === signature.toLowerCase();
    const json = String(webhook.headers["content-type"]).startsWith("application/json");
    if (!signed || !lowercase || !json)
      problems.push(`webhook ${index + 1}: signed ${signed}, lowercase hex ${lowercase}, JSON ${json}`);
  }
  context.check("webhooks.request", problems.length === 0, problems.join("; "));
}

/** A deposit, a withdrawal settled SUCCESSFUL and a resend on `apiKey`'s account, whose webhooks go to `receiver`. */
async function causeWebhooks(context: FlowContext, apiKey: string, receiver: Receiver) {
  const control = context.control!;
  const route = await withdrawalRoute(context);
  const where = { currency: route.currency, network: route.network };
  const deposit = await control.deposit({ apiKey, ...where, amount: route.amount });
  const [depositHook] = await receiver.taken(1);
  const address = await context.call("POST", "/addresses/broker", where, apiKey);
  const destination = { address: expectStatus(address, 200, "(an address)").body.data.value, network: where.network };
  const body = { amount: route.amount, currency: where.currency, destination };
  const requested = await context.call("POST", "/wallets/ext/debit/crypto", body, apiKey);
  const withdrawal = expectStatus(requested, 200, "(a withdrawal of its minimum)").body.data;
  await control.settleWithdrawal(withdrawal.id, { status: "SUCCESSFUL" });
  const states = (await receiver.taken(3)).slice(1);
  const resend = `/transactions/${encodeURIComponent(deposit.id)}/resendWebhook`;
  expectStatus(await context.call("POST", resend, {}, apiKey), 200, "(a resend of the deposit's webhook)");
  const resent = (await receiver.taken(4))[3]!;
  return { deposit, depositHook: depositHook!, withdrawal, states, resent };
}

/** Why the flow cannot run: it needs an account whose webhooks come to verify. */
function unfitForWebhooks(context: FlowFitness): string | undefined {
  if (context.target === "mock") return "the mock keeps no state between requests";
  if (context.control) return undefined;
  if (context.webhookSecret === undefined)
    return (
      "it needs an account whose webhooks come to verify: the package's sandbox, or a deployment's routed to " +
      "--webhook-receiver with their secret (--webhook-secret)"
    );
  return context.allowSideEffects ? undefined : "it resends a webhook (allow side effects to run it)";
}

/** A resend against the webhook it repeats: the same bytes and the same signature (webhooks.resend). */
function checkResend(context: FlowContext, original: Received, resent: Received): void {
  const identical = resent.raw.equals(original.raw);
  const sameSignature = resent.headers[WEBHOOK_SIGNATURE_HEADER] === original.headers[WEBHOOK_SIGNATURE_HEADER];
  const shown = `resent identical: ${identical}, same signature: ${sameSignature}`;
  context.check("webhooks.resend", identical && sameSignature, shown);
}

/**
 * The webhooks whose payload fits none of the contract's webhooks (its `webhooks` section: each one's request body
 * schema), each with the first violation; empty when all fit.
 */
function payloadsOffContract(context: FlowContext, webhooks: Received[]): string[] {
  const compiler = new SchemaCompiler(context.document);
  const schemas = Object.entries(context.document.webhooks ?? {}).map(([name, item]) => {
    const body = (item.post as { requestBody?: { content?: Record<string, { schema?: unknown }> } } | undefined)
      ?.requestBody;
    return { name, schema: body?.content?.["application/json"]?.schema };
  });
  return webhooks.flatMap((webhook, index) => {
    const payload = payloadOf(webhook);
    const errors = schemas.map(({ name, schema }) => compiler.validate(`webhooks/${name}`, schema, payload));
    if (errors.some((found) => found.length === 0)) return [];
    const first = errors.flat()[0];
    return [`webhook ${index + 1} fits no webhook of the contract (${first?.message ?? ""})`];
  });
}

/** Whether a webhook's payload is of the transaction `id`. */
const ofTransaction = (id: string) => (webhook: Received) => {
  try {
    return payloadOf(webhook).transactionId === id;
  } catch {
    return false;
  }
};

/**
 * On a deployment: the run's key's newest deposit or withdrawal among its latest 20 transactions (the kinds the
 * Webhooks page shows; a swap has none), its webhook resent twice to the receiver the user
 * routes the key's webhooks to; both signed with the user's secret, of that transaction, the same bytes. Other
 * webhooks the receiver takes meanwhile are left aside. Order needs a withdrawal settled: untested there.
 */
async function resendOnDeployment(context: FlowContext, receiver: Receiver, secret: string) {
  context.untested("webhooks.order", "on a deployment verify cannot settle a withdrawal to see its states");
  const listed = expectStatus(await context.call("GET", "/transactions/me?page=1&pageSize=20"), 200, "(the history)");
  const first = ((listed.body.data ?? []) as Array<{ id: string; category?: string }>).find(
    (transaction) => transaction.category === "DEPOSIT" || transaction.category === "WITHDRAWAL",
  );
  if (!first) {
    const why = "the run's key has no deposit or withdrawal among its latest 20 transactions to resend";
    for (const id of ["webhooks.request", "webhooks.payloads", "webhooks.resend"]) context.untested(id, why);
    return;
  }
  const resend = `/transactions/${encodeURIComponent(first.id)}/resendWebhook`;
  for (const time of ["first", "second"])
    expectStatus(await context.call("POST", resend, {}), 200, `(the ${time} resend of its webhook)`);
  const [one, two] = (await receiver.taken(2, ofTransaction(first.id))) as [Received, Received];
  await checkRequests(context, [one, two], secret);
  const offContract = payloadsOffContract(context, [one, two]);
  context.check("webhooks.payloads", offContract.length === 0, offContract.join("; "));
  checkResend(context, one, two);
}

export const webhookFlow: Flow = {
  name: "webhooks: a deposit, a withdrawal settled, a resend, received",
  choices: ["webhooks.request", "webhooks.payloads", "webhooks.order", "webhooks.resend"],
  operations: [
    "getCurrencies",
    "getWithdrawalCurrencyNetworks",
    "createDepositAddress",
    "requestCryptoWithdrawal",
    "resendTransactionWebhook",
    "getUserTransactions",
  ],
  spend: { requests: 6, quotes: 0, trades: 0, addresses: 1 },
  unfit: unfitForWebhooks,
  async run(context) {
    const { host, port } = context.webhookReceiver;
    const receiver = await startReceiver(host, port);
    if (!context.control) {
      try {
        return await resendOnDeployment(context, receiver, context.webhookSecret!);
      } finally {
        await receiver.close();
      }
    }
    const apiKey = `api-contract-verify-hooks-${crypto.randomUUID().slice(0, 8)}`;
    const secret = `whsec-verify-${crypto.randomUUID()}`;
    await context.control!.putAccount(apiKey, { webhookUrl: receiver.url, webhookSecret: secret });
    try {
      const made = await causeWebhooks(context, apiKey, receiver);
      await checkRequests(context, [made.depositHook, ...made.states, made.resent], secret);
      const deposit = payloadOf(made.depositHook);
      const ofDeposit = deposit.type === "DEPOSIT" && deposit.transactionId === made.deposit.id;
      const problems = payloadsOffContract(context, [made.depositHook, ...made.states, made.resent]);
      if (!ofDeposit) problems.unshift(`the deposit's webhook: ${made.depositHook.raw.toString("utf8")}`);
      context.check("webhooks.payloads", problems.length === 0, problems.join("; "));
      const statuses = made.states.map((webhook) => payloadOf(webhook).status).join(", ");
      context.check("webhooks.order", statuses === "PENDING, SUCCESSFUL", `the withdrawal's webhooks: ${statuses}`);
      checkResend(context, made.depositHook, made.resent);
    } finally {
      await context.control!.deleteAccount(apiKey);
      await receiver.close();
    }
  },
};
