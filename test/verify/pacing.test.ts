// verify paces its requests (src/verify/send.ts): it asks its clock for minIntervalMs before each request but the
// first (1000 ms by default on a deployment, none on the mock), counted from the end of one exchange to the start
// of the next, and checks again after a sleep that ends early. Time is a fake clock's but in one test. On a
// deployment the pause after a failed exchange (a 4xx or 5xx, a dropped or refused connection, a timeout, an answer
// that breaks the contract) is the one after a passing exchange.
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createVerifier, planVerification, verify } from "../../src/verify/index.js";
import { listenLocally } from "../support/local-server.js";
import {
  closeAfterTest,
  closeDeployments,
  conforming,
  deployment,
  fakeClock,
  planned,
  spec,
  validator,
} from "./support/things.js";

afterEach(closeDeployments);

describe("createVerifier: pacing", () => {
  it("asks for minIntervalMs before each request but the first; 1000 ms on a deployment, 0 on the mock", async () => {
    const server = await deployment(conforming);
    const list = planned(planVerification(spec, { target: "mock" }), "listThings: GET /things");
    const pausesOf = async (options: Partial<Parameters<typeof createVerifier>[2]>) => {
      const clock = fakeClock();
      const verifier = createVerifier(spec, validator, { baseUrl: server.baseUrl, apiKey: "k", clock, ...options });
      for (let i = 0; i < 3; i++) await verifier.run(list);
      return clock.pauses;
    };
    expect(await pausesOf({})).toEqual([1000, 1000]);
    expect(await pausesOf({ minIntervalMs: 150 })).toEqual([150, 150]);
    expect(await pausesOf({ target: "mock" })).toEqual([]);
    expect(await pausesOf({ target: "mock", minIntervalMs: 40 })).toEqual([40, 40]);
    expect(server.seen).toHaveLength(12);
  });

  it("paces from the end of one exchange to the next: a slow answer does not shorten the pause", async () => {
    const clock = fakeClock();
    const server = await deployment((method, url) => {
      clock.advance(300); // the answer takes 300 ms of the verifier's time
      return conforming(method, url);
    });
    const list = planned(planVerification(spec, { target: "mock" }), "listThings: GET /things");
    const verifier = createVerifier(spec, validator, {
      baseUrl: server.baseUrl,
      apiKey: "k",
      minIntervalMs: 200,
      clock,
    });
    await verifier.run(list);
    await verifier.run(list);
    expect(clock.pauses).toEqual([200]);
    expect(server.seen.map((s) => s.clockAt)).toEqual([0, 500]);
  });

  it("checks the pause again after a sleep that ends early, and sleeps what is left", async () => {
    const clock = fakeClock({ shortBy: 30 });
    const server = await deployment(conforming);
    const list = planned(planVerification(spec, { target: "mock" }), "listThings: GET /things");
    const verifier = createVerifier(spec, validator, {
      baseUrl: server.baseUrl,
      apiKey: "k",
      minIntervalMs: 100,
      clock,
    });
    await verifier.run(list);
    await verifier.run(list);
    expect(clock.pauses).toEqual([100, 30]);
    expect(server.seen).toHaveLength(2);
  });

  it("sleeps for real with no clock given: arrivals at least minIntervalMs apart", async () => {
    const server = await deployment(conforming);
    const list = planned(planVerification(spec, { target: "mock" }), "listThings: GET /things");
    const verifier = createVerifier(spec, validator, { baseUrl: server.baseUrl, apiKey: "k", minIntervalMs: 150 });
    await verifier.run(list);
    await verifier.run(list);
    // The pause runs from the end of one exchange (after this server saw the request), re-checked after each sleep.
    expect(server.seen[1]!.at - server.seen[0]!.at).toBeGreaterThanOrEqual(150);
  });
});

/** What the scripted deployment does with a request: answers it (and stops listening after), drops it, or is silent. */
type Step = { status: number; body: unknown; thenStopListening?: true } | "drop" | "silent";

/**
 * A deployment on 127.0.0.1 (no mock header) that does steps[n] with its n-th request and records when each arrives
 * by `clock`; a request past the script gets its connection dropped.
 */
async function scriptedDeployment(clock: { now(): number }, steps: Step[]) {
  const arrivals: number[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const step = steps[arrivals.length] ?? "drop";
      arrivals.push(clock.now());
      if (step === "drop") req.socket.destroy();
      if (step === "drop" || step === "silent") return;
      if (step.thenStopListening) {
        // No new connection is accepted (the next request is refused), and this one is not kept alive.
        server.close();
        res.setHeader("connection", "close");
      }
      res.writeHead(step.status, { "content-type": "application/json" }).end(JSON.stringify(step.body));
    });
  });
  const { origin, close } = await listenLocally(server);
  closeAfterTest(close);
  return { baseUrl: `${origin}/v1`, host: origin.replace("http://", ""), arrivals, close };
}

describe("createVerifier on a deployment: the pause after a failed exchange is the one after a passing one", () => {
  // A limit of 200 requests a minute: 60,000 ms / 200 = 300 ms from the end of one exchange to the next request.
  const paced = (baseUrl: string, clock: ReturnType<typeof fakeClock>) =>
    createVerifier(spec, validator, { baseUrl, apiKey: "k", minIntervalMs: 300, timeoutMs: 2000, clock });
  const list = planned(planVerification(spec, { target: "deployment" }), "listThings: GET /things");
  const ok: Step = { status: 200, body: { data: [] } };

  it.each([
    ["answered 429", { status: 429, body: { message: "slow down" } }, "answered 429, not its documented success 200"],
    ["answered 500", { status: 500, body: { message: "oops" } }, "answered 500, not its documented success 200"],
    ["answered 503", { status: 503, body: { message: "busy" } }, "answered 503, not its documented success 200"],
    ["an answer that breaks the contract", { status: 200, body: { data: "none" } }, "answered 200, breaking the"],
    ["a dropped connection", "drop", "no answer: HOST closed the connection without an answer (UND_ERR_SOCKET)"],
    ["a timeout (timeoutMs 2000)", "silent", "no answer: HOST did not answer within 2 s"],
  ] as Array<[string, Step, string]>)("after %s: 300 ms, as after a passing exchange", async (_, failing, reason) => {
    const clock = fakeClock();
    const server = await scriptedDeployment(clock, [ok, failing, ok]);
    const verifier = paced(server.baseUrl, clock);
    const results = [await verifier.run(list), await verifier.run(list), await verifier.run(list)];
    expect(results.map((r) => r.outcome)).toEqual(["passed", "failed", "passed"]);
    expect(results[1]!.reason!.replace(server.host, "HOST")).toContain(reason);
    expect(verifier.target).toBe("deployment");
    expect(clock.pauses).toEqual([300, 300]);
    expect(server.arrivals).toEqual([0, 300, 600]);
  });

  it("after a refused connection: 300 ms, as after a passing exchange", async () => {
    const clock = fakeClock();
    const server = await scriptedDeployment(clock, [ok]);
    const verifier = paced(server.baseUrl, clock);
    const first = await verifier.run(list);
    await server.close();
    const refused = [await verifier.run(list), await verifier.run(list)];
    expect(first.outcome).toBe("passed");
    expect(refused.map((r) => r.noAnswer)).toEqual([
      `cannot connect to ${server.host}: connection refused (ECONNREFUSED); is the service running there?`,
      `cannot connect to ${server.host}: connection refused (ECONNREFUSED); is the service running there?`,
    ]);
    expect(verifier.target).toBe("deployment");
    expect(clock.pauses).toEqual([300, 300]);
    expect(server.arrivals).toEqual([0]);
  });
});

describe("verify on a deployment: a run where exchanges fail is paced throughout", () => {
  it("asks for the default 1000 ms (60,000 ms / 60 a minute) before every request but the first", async () => {
    const clock = fakeClock();
    const server = await scriptedDeployment(clock, [
      { status: 200, body: { data: [] } },
      { status: 404, body: { message: "no such thing" } },
      { status: 503, body: { message: "busy" } },
      "drop",
      "silent",
      { status: 401, body: { error: "no key" } },
      { status: 400, body: { message: "no" }, thenStopListening: true },
    ]);
    const report = await verify(spec, validator, {
      baseUrl: server.baseUrl,
      apiKey: "k",
      params: { id: "t-9" },
      timeoutMs: 2000,
      clock,
    });
    const sent = report.results.filter((r) => r.request !== undefined);
    expect(sent.map((r) => [r.case, r.outcome, r.status ?? r.noAnswer?.replace(server.host, "HOST")])).toEqual([
      ["listThings: GET /things", "passed", 200],
      ["getThing: GET /things/{id}", "failed", 404],
      ["ranged: GET /ranged", "failed", 503],
      ["open: GET /open", "failed", "HOST closed the connection without an answer (UND_ERR_SOCKET)"],
      ["spendQuota: POST /quota", "failed", "HOST did not answer within 2 s"],
      ["listThings: without API key", "failed", 401],
      ["listThings: query kind outside its enum", "passed", 400],
      [
        "getThing: without API key",
        "failed",
        "cannot connect to HOST: connection refused (ECONNREFUSED); is the service running there?",
      ],
      [
        "ranged: without API key",
        "failed",
        "cannot connect to HOST: connection refused (ECONNREFUSED); is the service running there?",
      ],
    ]);
    expect(report.results.find((r) => r.case === "listThings: without API key")?.reason).toBe(
      "the 401 refusal breaks the contract: 1 violation",
    );
    expect(report.target).toBe("deployment");
    expect(report.requests).toBe(9);
    expect(clock.pauses).toEqual([1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000]);
    expect(server.arrivals).toEqual([0, 1000, 2000, 3000, 4000, 5000, 6000]);
  });
});
