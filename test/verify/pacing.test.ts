// verify paces its requests (src/verify/send.ts): it asks its clock for minIntervalMs before each request but the
// first (1000 ms by default on a deployment, none on the mock), counted from the end of one exchange to the start
// of the next, and checks again after a sleep that ends early. Time is a fake clock's but in one test.
import { afterEach, describe, expect, it } from "vitest";
import { createVerifier, planVerification } from "../../src/verify/index.js";
import { closeDeployments, conforming, deployment, fakeClock, planned, spec, validator } from "./support/things.js";

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
