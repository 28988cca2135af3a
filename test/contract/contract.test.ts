// The contract suite: one case per operation of generated/openapi.json, plus negative cases, sent
// to a Prism mock started here (default) or to a live deployment (CONTRACT_BASE_URL, CONTRACT_API_KEY).
// On a live target it is safe by default: operations that change state run only with
// CONTRACT_ALLOW_SIDE_EFFECTS=1, the operation with its own quota (Create Quote) is called at most
// once, and requests are paced (CONTRACT_MIN_INTERVAL_MS, default 1000 ms: 60/min, far under 200/min).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { negativeCases, type NegativeCase } from "./helpers/negative-cases.js";
import { writeReport, type ReportEntry } from "./helpers/report.js";
import {
  API_KEY_HEADER,
  buildSampleRequest,
  isObject,
  listSpecOperations,
  loadSpec,
  mediaExamples,
  jsonMedia,
  sharedValidator,
  successKey,
  type SpecOperation,
} from "../support/spec.js";
import { createSender, openTarget, redactHeaders, type Target } from "./helpers/target.js";

const spec = loadSpec();
const validator = sharedValidator();
const operations = listSpecOperations(spec);
const keyHeader = API_KEY_HEADER;
const live = Boolean(process.env.CONTRACT_BASE_URL?.trim());
const allowSideEffects = process.env.CONTRACT_ALLOW_SIDE_EFFECTS === "1";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Why a case does not run against this target, or undefined when it runs. */
function skipReason(op: SpecOperation, kind: "positive" | "negative"): string | undefined {
  if (!live || allowSideEffects) return undefined;
  if (op.hasOwnQuota && kind === "negative")
    return "each call may count against this operation's own quota; the suite spends one call at most (set CONTRACT_ALLOW_SIDE_EFFECTS=1)";
  if (!SAFE_METHODS.has(op.method) && !op.hasOwnQuota)
    return `${op.method} changes state on the live service; set CONTRACT_ALLOW_SIDE_EFFECTS=1 to run it`;
  return undefined;
}

const entries: ReportEntry[] = [];
const startedAt = new Date().toISOString();
let target: Target;
let sender: ReturnType<typeof createSender>;
/** Ids created by POST cases, by path: `/x` → id lets a later `/x/{param}` case use it on a live target. */
const createdIds = new Map<string, string>();

beforeAll(async () => {
  target = await openTarget();
  sender = createSender(target);
  console.log(
    `contract: target ${target.baseUrl} (${target.kind})${target.kind === "live" ? `, side effects ${allowSideEffects ? "ALLOWED" : "off"}, ${target.minIntervalMs} ms between requests` : ""}`,
  );
  const skipped = entries.filter((e) => e.outcome === "skipped");
  for (const e of skipped) console.log(`contract: skipped ${e.case}: ${e.skippedBecause}`);
});

afterAll(async () => {
  await target?.stop();
  if (!target) return;
  const files = writeReport({ target: target.baseUrl, targetKind: target.kind, startedAt, requests: sender.count }, entries);
  console.log(`contract: ${sender.count} requests; report ${files.markdown}`);
});

function headersFor(op: SpecOperation, base: Record<string, string>, withKey: boolean): Record<string, string> {
  const headers = { ...base };
  if (withKey && op.security !== "none" && target.apiKey) headers[keyHeader] = target.apiKey;
  return headers;
}

async function run(entry: ReportEntry, method: string, path: string, headers: Record<string, string>, body: string | undefined) {
  const url = `${target.baseUrl}${path}`;
  entry.request = { method, url, headers: redactHeaders(headers, keyHeader), ...(body !== undefined ? { body } : {}) };
  const response = await sender.send({ method, url, headers, body });
  entry.status = response.status;
  entry.durationMs = Math.round(response.durationMs);
  return response;
}

describe("contract: one case per operation", () => {
  it("has a buildable case for every operation of the spec", () => {
    expect(operations.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const op of operations) {
      try {
        buildSampleRequest(spec, op, { includeOptionalQuery: true });
        if (!mediaExamples(spec, jsonMedia(op.responses[successKey(op)])).length) problems.push(`${op.operationId}: no success example`);
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
    expect(problems).toEqual([]);
  });

  for (const op of operations) {
    const reason = skipReason(op, "positive");
    const name = `${op.operationId}: ${op.method} ${op.path}`;
    if (reason)
      entries.push({
        case: name,
        operationId: op.operationId,
        kind: "positive",
        outcome: "skipped",
        skippedBecause: reason,
        violations: [],
        warnings: [],
        notes: [],
      });
    it.skipIf(reason !== undefined)(name, async () => {
      const entry: ReportEntry = {
        case: name,
        operationId: op.operationId,
        kind: "positive",
        outcome: "failed",
        violations: [],
        warnings: [],
        notes: [],
      };
      entries.push(entry);
      const sample = buildSampleRequest(spec, op, { includeOptionalQuery: true });
      let path = sample.path;
      if (target.kind === "live") {
        for (const [createdPath, id] of createdIds) {
          const match = new RegExp(`^${createdPath.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/\\{[^}]+\\}$`).exec(op.path);
          if (match) {
            path = `${createdPath}/${encodeURIComponent(id)}`;
            entry.notes.push(`path parameter taken from the id created by POST ${createdPath}`);
          }
        }
      }
      const response = await run(entry, op.method, path, headersFor(op, sample.headers, true), sample.body);
      const result = validator.validateResponse(
        {
          method: op.method,
          path: op.path,
          status: response.status,
          headers: response.headers,
          bodyText: response.bodyText,
          expectSuccess: target.kind === "mock",
        },
        { strict: target.kind === "live" },
      );
      entry.violations = result.violations;
      entry.warnings = result.warnings;
      if (target.kind === "live" && (response.status < 200 || response.status > 299))
        entry.notes.push(`answered ${response.status} (documented as ${result.responseKey ?? "nothing"})`);
      if (op.method === "POST" && response.status < 300) {
        const parsed = JSON.parse(response.bodyText) as unknown;
        if (isObject(parsed) && isObject(parsed.data) && typeof parsed.data.id === "string") createdIds.set(op.path, parsed.data.id);
      }
      expect(result.violations).toEqual([]);
      expect(response.status).toBeLessThan(500);
      entry.outcome = "passed";
    });
  }
});

describe("contract: negative cases", () => {
  const cases: NegativeCase[] = negativeCases(spec, operations);

  it("derives the negative cases from the spec (missing key, invalid bodies, malformed JSON)", () => {
    expect(cases.some((c) => c.withoutKey)).toBe(true);
    expect(cases.some((c) => c.name.endsWith("malformed JSON"))).toBe(true);
    expect(cases.some((c) => /required .* missing$/.test(c.name))).toBe(true);
    expect(cases.some((c) => c.name.endsWith("an unknown field"))).toBe(true);
    expect(cases.some((c) => c.name.endsWith("outside its enum"))).toBe(true);
    expect(cases.some((c) => c.name.endsWith("of the wrong type"))).toBe(true);
    expect(cases.some((c) => / query .* outside its enum$/.test(c.name))).toBe(true);
    expect(cases.some((c) => / query .* of the wrong type$/.test(c.name))).toBe(true);
    for (const c of cases) {
      if (c.invalidBody !== undefined) {
        // As sent: the request's JSON text parsed back.
        expect(JSON.parse(c.request.body!), c.name).toEqual(c.invalidBody);
        expect(validator.validateRequestBody(c.operation.method, c.operation.path, c.invalidBody), c.name).not.toEqual([]);
      }
      if (c.name.endsWith("malformed JSON")) {
        expect(c.request.body, c.name).toBeDefined();
        expect(() => JSON.parse(c.request.body!), c.name).toThrow();
      }
    }
  });

  for (const c of cases) {
    const op = c.operation;
    const reason = skipReason(op, "negative");
    if (reason)
      entries.push({
        case: c.name,
        operationId: op.operationId,
        kind: "negative",
        outcome: "skipped",
        skippedBecause: reason,
        violations: [],
        warnings: [],
        notes: [],
      });
    it.skipIf(reason !== undefined)(`rejects ${c.name}`, async () => {
      const entry: ReportEntry = {
        case: c.name,
        operationId: op.operationId,
        kind: "negative",
        outcome: "failed",
        violations: [],
        warnings: [],
        notes: [],
      };
      entries.push(entry);
      const response = await run(entry, c.request.method, c.request.path, headersFor(op, c.request.headers, !c.withoutKey), c.request.body);
      const result = validator.validateResponse({
        method: op.method,
        path: op.path,
        status: response.status,
        headers: response.headers,
        bodyText: response.bodyText,
      });
      entry.violations = result.violations;
      expect(response.status, `${c.name} answered ${response.status}`).toBeGreaterThanOrEqual(400);
      expect(response.status, `${c.name} answered ${response.status}`).toBeLessThan(500);
      if (target.kind === "mock") {
        // Refused for the reason the case is about: a missing key gets the documented 401; an invalid
        // body or query gets Prism's 422/400 (the front's 400 for malformed JSON), never a 401.
        if (c.withoutKey) {
          if ("401" in op.responses) expect(response.status).toBe(401);
        } else expect([400, 422], `${c.name} answered ${response.status}`).toContain(response.status);
      }
      expect(result.violations).toEqual([]);
      entry.outcome = "passed";
    });
  }
});
