// verify run on this package's own contract, in-process, against its mock and deployments in front of it: it passes
// the mock (every case, known by its header), fails a deployment that refuses or breaks everything (a positive case
// passes only with its documented success status; a 404 is never a refusal), skips on a deployment what needs a
// real value or changes state, and says in one line when the key was refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/validator.js";
import { PACKAGE_VERSION, type StartedMock, startMock } from "../../src/mock/index.js";
import { planVerification, type VerifyReport, verify } from "../../src/verify/index.js";
import { closedPort, proxyDeployment, uniformDeployment } from "../support/deployments.js";
import { API_KEY_HEADER, BASE_PATH, type JsonObject, loadSpec, sharedValidator } from "../support/spec.js";

const spec = loadSpec();
const validator = sharedValidator();

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock?.stop());

describe("verify (live rules)", () => {
  it("knows the mock by its X-Api-Contract-Mock header: every case runs, none skipped, no --param", async () => {
    const report = await verify(spec, validator, { baseUrl: mock.baseUrl, apiKey: "k" });
    expect(report.counts, JSON.stringify(report.results.filter((r) => r.outcome !== "passed"))).toEqual({
      passed: planVerification(spec, {}).length,
      failed: 0,
      skipped: 0,
    });
    expect(report).toMatchObject({ ok: true, target: "mock", mockVersion: PACKAGE_VERSION });
    // Accept Quote accepted the quote Create Quote had just made.
    const accepted = report.results.find((r) => r.case === "acceptQuote: POST /trades/quote/{quoteId}");
    expect(accepted).toMatchObject({ outcome: "passed", status: 200 });
  });

  it("on a deployment, skips saying why in terms of the target; a given value runs the case", async () => {
    const deployed = await proxyDeployment(mock.origin);
    try {
      // The deployment is the stateless mock in disguise: the flows would rightly contradict the register.
      const options = { baseUrl: deployed.baseUrl, apiKey: "k", minIntervalMs: 0, flows: false };
      const report = await verify(spec, validator, options);
      expect(report).toMatchObject({ ok: true, target: "deployment" });
      expect(report.mockVersion).toBeUndefined();
      const reasons = report.results.filter((r) => r.outcome === "skipped").map((r) => r.reason ?? "");
      expect(reasons.length).toBeGreaterThan(0);
      for (const reason of reasons) expect(reason).not.toMatch(/live/);
      expect(report.results.find((r) => r.operationId === "getCollectionCustomer")?.reason).toBe(
        "needs a real value for {id} (the spec's example need not exist on the target): pass --param id=…",
      );
      expect(report.results.find((r) => r.case === "acceptQuote: POST /trades/quote/{quoteId}")?.reason).toBe(
        "POST changes state on the target (allow side effects to run it)",
      );
      const withParam = await verify(spec, validator, {
        baseUrl: deployed.baseUrl,
        apiKey: "k",
        minIntervalMs: 0,
        params: { id: "cus-1" },
      });
      expect(
        withParam.results.find((r) => r.operationId === "getCollectionCustomer" && r.kind === "positive")?.outcome,
      ).toBe("passed");
    } finally {
      await deployed.close();
    }
  });

  it("on a deployment, runs Get Trade Pair and Get Wallet Balance By Code with USDT and NGNX", async () => {
    const deployed = await proxyDeployment(mock.origin);
    try {
      const report = await verify(spec, validator, { baseUrl: deployed.baseUrl, apiKey: "k", minIntervalMs: 0 });
      const byId = (id: string) => report.results.find((r) => r.operationId === id && r.kind === "positive");
      expect(byId("getTradePair")).toMatchObject({
        outcome: "passed",
        request: { url: `${deployed.baseUrl}/trades/pairs/USDT/NGNX` },
      });
      expect(byId("getWalletBalanceByCode")).toMatchObject({
        outcome: "passed",
        request: { url: `${deployed.baseUrl}/wallets/NGNX` },
      });
    } finally {
      await deployed.close();
    }
  });

  it("keeps a deployment's rules after one answer without the mock's header: no Accept Quote", async () => {
    // The first answer says "mock", no later one does.
    const fickle = await proxyDeployment(mock.origin, undefined, { keepIdentity: (index) => index === 0 });
    try {
      const report = await verify(spec, validator, { baseUrl: fickle.baseUrl, apiKey: "k", minIntervalMs: 0 });
      expect(report.target).toBe("deployment");
      expect(fickle.seen.filter((s) => s.url.startsWith(`${BASE_PATH}/trades/quote/`))).toEqual([]);
    } finally {
      await fickle.close();
    }
  });

  it("fails a 200 that breaks the contract; an unreachable target is not checked (one request)", async () => {
    const broken = await uniformDeployment(200, { message: "ok" });
    try {
      expect((await verify(spec, validator, { baseUrl: broken.baseUrl, minIntervalMs: 0 })).ok).toBe(false);
    } finally {
      await broken.close();
    }
    const unreachable = await verify(spec, validator, {
      baseUrl: `http://127.0.0.1:${await closedPort()}${BASE_PATH}`,
      minIntervalMs: 0,
      timeoutMs: 2000,
    });
    expect(unreachable.ok).toBe(false);
    expect(unreachable.unchecked).toMatch(/^cannot connect to 127\.0\.0\.1:\d+: connection refused \(ECONNREFUSED\)/);
    expect(unreachable.unchecked).not.toContain("\n");
    expect(unreachable.requests).toBe(1);
    expect(unreachable.counts.failed).toBe(1);
    expect(unreachable.results.find((r) => r.outcome === "failed")?.reason).toMatch(/^no answer/);
  });

  it("a positive case passes only with its documented success; a refusal answered 404 fails", async () => {
    const rewritten = await proxyDeployment(mock.origin, (request, answer) => {
      if (request.method === "GET" && request.url === `${BASE_PATH}/wallets/USDT`) return { status: 404 };
      const summary = request.url.split("?")[0] === `${BASE_PATH}/trades/summary/me`;
      // The positive case only (the mock answers it 200; its negative cases, 422).
      if (request.method === "GET" && summary && request.hasKey && answer.status === 200) return { status: 201 };
      // The mock's conforming 422 refusal, as a 404.
      if (request.url.startsWith(`${BASE_PATH}/invoices/me?`) && request.url.includes("NOT_A_DOCUMENTED_VALUE"))
        return { status: 404 };
      return answer.status === 200 || answer.status >= 400 ? undefined : { status: 500 };
    });
    try {
      const report = await verify(spec, validator, { baseUrl: rewritten.baseUrl, apiKey: "k", minIntervalMs: 0 });
      const failed = report.results.filter((r) => r.outcome === "failed");
      expect(failed.map((r) => r.case).sort()).toEqual(
        [
          "getWalletBalance: GET /wallets/USDT",
          "getTradesSummary: GET /trades/summary/me",
          "listMyInvoices: query status outside its enum",
        ].sort(),
      );
      const byCase = (name: string) => failed.find((r) => r.case === name)!;
      expect(byCase("getWalletBalance: GET /wallets/USDT").reason).toBe(
        "answered 404, not its documented success 200 (not found: is the operation deployed at this base URL?)",
      );
      expect(byCase("getTradesSummary: GET /trades/summary/me").reason).toBe(
        "answered 201, not its documented success 200",
      );
      expect(byCase("getTradesSummary: GET /trades/summary/me").violations.map((v) => v.kind)).toContain(
        "undocumented-status",
      );
      expect(byCase("listMyInvoices: query status outside its enum").reason).toMatch(
        /^answered 404: the operation is not there/,
      );
      expect(report.ok).toBe(false);
      expect(report.cause).toBeUndefined();
    } finally {
      await rewritten.close();
    }
  });

  it("fails a 2xx the contract reaches only through `default`: the documented success is needed", async () => {
    // This contract with a `default` response on getTradesSummary: a 201 with an error body conforms to it.
    const withDefault = structuredClone(spec);
    const operation = (withDefault.paths!["/trades/summary/me"] as JsonObject).get as JsonObject;
    const responses = operation.responses as JsonObject;
    responses.default = responses["4XX"];
    // A body the contract accepts for a 4XX (so for `default`): the mock's answer to a request it refuses.
    const errorBody = await fetch(`${mock.baseUrl}/invoices/me?status=NOT_A_DOCUMENTED_VALUE`, {
      headers: { [API_KEY_HEADER]: "k" },
    }).then((r) => r.text());
    const rewritten = await proxyDeployment(mock.origin, (request, answer) =>
      request.method === "GET" &&
      request.url.split("?")[0] === `${BASE_PATH}/trades/summary/me` &&
      request.hasKey &&
      answer.status === 200
        ? { status: 201, body: errorBody }
        : undefined,
    );
    try {
      const report = await verify(withDefault, createContractValidator(withDefault), {
        baseUrl: rewritten.baseUrl,
        apiKey: "k",
        minIntervalMs: 0,
      });
      const summary = report.results.find((r) => r.case === "getTradesSummary: GET /trades/summary/me")!;
      expect(summary).toMatchObject({
        outcome: "failed",
        status: 201,
        reason: "answered 201, not its documented success 200",
      });
      expect(summary.violations).toEqual([
        {
          kind: "unexpected-status",
          location: "status",
          pointer: "",
          message: "GET /trades/summary/me: expected 200, got 201",
        },
      ]);
    } finally {
      await rewritten.close();
    }
  });

  it("says in one line that the key was refused (all keyed positive cases 401/403) or none given", async () => {
    const forbidding = await uniformDeployment(403, {});
    try {
      const report = await verify(spec, validator, { baseUrl: forbidding.baseUrl, apiKey: "k", minIntervalMs: 0 });
      expect(report.ok).toBe(false);
      expect(report.cause).toMatch(
        /^the API key was refused: all \d+ positive cases that send it were answered 403; check CONTRACT_API_KEY/,
      );
      expect(report.cause).not.toContain("\n");
    } finally {
      await forbidding.close();
    }
    // Without a key, against the mock: the cases that need one get 401.
    const keyless = await verify(spec, validator, { baseUrl: mock.baseUrl, minIntervalMs: 0 });
    expect(keyless.cause).toMatch(
      /^no API key was given, and all \d+ positive cases that need one were answered 401; set CONTRACT_API_KEY/,
    );
    // Not every keyed case refused: no such line (the failure is that case's own).
    const partly = await proxyDeployment(mock.origin, (request) =>
      request.url.split("?")[0] === `${BASE_PATH}/trades/summary/me` && request.hasKey ? { status: 401 } : undefined,
    );
    try {
      const report = await verify(spec, validator, { baseUrl: partly.baseUrl, apiKey: "k", minIntervalMs: 0 });
      expect(report.counts.failed).toBe(1);
      expect(report.cause).toBeUndefined();
    } finally {
      await partly.close();
    }
  });
});

/** The positive cases a deployment is sent without --param (one under an id a POST creates may still be skipped). */
const sentToADeployment = planVerification(spec, { target: "deployment" })
  .filter((c) => c.kind === "positive" && !c.skip)
  .map((c) => c.name);

describe.each([
  [401, "a revoked key", /^the API key was refused: /],
  [404, "nothing there", /^every request was answered 404: is the base URL right \(http:\/\/127\.0\.0\.1:\d+\/v1\)\?$/],
  [418, "a teapot", undefined],
])("verify fails a deployment that answers every request with %i (%s)", (status, _, cause) => {
  let broken: Awaited<ReturnType<typeof uniformDeployment>>;
  let report: VerifyReport;
  beforeAll(async () => {
    broken = await uniformDeployment(status, {});
    report = await verify(spec, validator, { baseUrl: broken.baseUrl, apiKey: "k", minIntervalMs: 0 });
  });
  afterAll(() => broken?.close());

  it("does not meet the contract, naming the one cause if there is one", () => {
    expect(report.ok).toBe(false);
    const positives = report.results.filter((r) => r.kind === "positive" && r.outcome !== "skipped");
    expect(positives.length).toBeGreaterThan(0);
    if (cause) expect(report.cause).toMatch(cause);
    else expect(report.cause).toBeUndefined();
  });

  it.for(sentToADeployment)("%s fails, if sent", (name) => {
    const result = report.results.find((r) => r.case === name && r.kind === "positive");
    if (result?.outcome !== "skipped") expect(result?.outcome, name).toBe("failed");
  });
});
