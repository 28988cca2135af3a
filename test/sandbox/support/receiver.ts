// A real webhook receiver for the sandbox's webhook tests: a node:http server on 127.0.0.1 that keeps every
// request's raw bytes and headers and answers as the test says (a status, or holding the request unanswered),
// so a test checks what a receiver gets over a real socket. Waiting is on events (`received(n)`), never on time;
// the test that starts a receiver stops it (`close()`, which also drops held requests).
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import { api, control, newSandbox } from "./sandbox.js";
import type { Sandbox, WebhookDelivery, WebhookOptions } from "../../../src/sandbox/index.js";

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body's bytes exactly as they arrived. */
  raw: Buffer;
}

/** What the receiver answers to its n-th request (0-based): a status (with headers), or "hold" (until released). */
type Answering = (
  request: Received,
  index: number,
) => number | { status: number; headers: Record<string, string> } | "hold";

export interface Receiver {
  url: string;
  port: number;
  requests: Received[];
  /** Requests being held unanswered. */
  held: ServerResponse[];
  /** Resolves once `count` requests have arrived (all of them, oldest first). */
  received(count: number): Promise<Received[]>;
  /** Answers every held request with `status`. */
  release(status?: number): void;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 (on `port` when given, to come back up where it was). */
export async function startReceiver(answering: Answering = () => 200, port = 0): Promise<Receiver> {
  const requests: Received[] = [];
  const held: ServerResponse[] = [];
  const waiters: { count: number; resolve: (all: Received[]) => void }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const received = {
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        raw: Buffer.concat(chunks),
      };
      const index = requests.push(received) - 1;
      const answer = answering(received, index);
      if (answer === "hold") held.push(response);
      else if (typeof answer === "number") response.writeHead(answer).end();
      else response.writeHead(answer.status, answer.headers).end();
      for (const waiter of waiters.filter((w) => requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve([...requests]);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/webhooks`,
    port: bound,
    requests,
    held,
    received: (count) =>
      requests.length >= count
        ? Promise.resolve([...requests])
        : new Promise((resolve) => waiters.push({ count, resolve })),
    release(status = 200) {
      for (const response of held.splice(0)) response.writeHead(status).end();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A receiver factory for one test file: every receiver it starts is closed after each test. */
export function receiversClosedAfterEach(): (...args: Parameters<typeof startReceiver>) => Promise<Receiver> {
  const started: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((receiver) => receiver.close()));
  });
  return async (...args) => {
    const receiver = await startReceiver(...args);
    started.push(receiver);
    return receiver;
  };
}

/** A URL on 127.0.0.1 where nothing listens (a receiver that is down): its port, freed. */
export async function downUrl(): Promise<{ url: string; port: number }> {
  const receiver = await startReceiver();
  await receiver.close();
  return { url: receiver.url, port: receiver.port };
}

export const SECRET = "whsec-test-1";

/** Sets up `apiKey`'s account with a webhook URL and secret (and balances to withdraw from). */
export async function withWebhooks(sandbox: Sandbox, apiKey: string, webhookUrl: string, webhookSecret = SECRET) {
  const answer = await control(sandbox, "PUT", `/_sandbox/accounts/${apiKey}`, {
    balances: { USDT: 1000 },
    webhookUrl,
    webhookSecret,
  });
  if (answer.status !== 200) throw new Error(`account refused: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** A simulated deposit of `amount` USDT on TRX to `apiKey`'s account: its transaction id. */
export async function deposit(sandbox: Sandbox, apiKey: string, amount = 25): Promise<string> {
  const answer = await control(sandbox, "POST", "/_sandbox/deposits", {
    apiKey,
    currency: "USDT",
    network: "TRX",
    amount,
  });
  if (answer.status !== 201) throw new Error(`deposit refused: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.id;
}

/** The outbox of `apiKey` over the control API. */
export async function outbox(sandbox: Sandbox, apiKey: string) {
  const answer = await control(sandbox, "GET", `/_sandbox/webhooks?apiKey=${encodeURIComponent(apiKey)}`);
  if (answer.status !== 200) throw new Error(`outbox: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as Awaited<ReturnType<Sandbox["webhooks"]["list"]>>;
}

/** A crypto withdrawal of `amount` USDT on TRX from `apiKey`'s account to an address of its own: its id. */
export async function withdraw(sandbox: Sandbox, apiKey: string, amount = 10): Promise<string> {
  const request = { currency: "USDT", network: "TRX", uniqueUserIdentifier: "payout-test" };
  const address = await api(sandbox, "POST", "/addresses/broker", request, { key: apiKey });
  if (address.status !== 200) throw new Error(`address refused: ${address.status} ${JSON.stringify(address.body)}`);
  const destination = { address: address.body.data.value, network: "TRX" };
  const body = { amount, currency: "USDT", destination, narration: "webhook test" };
  const answer = await api(sandbox, "POST", "/wallets/ext/debit/crypto", body, { key: apiKey });
  if (answer.status !== 200) throw new Error(`withdrawal refused: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data.id;
}

/** Settles a withdrawal over the control API. */
export async function settle(sandbox: Sandbox, transactionId: string, status: "SUCCESSFUL" | "FAILED") {
  const answer = await control(sandbox, "POST", `/_sandbox/withdrawals/${transactionId}/settle`, { status });
  if (answer.status !== 200) throw new Error(`settle refused: ${answer.status} ${JSON.stringify(answer.body)}`);
}

/**
 * A sandbox whose onWebhook callback answers each delivery with `answer(delivery)` and keeps it, with key-a (a
 * webhook secret, no URL): its deposits (`deposit(amount)`, in-process, USDT on TRX) make webhooks for the callback.
 */
export function callbackSandbox(answer: (delivery: WebhookDelivery) => unknown, options: WebhookOptions = {}) {
  const deliveries: WebhookDelivery[] = [];
  const onWebhook = (delivery: WebhookDelivery) => {
    deliveries.push(delivery);
    return answer(delivery);
  };
  const sandbox = newSandbox({ webhooks: { ...options, onWebhook } });
  sandbox.putAccount("key-a", { webhookSecret: SECRET });
  const deposit = (amount: number) => sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount }).id;
  return { sandbox, deliveries, deposit };
}
