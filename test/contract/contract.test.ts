// The contract suite: the shipped verification (src/verify, what `api-contract verify` runs) as vitest
// cases: one per operation of generated/openapi.json plus the negative cases, sent to a mock started
// here (default) or to a live deployment (CONTRACT_BASE_URL, CONTRACT_API_KEY, CONTRACT_API_SECRET;
// CONTRACT_ALLOW_SIDE_EFFECTS=1, CONTRACT_MIN_INTERVAL_MS, CONTRACT_PARAMS="id=…,quoteId=…").
// The report goes to reports/contract/. The mock run signs every request with a test secret.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import {
  type CaseResult,
  createVerifier,
  planVerification,
  type Verifier,
  writeReport,
} from "../../src/verify/index.js";
import { listSpecOperations, loadSpec, repoRoot, sharedValidator } from "../support/spec.js";

const spec = loadSpec();
const validator = sharedValidator();
const operations = listSpecOperations(spec);
const liveUrl = process.env.CONTRACT_BASE_URL?.trim();
const target = liveUrl ? "deployment" : "mock";
const params = Object.fromEntries(
  (process.env.CONTRACT_PARAMS ?? "")
    .split(",")
    .filter((pair) => pair.includes("="))
    .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
);
const allowSideEffects = target === "mock" || process.env.CONTRACT_ALLOW_SIDE_EFFECTS === "1";
const planned = planVerification(spec, { target, allowSideEffects, params });

let mock: StartedMock | undefined;
let verifier: Verifier;
let baseUrl: string;
const results: CaseResult[] = [];
const startedAt = new Date().toISOString();

beforeAll(async () => {
  if (!liveUrl) mock = await startMock();
  baseUrl = liveUrl ?? mock!.baseUrl;
  verifier = createVerifier(spec, validator, {
    baseUrl,
    target,
    allowSideEffects,
    params,
    apiKey: liveUrl ? process.env.CONTRACT_API_KEY : "contract-test-key",
    apiSecret: liveUrl ? process.env.CONTRACT_API_SECRET : "contract-test-secret",
    minIntervalMs: liveUrl ? Number(process.env.CONTRACT_MIN_INTERVAL_MS ?? 1000) : 0,
  });
  console.log(
    `contract: target ${baseUrl} (${target})${liveUrl ? `, side effects ${allowSideEffects ? "ALLOWED" : "off"}` : ""}`,
  );
  for (const c of planned.filter((p) => p.skip)) {
    results.push(await verifier.run(c)); // reported as skipped, with the reason; nothing is sent
    console.log(`contract: skipped ${c.name}: ${c.skip}`);
  }
});

afterAll(async () => {
  await mock?.stop();
  if (!verifier) return;
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const r of results) counts[r.outcome]++;
  const files = await writeReport(
    {
      baseUrl,
      target,
      startedAt,
      finishedAt: new Date().toISOString(),
      requests: verifier.requests,
      counts,
      ok: counts.failed === 0 && results.some((r) => r.kind === "positive" && r.outcome === "passed"),
      results,
    },
    path.join(repoRoot, "reports", "contract"),
    "contract-report",
  );
  console.log(`contract: ${verifier.requests} requests; report ${files.markdown}`);
});

describe("contract: the planned cases", () => {
  it("has a positive case for every operation of the spec", () => {
    const positive = planned.filter((c) => c.kind === "positive");
    expect(positive.map((c) => c.operation.operationId).sort()).toEqual(operations.map((o) => o.operationId).sort());
  });

  it("derives the negative cases from the spec: missing key, invalid bodies and queries, malformed JSON", () => {
    const negative = planned.filter((c) => c.kind === "negative");
    for (const pattern of [
      /without API key$/,
      /malformed JSON$/,
      /required .* missing$/,
      /an unknown field$/,
      / outside its enum$/,
      / of the wrong type$/,
      / query .* outside its enum$/,
      / query .* of the wrong type$/,
    ]) {
      expect(
        negative.some((c) => pattern.test(c.name)),
        String(pattern),
      ).toBe(true);
    }
  });

  // Each negative case that sends a broken body: what goes on the wire is really invalid.
  const brokenBodies = planned
    .filter((c) => c.kind === "negative" && (c.invalidBody !== undefined || c.name.endsWith("malformed JSON")))
    .map((c) => [c.name, c] as const);
  // `%s` prints the full name (`$name` would truncate it).
  it.for(brokenBodies)("sends a really invalid body: %s", ([, c]) => {
    if (c.invalidBody !== undefined) {
      // As sent: the request's JSON text parsed back.
      expect(JSON.parse(c.request.body!), c.name).toEqual(c.invalidBody);
      expect(validator.validateRequestBody(c.operation.method, c.operation.path, c.invalidBody), c.name).not.toEqual(
        [],
      );
    }
    if (c.name.endsWith("malformed JSON")) expect(() => JSON.parse(c.request.body!), c.name).toThrow();
  });
});

describe.each([
  ["positive", "answers"],
  ["negative", "refuses"],
] as const)("contract: %s cases", (kind, verb) => {
  for (const c of planned.filter((p) => p.kind === kind)) {
    it.skipIf(c.skip !== undefined)(`${verb} ${c.name}`, async () => {
      const result = await verifier.run(c);
      results.push(result);
      expect(result.violations).toEqual([]);
      expect(result.outcome, result.reason).toBe("passed");
    });
  }
});
