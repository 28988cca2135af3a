// The rate-limit headers of a response: each required and an integer count ≥ 0, and a documented …-Remaining count
// never above its documented …-Limit sibling's; names that only contain "-remaining", or a …-Remaining without a
// documented …-Limit, are not compared; counts padded with spaces in a plain map are still counts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";
import { deref, type JsonObject, loadSpec, RATE_LIMIT_HEADERS, sharedValidator } from "../support/spec.js";
import { plainGet, successOf } from "./support/examples.js";

const spec = loadSpec();
const validator = sharedValidator();

describe("the spec's rate-limit headers", () => {
  const op = plainGet();
  const success = successOf(op);
  const body = success.examples[0]!.value;
  const base = { method: op.method, path: op.path, status: success.status, headers: success.headers, body };
  const headerNames = Object.keys(success.headers).filter((h) => h !== "content-type");

  it("reports each missing and each non-integer rate-limit header", () => {
    expect(headerNames.length).toBeGreaterThanOrEqual(3);
    const headers = { ...success.headers };
    delete headers[headerNames[0]!];
    headers[headerNames[1]!] = "soon";
    headers[headerNames[2]!] = "1.5";
    const result = validator.validateResponse({ ...base, headers });
    expect(result.violations.map((v) => [v.kind, v.pointer])).toEqual([
      ["missing-header", `/${headerNames[0]}`],
      ["invalid-header", `/${headerNames[1]}`],
      ["invalid-header", `/${headerNames[2]}`],
    ]);
  });

  it("reports a negative rate-limit count (limit and remaining declare minimum 0)", () => {
    const response = op.responses[String(success.status)]!;
    const counts = Object.entries(response.headers as Record<string, unknown>)
      .filter(
        ([, header]) =>
          typeof (deref(spec, (deref(spec, header) as JsonObject).schema) as JsonObject).minimum === "number",
      )
      .map(([name]) => name.toLowerCase());
    expect(counts.length).toBe(2);
    for (const name of counts) {
      const result = validator.validateResponse({ ...base, headers: { ...success.headers, [name]: "-1" } });
      expect(
        result.violations.map((v) => [v.kind, v.pointer]),
        name,
      ).toEqual([["invalid-header", `/${name}`]]);
      // 0 is a count (with nothing remaining, so that a limit of 0 is not exceeded).
      const zero = { ...success.headers, [RATE_LIMIT_HEADERS.remaining]: "0", [name]: "0" };
      expect(validator.validateResponse({ ...base, headers: zero }).ok, name).toBe(true);
    }
  });

  it("reports a remaining count above the limit, and only then (any two counts)", () => {
    const { limit, remaining } = RATE_LIMIT_HEADERS;
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(10_000), (limitCount, remainingCount) => {
        const headers = { ...success.headers, [limit]: String(limitCount), [remaining]: String(remainingCount) };
        const result = validator.validateResponse({ ...base, headers });
        const message =
          `${op.method} ${op.path} ${success.status}: ` +
          `header ${remaining} (${remainingCount}) exceeds ${limit} (${limitCount})`;
        expect(result.violations).toEqual(
          remainingCount > limitCount
            ? [{ kind: "invalid-header", location: "headers", pointer: `/${remaining}`, message }]
            : [],
        );
      }),
    );
  });
});

/** A GET /r whose 200 documents these integer headers. */
function documenting(...names: string[]): OpenApiDocument {
  const headers = Object.fromEntries(names.map((name) => [name, { schema: { type: "integer", minimum: 0 } }]));
  return {
    openapi: "3.1.0",
    paths: { "/r": { get: { responses: { "200": { description: "ok", headers } } } } },
  };
}

const violationsOf = (document: OpenApiDocument, headers: Record<string, string>) =>
  createContractValidator(document)
    .validateResponse({ method: "GET", path: "/r", status: 200, headers })
    .violations.map((v) => `${v.pointer}: ${v.message}`);

describe("which headers the remaining-above-limit rule compares", () => {
  it("only a name that ends in -remaining, with its -limit sibling", () => {
    const document = documenting("X-Remaining-Count", "X-Limit-Count", "X-Quota-Remaining", "X-Quota-Limit");
    const headers = { "x-remaining-count": "5", "x-limit-count": "1", "x-quota-remaining": "2", "x-quota-limit": "3" };
    expect(violationsOf(document, headers)).toEqual([]);
    expect(violationsOf(document, { ...headers, "x-quota-remaining": "4" })).toEqual([
      "/x-quota-remaining: GET /r 200: header x-quota-remaining (4) exceeds x-quota-limit (3)",
    ]);
  });

  it("not a -remaining whose -limit the response does not document, even when the response sends one", () => {
    const document = documenting("X-Quota-Remaining");
    expect(violationsOf(document, { "x-quota-remaining": "9", "x-quota-limit": "1" })).toEqual([]);
  });

  it("compares counts only: a remaining that is no integer, or a limit that is none, is left to the schemas", () => {
    const document = documenting("X-Quota-Remaining", "X-Quota-Limit");
    expect(violationsOf(document, { "x-quota-remaining": "3.5", "x-quota-limit": "3" })).toEqual([
      '/x-quota-remaining: GET /r 200: header x-quota-remaining must be an integer, got "3.5"',
    ]);
    expect(violationsOf(document, { "x-quota-remaining": "5", "x-quota-limit": "many" })).toEqual([
      '/x-quota-limit: GET /r 200: header x-quota-limit must be an integer, got "many"',
    ]);
  });

  it("counts padded with spaces in a plain map (a fetch Headers trims them itself)", () => {
    const document = documenting("X-Quota-Remaining", "X-Quota-Limit");
    expect(violationsOf(document, { "x-quota-remaining": " 7 ", "x-quota-limit": "\t3 " })).toEqual([
      "/x-quota-remaining: GET /r 200: header x-quota-remaining (7) exceeds x-quota-limit (3)",
    ]);
    expect(violationsOf(document, { "x-quota-remaining": " 2", "x-quota-limit": "3 " })).toEqual([]);
  });
});
