// The validator catches deviant answers: a deviant server answers every operation with the spec's example, then with
// mutants that each break one thing; the validator must pass the originals and catch every mutant, for the right
// reason (one test per operation, naming each mutant that fails). The middleware makes an openapi-fetch client such a
// check.
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { paths } from "../../generated/schema.js";
import { contractMiddleware, ContractViolationError, type ContractResult } from "../../src/contract/index.js";
import { CANNED_HEADER, startDeviantServer, type DeviantServer } from "../validator/support/deviant-server.js";
import { buildMutants, type CannedResponse, type Mutant } from "../validator/support/mutants.js";
import { valueAt } from "../validator/support/schema-walk.js";
import { BASE_PATH, listSpecOperations, loadSpec, type SampleRequest, sharedValidator } from "../support/spec.js";
import { Failures } from "../spec/failures.js";

const spec = loadSpec();
const validator = sharedValidator();
const { originals, mutants } = buildMutants(spec);
const operations = listSpecOperations(spec);
/** Each operation with its originals and mutants: what one test checks. */
const byOperation = operations.map((op) => ({
  operationId: op.operationId,
  originals: originals.filter((o) => o.operation.operationId === op.operationId),
  mutants: mutants.filter((m) => m.operation.operationId === op.operationId),
}));
// The deviant server stands for a deployment: it is reached under the spec's base path.
const basePath = BASE_PATH;

let server: DeviantServer;

beforeAll(async () => {
  const canned = new Map<string, CannedResponse>();
  for (const entry of [...originals, ...mutants]) canned.set(entry.id, entry.response);
  server = await startDeviantServer(canned);
});

afterAll(async () => {
  await server?.close();
});

async function fetchCanned(id: string, request: SampleRequest): Promise<ContractResult> {
  const response = await fetch(`${server.origin}${basePath}${request.path}`, {
    method: request.method,
    headers: { ...request.headers, [CANNED_HEADER]: id },
    body: request.body,
  });
  const bodyText = await response.text();
  return validator.validateResponse({
    method: request.method,
    path: new URL(response.url).pathname,
    status: response.status,
    headers: response.headers,
    bodyText,
    expectSuccess: true,
  });
}

function caughtForTheRightReason(mutant: Mutant, result: ContractResult): boolean {
  return result.violations.some(
    (v) =>
      v.kind === mutant.expected.kind &&
      (mutant.expected.pointer === undefined || v.pointer === mutant.expected.pointer) &&
      (mutant.expected.pointerPrefix === undefined || v.pointer.startsWith(mutant.expected.pointerPrefix)),
  );
}

/** Caught and total mutants per kind, for the summary the file prints when it is done. */
const perKind = new Map<string, { caught: number; total: number }>();

afterAll(() => {
  const caught = [...perKind.values()].reduce((sum, tally) => sum + tally.caught, 0);
  const kinds = [...perKind.entries()].map(([kind, t]) => `${kind} ${t.caught}/${t.total}`).join(", ");
  console.log(
    `caught ${caught}/${mutants.length} mutants over ${operations.length} operations (${perKind.size} kinds: ${kinds})`,
  );
});

/** What a mutant claims to break is all it changes: the header, the content type, the status or the body field. */
function expectChangedAsClaimed(mutant: Mutant): void {
  const original = originals.find((o) => o.operation === mutant.operation)!.response;
  const changed = mutant.response;
  const { kind, pointer } = mutant.expected;
  const label = `${mutant.id} (${mutant.description})`;
  if (kind === "missing-header" || kind === "invalid-header") {
    const name = pointer!.slice(1);
    expect(original.headers[name], label).toBeDefined();
    if (kind === "missing-header") expect(Object.keys(changed.headers), label).not.toContain(name);
    else expect(changed.headers[name], label).not.toBe(original.headers[name]);
    expect({ status: changed.status, bodyText: changed.bodyText }, label).toEqual({
      status: original.status,
      bodyText: original.bodyText,
    });
  } else if (kind === "undocumented-content-type") {
    expect(changed.headers["content-type"], label).not.toBe(original.headers["content-type"]);
  } else if (kind === "undocumented-status" || kind === "unexpected-status") {
    expect(changed.status, label).not.toBe(original.status);
  } else {
    expect(kind, label).toBe("body-schema");
    expect(changed.status, label).toBe(original.status);
    expect(changed.bodyText, label).not.toBe(original.bodyText);
    const [before, after] = [JSON.parse(original.bodyText) as unknown, JSON.parse(changed.bodyText) as unknown];
    if (pointer !== undefined) expect(valueAt(after, pointer), label).not.toEqual(valueAt(before, pointer));
    if (mutant.expected.pointerPrefix !== undefined) {
      expect(valueAt(after, mutant.expected.pointerPrefix), label).not.toEqual(
        valueAt(before, mutant.expected.pointerPrefix),
      );
    }
  }
}

describe("originals and mutants derived from the spec", () => {
  it("an original for every operation of the spec, and at least 12 kinds of mutant", () => {
    expect(originals.map((o) => o.operation.operationId).sort()).toEqual(operations.map((o) => o.operationId).sort());
    expect(new Set(mutants.map((m) => m.kind)).size).toBeGreaterThanOrEqual(12);
    // Each mutant is checked in the test of its operation: none may be of an operation the spec does not list.
    const listed = new Set(operations.map((op) => op.operationId));
    expect(mutants.filter((m) => !listed.has(m.operation.operationId)).map((m) => m.id)).toEqual([]);
  });

  it.for(byOperation.map((group) => [group.operationId, group.mutants.length, group] as const))(
    "%s: at least 8 mutants, and each of its %d changes only the part of the response it claims to break",
    ([operationId, , group]) => {
      const failures = new Failures();
      failures.check("at least 8 mutants", () => {
        expect(group.mutants.length, operationId).toBeGreaterThanOrEqual(8);
      });
      for (const m of group.mutants) failures.check(m.id, () => expectChangedAsClaimed(m));
      failures.expectNone(`the mutants of ${operationId}`);
    },
  );
});

describe("the validator against the deviant server", () => {
  it.for(byOperation.map((group) => [group.operationId, group.mutants.length, group] as const))(
    "%s: the unmutated example response passes, and each of its %d mutants is caught, for the right reason",
    async ([operationId, , group]) => {
      const failures = new Failures();
      for (const original of group.originals)
        await failures.checkAsync(original.id, async () => {
          const result = await fetchCanned(original.id, original.request);
          expect(result.violations, `${original.id} (${original.exampleName})`).toEqual([]);
          expect(result.operation?.operationId).toBe(original.operation.operationId);
          expect(server.hits.get(original.id)).toBeGreaterThan(0);
        });
      for (const mutant of group.mutants)
        await failures.checkAsync(mutant.id, async () => {
          const result = await fetchCanned(mutant.id, mutant.request);
          const caught = !result.ok && caughtForTheRightReason(mutant, result);
          const tally = perKind.get(mutant.kind) ?? { caught: 0, total: 0 };
          perKind.set(mutant.kind, { caught: tally.caught + (caught ? 1 : 0), total: tally.total + 1 });
          expect(caught, `${mutant.id} (${mutant.description}): ${JSON.stringify(result.violations)}`).toBe(true);
          expect(server.hits.get(mutant.id)).toBeGreaterThan(0);
        });
      failures.expectNone(`${operationId}'s original and mutants`);
    },
  );

  it("makes an openapi-fetch client a contract test via the middleware", async () => {
    const original = originals.find((o) => o.operation.method === "GET" && !o.operation.path.includes("{"));
    const mutant = mutants.find((m) => m.operation === original?.operation && m.kind === "number-as-string");
    expect(original && mutant).toBeTruthy();
    const reported: ContractResult[] = [];
    const client = createClient<paths>({ baseUrl: `${server.origin}${basePath}` });
    client.use(contractMiddleware(validator, { mode: "throw", onViolation: (result) => reported.push(result) }));
    const call = (id: string) =>
      (client as unknown as { GET: (p: string, init: object) => Promise<{ data?: unknown; response: Response }> }).GET(
        original!.operation.path,
        {
          headers: { [CANNED_HEADER]: id },
        },
      );

    const good = await call(original!.id);
    expect(good.response.status).toBe(200);
    expect(good.data).toEqual(JSON.parse(original!.response.bodyText));
    expect(reported).toEqual([]);

    const error = await call(mutant!.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractViolationError);
    expect((error as ContractViolationError).result.violations[0]?.pointer).toBe(mutant!.expected.pointer);
    expect(reported).toHaveLength(1);

    const reporting = createClient<paths>({ baseUrl: `${server.origin}${basePath}` });
    const reportedInReportMode: ContractResult[] = [];
    reporting.use(
      contractMiddleware(validator, { mode: "report", onViolation: (result) => reportedInReportMode.push(result) }),
    );
    const answeredAnyway = await (
      reporting as unknown as { GET: (p: string, init: object) => Promise<{ data?: unknown }> }
    ).GET(original!.operation.path, {
      headers: { [CANNED_HEADER]: mutant!.id },
    });
    expect(answeredAnyway.data).toEqual(JSON.parse(mutant!.response.bodyText));
    expect(reportedInReportMode.map((r) => r.ok)).toEqual([false]);
  });
});
