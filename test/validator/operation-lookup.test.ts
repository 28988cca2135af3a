// Finding the operation a response answers: every operation of the spec by its templated path, a concrete path, the
// base path and a full URL; the literal template first where templates overlap; and an unknown operation reported
// as the one violation of the response.
import { describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import { BASE_PATH, buildSampleRequest, listSpecOperations, loadSpec, sharedValidator } from "../support/spec.js";
import { Failures } from "../spec/failures.js";
import { plainGet } from "./support/examples.js";
import { smallSpec } from "./support/fixtures.js";

const spec = loadSpec();
const validator = sharedValidator();
const operations = listSpecOperations(spec);

describe("operation lookup", () => {
  it("lists every operation of the spec", () => {
    expect(validator.operations.length).toBe(operations.length);
  });

  it.for(operations.map((op) => [op.operationId, op] as const))(
    "finds %s by templated path, concrete path, base path and full URL",
    ([, op]) => {
      const concrete = buildSampleRequest(spec, op).path;
      const failures = new Failures();
      for (const candidate of [
        op.path,
        concrete,
        `${BASE_PATH}${concrete}`,
        `http://127.0.0.1:4010${BASE_PATH}${concrete}?x=1`,
      ]) {
        failures.check(`${op.method} ${candidate}`, () => {
          expect(validator.findOperation(op.method.toLowerCase(), candidate)?.operationId).toBe(op.operationId);
        });
      }
      failures.expectNone(`the lookups of ${op.operationId}`);
    },
  );

  it("prefers, among matching templates, the one with a literal at the first position where they differ", () => {
    const operation = (id: string) => ({ get: { operationId: id, responses: {} } });
    const fixture = (paths: Record<string, unknown>) =>
      createContractValidator({ openapi: "3.1.0", servers: [{ url: "https://example.invalid/v9" }], paths } as never);
    const all = fixture({
      "/a/{x}/c": operation("axc"),
      "/a/b/{y}": operation("aby"),
      "/{p}/b/c": operation("pbc"),
      "/a/b/c": operation("abc"),
    });
    const expectations: Array<[string, string]> = [
      ["/a/b/c", "abc"], // the literal path
      ["/v9/a/b/c", "abc"], // with the base path
      ["/a/b/d", "aby"],
      ["/a/z/c", "axc"],
      ["/z/b/c", "pbc"],
    ];
    for (const [path, id] of expectations) expect(all.findOperation("GET", path)?.operationId, path).toBe(id);
    // Without the literal path, /a/b/c matches all three templates: /a/b/{y} has literals in the first two places.
    const templates = fixture({
      "/{p}/b/c": operation("pbc"),
      "/a/{x}/c": operation("axc"),
      "/a/b/{y}": operation("aby"),
    });
    expect(templates.findOperation("GET", "/a/b/c")?.operationId).toBe("aby");
    expect(templates.findOperation("GET", "/q/r/s")).toBeUndefined();
  });

  it("reports an unknown operation", () => {
    const result = validator.validateResponse({
      method: "GET",
      path: "/no/such/path",
      status: 200,
      headers: {},
      body: {},
    });
    expect(result.ok).toBe(false);
    expect(result.violations).toEqual([expect.objectContaining({ kind: "unknown-operation", location: "operation" })]);
    const wrongMethod = validator.validateResponse({ method: "DELETE", path: plainGet().path, status: 200 });
    expect(wrongMethod.violations[0]?.kind).toBe("unknown-operation");
  });

  it("validateResponse of an unknown operation: that one violation, whole-request, and nothing else", () => {
    const small = createContractValidator(smallSpec());
    expect(small.validateResponse({ method: "get", path: "/nope", status: 200, headers: {}, bodyText: "{}" })).toEqual({
      ok: false,
      operation: undefined,
      responseKey: undefined,
      violations: [
        {
          kind: "unknown-operation",
          location: "operation",
          pointer: "",
          message: "GET /nope is not an operation of the spec",
        },
      ],
      warnings: [],
    });
  });
});
