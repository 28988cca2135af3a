// verify's webhook flow on a deployment (the sandbox behind a proxy, taken for one): with the secret the
// deployment signs the run's key's webhooks with (VerifyOptions.webhookSecret) and side effects allowed, it resends
// the newest deposit's webhook twice to its receiver (where the key's webhooks are routed: here the account's
// webhookUrl) and checks both: signed over their exact bytes, of that transaction, identical.
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { findFreePort } from "../../src/mock/processes.js";
import { signWebhook } from "../../src/webhooks.js";
import { WEBHOOK_SIGNATURE_HEADER } from "../support/spec.js";
import { closeServers, closers, type Report, run } from "./support/flow-runs.js";
import { type Deviation, deviantSandbox } from "./support/deviant-sandbox.js";

afterEach(closeServers);

const FLOW = "webhooks: a deposit, a withdrawal settled, a resend, received";
const SECRET = "whsec-user";
const ENTRIES = ["webhooks.request", "webhooks.payloads", "webhooks.order", "webhooks.resend"];

/** Takes the webhooks POSTed to 127.0.0.1:`port` until closed, answering 200. */
async function listenOnce(port: number) {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * The deviant deployment whose run's key ("user-key") sends its webhooks to a free port of loopback, signed with
 * SECRET, with a deposit of 2 USDT (`deposit`) whose webhook was delivered there before verify's receiver listens
 * (one still due would hold the resends behind it: webhooks.order).
 */
async function deploymentWithWebhooks(
  deviate: Deviation,
  { deposit = true, fetch = undefined as typeof globalThis.fetch | undefined } = {},
) {
  const port = await findFreePort();
  const deviant = await deviantSandbox(deviate, { webhookFetch: fetch });
  closers.push(() => deviant.close());
  const { sandbox } = deviant.sandbox;
  sandbox.putAccount("user-key", { webhookUrl: `http://127.0.0.1:${port}/hooks`, webhookSecret: SECRET });
  if (deposit) {
    const close = await listenOnce(port);
    sandbox.deposit({ apiKey: "user-key", currency: "USDT", network: "TRX", amount: 2 });
    await sandbox.webhooks.settled();
    await close();
  }
  const options = { target: "deployment" as const, minIntervalMs: 0, rules: ["webhooks.resend"] };
  return { deviant, options: { ...options, webhookReceiver: `127.0.0.1:${port}` } };
}

const verdicts = (report: Report) =>
  ENTRIES.map((id) => {
    const { verdict, evidence, reason } = report.choices!.find((choice) => choice.id === id)!;
    return [id, verdict, evidence ?? reason];
  });
const flowOf = (report: Report) => report.flows!.find((flow) => flow.flow === FLOW)!;
const asIs: Deviation = ({ status, body }) => ({ status, body });

describe("the webhook flow on a deployment", () => {
  it("with its secret and side effects: a deposit's webhook resent twice, signed, identical, confirms", async () => {
    const { deviant, options } = await deploymentWithWebhooks(asIs);
    const report = await run(deviant.baseUrl, { ...options, allowSideEffects: true, webhookSecret: SECRET });
    expect(flowOf(report).outcome).toBe("passed");
    expect(verdicts(report)).toEqual([
      ["webhooks.request", "confirmed", undefined],
      ["webhooks.payloads", "confirmed", undefined],
      ["webhooks.order", "untested", "on a deployment verify cannot settle a withdrawal to see its states"],
      ["webhooks.resend", "confirmed", undefined],
    ]);
  });

  it("with another secret than the deployment's: webhooks.request contradicted", async () => {
    const { deviant, options } = await deploymentWithWebhooks(asIs);
    const report = await run(deviant.baseUrl, { ...options, allowSideEffects: true, webhookSecret: "whsec-other" });
    expect(verdicts(report)[0]).toEqual([
      "webhooks.request",
      "contradicted",
      "webhook 1: signed false, lowercase hex true, JSON true; webhook 2: signed false, lowercase hex true, JSON true",
    ]);
    expect([flowOf(report).outcome, report.ok]).toEqual(["failed", false]);
  });

  it("a resend that is not the same bytes: webhooks.resend contradicted", async () => {
    // The deployment's webhook sender adds a space to one body after signing it: the first resend's (the
    // deposit's went first).
    let sent = 0;
    const reserialising: typeof fetch = (input, init) => {
      sent++;
      const body = sent === 2 ? `${String(init?.body)} ` : init?.body;
      return fetch(input, { ...init, body });
    };
    const { deviant, options } = await deploymentWithWebhooks(asIs, { fetch: reserialising });
    const report = await run(deviant.baseUrl, { ...options, allowSideEffects: true, webhookSecret: SECRET });
    expect(verdicts(report)[3]).toEqual([
      "webhooks.resend",
      "contradicted",
      "resent identical: false, same signature: true",
    ]);
  });

  it("a payload off the contract (amount as text), signed as sent: webhooks.payloads contradicted", async () => {
    // The deployment's sender writes the amount as a string, and signs what it sends (the signature holds).
    const textAmount: typeof fetch = async (input, init) => {
      const body = String(init?.body).replace(/"amount":([\d.]+)/, '"amount":"$1"');
      const headers = { ...(init?.headers as Record<string, string>) };
      headers[WEBHOOK_SIGNATURE_HEADER] = await signWebhook(body, SECRET);
      return fetch(input, { ...init, body, headers });
    };
    const { deviant, options } = await deploymentWithWebhooks(asIs, { fetch: textAmount });
    const report = await run(deviant.baseUrl, { ...options, allowSideEffects: true, webhookSecret: SECRET });
    expect(verdicts(report).slice(0, 2)).toEqual([
      ["webhooks.request", "confirmed", undefined],
      [
        "webhooks.payloads",
        "contradicted",
        "webhook 1 fits no webhook of the contract (/amount must be number); " +
          "webhook 2 fits no webhook of the contract (/amount must be number)",
      ],
    ]);
  });

  it("is untested without its secret, or without side effects, or with no deposit to resend, saying why", async () => {
    // A deployment each: one run spends most of a minute's requests.
    const { deviant, options } = await deploymentWithWebhooks(asIs, { deposit: false });
    const noSecret = await run(deviant.baseUrl, { ...options, allowSideEffects: true });
    expect(flowOf(noSecret).reason).toBe(
      "it needs an account whose webhooks come to verify: the package's sandbox, or a deployment's routed to " +
        "--webhook-receiver with their secret (--webhook-secret)",
    );
    const noSideEffects = await run(deviant.baseUrl, { ...options, webhookSecret: SECRET });
    const empty = await deploymentWithWebhooks(asIs, { deposit: false });
    expect(flowOf(noSideEffects).reason).toBe("it resends a webhook (allow side effects to run it)");
    const nothing = await run(empty.deviant.baseUrl, {
      ...empty.options,
      allowSideEffects: true,
      webhookSecret: SECRET,
    });
    expect(verdicts(nothing)[3]).toEqual([
      "webhooks.resend",
      "untested",
      "the run's key has no deposit or withdrawal among its latest 20 transactions to resend",
    ]);
  });
});
