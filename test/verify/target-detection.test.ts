// verify learns what its target is from the answers: the package's mock says so in every answer
// (X-Api-Contract-Mock, with its version), the sandbox too and X-Api-Contract-Sandbox beside it; one answer without
// the mock's header makes the target a deployment for good, one without the sandbox's a mock.
// What it learns decides the plan (every case on the mock), the pacing, onTarget and the report.
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import { MOCK_IDENTITY_HEADER, SANDBOX_IDENTITY_HEADER } from "../../src/pipeline/identity.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";
import { type VerifyOptions, type VerifyTarget, verify } from "../../src/verify/index.js";
import { json } from "../support/media.js";
import { closedPort } from "../support/deployments.js";
import { listenLocally } from "../support/local-server.js";

const item = { type: "object", required: ["data"], properties: { data: { type: "object" } } };
/** Two reads; the id of GET /items/{id} is an example, which a deployment needs a real value for. */
const spec = {
  openapi: "3.1.0",
  info: { title: "Items", version: "1.0.0" },
  paths: {
    "/items": {
      get: { operationId: "listItems", responses: { "200": { description: "ok", ...json(item, { data: {} }) } } },
    },
    "/items/{id}": {
      get: {
        operationId: "getItem",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" }, example: "i-1" }],
        responses: { "200": { description: "ok", ...json(item, { data: {} }) } },
      },
    },
  },
} as OpenApiDocument;
const validator = createContractValidator(spec);

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/**
 * A server on 127.0.0.1 answering 200 { data: {} }, with the mock's header (version 9.9.9) on its first
 * `identified` answers.
 */
async function target(identified: number, sandboxAnswers = 0): Promise<{ baseUrl: string; seen: string[] }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? "");
    const identity: Record<string, string> = seen.length <= identified ? { [MOCK_IDENTITY_HEADER]: "9.9.9" } : {};
    if (seen.length <= sandboxAnswers) identity[SANDBOX_IDENTITY_HEADER] = "9.9.9";
    res.writeHead(200, { "content-type": "application/json", ...identity }).end('{"data":{}}');
  });
  const { origin, close } = await listenLocally(server);
  closers.push(close);
  return { baseUrl: `${origin}/v1`, seen };
}

/** Runs verify with a fake clock (its time moves only by the pauses asked for), recording onTarget and the pauses. */
async function run(options: VerifyOptions) {
  let time = 0;
  const pauses: number[] = [];
  const told: Array<[VerifyTarget, string | undefined]> = [];
  const clock = {
    now: () => time,
    sleep: async (ms: number) => {
      pauses.push(ms);
      time += ms;
    },
  };
  const report = await verify(spec, validator, {
    clock,
    onTarget: (t, version) => told.push([t, version]),
    ...options,
  });
  return { report, pauses, told };
}

describe("verify: what the target is, learned from the answers", () => {
  it("every answer with the mock's header: the mock, its version; every case, unpaced; told once", async () => {
    const server = await target(Number.POSITIVE_INFINITY);
    const { report, pauses, told } = await run({ baseUrl: server.baseUrl });
    expect(report).toMatchObject({
      target: "mock",
      mockVersion: "9.9.9",
      ok: true,
      counts: { passed: 2, failed: 0, skipped: 0 },
    });
    expect(server.seen).toEqual(["/v1/items", "/v1/items/i-1"]);
    expect(pauses).toEqual([]);
    expect(told).toEqual([["mock", "9.9.9"]]);
  });

  it("every answer with both headers: the sandbox, its version; every case, unpaced; told once", async () => {
    const server = await target(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
    const { report, pauses, told } = await run({ baseUrl: server.baseUrl });
    expect(report).toMatchObject({ target: "sandbox", mockVersion: "9.9.9", counts: { passed: 2, skipped: 0 } });
    // The flows call the service's operations, which this contract does not have: none runs, each saying what it
    // lacks (the first three here), or, for the flows that call only the control API, that it could not use it.
    const lacking = "the contract verified has no getTradePairs, getCurrencies, createQuote, acceptQuote";
    const reasons = report.flows!.map((flow) => flow.reason);
    expect(reasons.slice(0, 3)).toEqual([
      `${lacking}, getMyWallets, getUserTransactions`,
      lacking,
      `${lacking}, getMyWallets`,
    ]);
    const control = "it needs the sandbox's control API, which only the package's sandbox gives it (control API)";
    expect(reasons.filter((reason) => !reason?.startsWith("the contract verified has no "))).toEqual([control]);
    expect(new Set(report.flows!.map((flow) => flow.outcome))).toEqual(new Set(["untested"]));
    expect(server.seen).toEqual(["/v1/items", "/v1/items/i-1"]);
    expect(pauses).toEqual([]);
    expect(told).toEqual([["sandbox", "9.9.9"]]);
  });

  it("the sandbox's header on the first answer only: the mock from the second; the sandbox's alone: none", async () => {
    const server = await target(Number.POSITIVE_INFINITY, 1);
    const { report, told } = await run({ baseUrl: server.baseUrl });
    expect(report.target).toBe("mock");
    expect(told).toEqual([
      ["sandbox", "9.9.9"],
      ["mock", "9.9.9"],
    ]);
    // Without the mock's header, the sandbox's says nothing: whoever sends it alone is not the package's.
    const alone = await target(0, Number.POSITIVE_INFINITY);
    expect((await run({ baseUrl: alone.baseUrl })).report.target).toBe("deployment");
  });

  it("one answer without it: a deployment for good, without a version; told again when that changes", async () => {
    const server = await target(1);
    const { report, pauses, told } = await run({ baseUrl: server.baseUrl });
    // The second case ran on the mock's plan (the first answer said mock); its answer said otherwise.
    expect(server.seen).toEqual(["/v1/items", "/v1/items/i-1"]);
    expect(report.target).toBe("deployment");
    expect("mockVersion" in report).toBe(false);
    expect(pauses).toEqual([]);
    expect(told).toEqual([
      ["mock", "9.9.9"],
      ["deployment", undefined],
    ]);
  });

  it("no answer with it: a deployment from the start, the example id not sent; told once", async () => {
    const server = await target(0);
    const { report, told } = await run({ baseUrl: server.baseUrl });
    expect(server.seen).toEqual(["/v1/items"]);
    expect(report).toMatchObject({ target: "deployment", counts: { passed: 1, failed: 0, skipped: 1 } });
    expect("mockVersion" in report).toBe(false);
    expect(told).toEqual([["deployment", undefined]]);
  });

  it("a target given as deployment stays one, and has no version, whatever the answers say", async () => {
    const server = await target(Number.POSITIVE_INFINITY);
    const { report, told } = await run({ baseUrl: server.baseUrl, target: "deployment", params: { id: "real" } });
    expect(server.seen).toEqual(["/v1/items", "/v1/items/real"]);
    expect(report.target).toBe("deployment");
    expect("mockVersion" in report).toBe(false);
    expect(told).toEqual([["deployment", undefined]]);
  });

  it("tells nothing when no answer came: the target is not known", async () => {
    const port = await closedPort();
    const { report, told } = await run({ baseUrl: `http://127.0.0.1:${port}/v1` });
    expect(report.unchecked).toMatch(/connection refused/);
    expect(told).toEqual([]);
  });
});
