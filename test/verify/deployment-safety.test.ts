// verify keeps each safety promise on a deployment of this package's contract (side effects not allowed): no trade,
// Create Quote once, nothing else that changes state, requests paced. The deployment stands in front of the mock
// and records what it is sent at the verifier's (fake) time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { type VerifyReport, verify } from "../../src/verify/index.js";
import { proxyDeployment } from "../support/deployments.js";
import { BASE_PATH, loadSpec, sharedValidator } from "../support/spec.js";
import { fakeClock } from "./support/things.js";

const spec = loadSpec();
const validator = sharedValidator();

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock?.stop());

describe("verify on a deployment keeps each safety promise (side effects not allowed)", () => {
  // A deployment in front of the mock, recording what it is sent at the verifier's (fake) time.
  const clock = fakeClock();
  let recorded: Awaited<ReturnType<typeof proxyDeployment>>;
  let report: VerifyReport;
  const sent = () => recorded.seen.map((s) => `${s.method} ${s.url.replace(/\?.*$/, "")}`);
  beforeAll(async () => {
    recorded = await proxyDeployment(mock.origin, undefined, { now: clock.now });
    report = await verify(spec, validator, {
      baseUrl: recorded.baseUrl,
      apiKey: "k",
      minIntervalMs: 60,
      params: { quoteId: "q-1" },
      clock,
      // The deployment is the stateless mock, whose lists and limits the flows rightly find contradicting the
      // register: these promises are about the cases.
      flows: false,
    });
  });
  afterAll(() => recorded?.close());

  it("the run the promises are about passed, and every request it counted reached the deployment", () => {
    expect(report.ok, JSON.stringify(report.results.filter((r) => r.outcome === "failed"))).toBe(true);
    expect(recorded.seen.length).toBe(report.requests);
  });

  it("executes no trade: Accept Quote is never sent, and its case says why", () => {
    expect(sent()).not.toContain(`POST ${BASE_PATH}/trades/quote/q-1`);
    expect(recorded.seen.filter((s) => s.url.startsWith(`${BASE_PATH}/trades/quote/`))).toEqual([]);
    expect(report.results.find((r) => r.case === "acceptQuote: POST /trades/quote/{quoteId}")?.reason).toMatch(
      /changes state/,
    );
  });

  it("calls Create Quote once (its own quota): its invalid bodies are not sent", () => {
    expect(sent().filter((s) => s === `POST ${BASE_PATH}/trades/quote`)).toHaveLength(1);
  });

  it("sends nothing else that changes state: every request but those to Create and Accept Quote is a GET", () => {
    const quote = new RegExp(`^${BASE_PATH}/trades/quote(/|$)`);
    expect(
      recorded.seen.filter((s) => s.method !== "GET" && !quote.test(s.url)).map((s) => `${s.method} ${s.url}`),
    ).toEqual([]);
  });

  it("paces: minIntervalMs from one answer to the next request, a pause asked for before each but the first", () => {
    const gaps = recorded.seen.slice(1).map((s, i) => s.at - recorded.seen[i]!.at);
    expect(gaps.length).toBeGreaterThan(10);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(60);
    expect(clock.pauses).toEqual(gaps.map(() => 60));
  });
});
