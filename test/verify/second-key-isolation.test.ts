// verify's isolation flow on a deployment (the sandbox behind a proxy, taken for one): with a second key
// (VerifyOptions.secondApiKey) it reads that key's transaction with the run's key and, with side effects allowed,
// accepts a quote of that key's with the run's key; both must be refused 404 (accounts.isolation). The second key's
// requests are signed with its own secret.
import { afterEach, describe, expect, it } from "vitest";
import { closeServers, closers, type Report, run } from "./support/flow-runs.js";
import { type Deviation, deviantSandbox } from "./support/deviant-sandbox.js";

afterEach(closeServers);

const FLOW = "isolation: another key's quote and transaction";
const SECOND = "second-key";

const asIs: Deviation = ({ status, body }) => ({ status, body });

/** The deviant deployment with an account for the second key: its secret, and `deposits` of 1 USDT. */
async function deploymentWithSecondKey(deviate: Deviation, deposits: number, apiSecret?: string) {
  const deviant = await deviantSandbox(deviate);
  closers.push(() => deviant.close());
  const { sandbox } = deviant.sandbox;
  sandbox.putAccount(SECOND, { balances: { USDT: 5 }, ...(apiSecret ? { apiSecret } : {}) });
  for (let i = 0; i < deposits; i++) sandbox.deposit({ apiKey: SECOND, currency: "USDT", network: "TRX", amount: 1 });
  return deviant;
}

const flowOf = (report: Report) => report.flows!.find((flow) => flow.flow === FLOW)!;
const isolation = (report: Report) => report.choices!.find((choice) => choice.id === "accounts.isolation")!;
const onDeployment = { target: "deployment" as const, minIntervalMs: 0, rules: ["accounts.isolation"] };

describe("the isolation flow on a deployment with a second key", () => {
  it("with side effects: its transaction and its quote, refused 404 to the run's key, confirm it", async () => {
    const deviant = await deploymentWithSecondKey(asIs, 1);
    const balances = () => deviant.sandbox.sandbox.getAccount(SECOND)!.balances;
    const before = balances();
    const report = await run(deviant.baseUrl, { ...onDeployment, allowSideEffects: true, secondApiKey: SECOND });
    expect([flowOf(report).outcome, isolation(report)]).toEqual([
      "passed",
      { id: "accounts.isolation", verdict: "confirmed" },
    ]);
    // The run's key never got the second key's quote accepted: its balances are as they were.
    expect(balances()).toEqual(before);
  });

  it("signs the second key's requests with its own secret: a quote of an account that wants them signed", async () => {
    // A deployment each: one run spends most of a minute's requests.
    const [deviant, other] = [
      await deploymentWithSecondKey(asIs, 0, "second-secret"),
      await deploymentWithSecondKey(asIs, 0, "second-secret"),
    ];
    const options = { ...onDeployment, allowSideEffects: true, secondApiKey: SECOND };
    const signed = await run(deviant.baseUrl, { ...options, secondApiSecret: "second-secret" });
    expect([flowOf(signed).outcome, isolation(signed).verdict]).toEqual(["passed", "confirmed"]);
    // Without its secret the second key's first request is refused 401: the flow cannot go on.
    const unsigned = await run(other.baseUrl, options);
    expect(flowOf(unsigned)).toEqual({
      flow: FLOW,
      outcome: "failed",
      reason: expect.stringMatching(/^GET \/transactions\/me\?page=1&pageSize=1 → 401 .*: expected 200 \(the /),
    });
  });

  it("a transaction of the second key's answered to the run's key contradicts it, with the exchange", async () => {
    // The sandbox's 404 for another key's transaction turned into the second key's own answer of it.
    const leaky: Deviation = ({ method, path, status, body }, seen) => {
      if (method !== "GET" || !path.startsWith("/v1/transactions/") || status !== 404) return { status, body };
      const list = seen.find((earlier) => earlier.apiKey === SECOND && earlier.path.startsWith("/v1/transactions/me"));
      return list
        ? { status: 200, body: { message: "Request successful", data: list.body.data[0] } }
        : { status, body };
    };
    const deviant = await deploymentWithSecondKey(leaky, 1);
    const report = await run(deviant.baseUrl, { ...onDeployment, secondApiKey: SECOND });
    expect(isolation(report)).toEqual({
      id: "accounts.isolation",
      verdict: "contradicted",
      evidence: expect.stringMatching(/^GET \/transactions\/\S+ → 200 \{"message":"Request successful","data":\{/),
    });
    expect([flowOf(report).outcome, report.ok]).toEqual(["failed", false]);
  });

  it("without side effects and no transaction of the second key: untested, saying why", async () => {
    const deviant = await deploymentWithSecondKey(asIs, 0);
    const report = await run(deviant.baseUrl, { ...onDeployment, secondApiKey: SECOND });
    expect(isolation(report)).toEqual({
      id: "accounts.isolation",
      verdict: "untested",
      reason: "the second key has no transaction to read, and a quote of its own needs side effects allowed",
    });
    expect(flowOf(report).outcome).toBe("passed");
  });
});
