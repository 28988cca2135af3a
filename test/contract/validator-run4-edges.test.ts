// Edges of the contract validator from mutation run 4, on a fixture contract: the exact violations for a body
// where none is documented, a missing Content-Type, JSON that does not parse, an empty body; header values
// converted by their declared type (boolean, number, integer-or-string) and validated each by its own schema;
// statuses below 200 when a success is expected; strict warnings only for an otherwise valid body; and the
// refusal of what is not an OpenAPI 3.1 document.
import { describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";

const fixture: OpenApiDocument = {
  openapi: "3.1.0",
  paths: {
    "/a": {
      get: {
        responses: {
          "200": {
            description: "ok",
            headers: {
              "X-Int": { schema: { type: "integer", minimum: 1 } },
              "X-Bool": { schema: { type: "boolean", const: true } },
              "X-Num": { schema: { type: "number" } },
              "X-Either": { schema: { type: ["integer", "string"] } },
            },
            content: {
              "application/json": {
                schema: { type: "object", required: ["n"], properties: { n: { type: "integer" } } },
              },
              "text/plain": { schema: { type: "string" } },
              "text/csv": {},
            },
          },
          "204": { description: "nothing" },
        },
      },
    },
  },
};
// Built per check, not while the file loads: Stryker links a mutant to the tests that run its code.
const validator = () => createContractValidator(fixture);
const json = { "content-type": "application/json" };
const check = (
  status: number,
  input: { headers?: Record<string, string>; bodyText?: string; body?: unknown; expectSuccess?: boolean },
  strict = false,
) =>
  validator().validateResponse(
    { method: "GET", path: "/a", status, headers: new Headers(input.headers ?? {}), ...input },
    { strict },
  );

describe("body violations, exactly", () => {
  it("a body where the spec documents none, as text or as a value; none without one", () => {
    const expected = {
      kind: "undocumented-content-type",
      location: "headers",
      pointer: "/content-type",
      message: "GET /a 204: the spec documents no body, but the response has one",
    };
    expect(check(204, { bodyText: "x" }).violations).toEqual([expected]);
    expect(check(204, { body: {} }).violations).toEqual([expected]);
    expect(check(204, { bodyText: "" }).violations).toEqual([]);
    expect(check(204, {}).violations).toEqual([]);
  });

  it("a missing Content-Type names every documented one", () => {
    expect(check(200, { bodyText: '{"n":1}' }).violations).toEqual([
      {
        kind: "undocumented-content-type",
        location: "headers",
        pointer: "/content-type",
        message: "GET /a 200: Content-Type is missing (documented: application/json, text/plain, text/csv)",
      },
    ]);
  });

  it("JSON that does not parse, and an empty body where one is documented", () => {
    const [invalid, ...rest] = check(200, { headers: json, bodyText: "{" }).violations;
    expect(rest).toEqual([]);
    expect(invalid).toEqual({
      kind: "invalid-json",
      location: "body",
      pointer: "",
      message: expect.stringMatching(/^GET \/a 200: body is not valid JSON \(.+\)$/),
    });
    expect(check(200, { headers: json, bodyText: "" }).violations).toEqual([
      {
        kind: "body-schema",
        location: "body",
        pointer: "",
        message: "GET /a 200: body is empty, but the spec documents one",
      },
    ]);
  });

  it("a documented media type without a schema takes any body", () => {
    expect(check(200, { headers: { "content-type": "text/csv" }, bodyText: "a,b" }).violations).toEqual([]);
  });

  it("strict warnings only when the body has no violation", () => {
    const broken = check(200, { headers: json, bodyText: '{"n":"x","extra":1}' }, true);
    expect(broken.violations.map((v) => v.pointer)).toEqual(["/n"]);
    expect(broken.warnings).toEqual([]);
    expect(check(200, { headers: json, bodyText: '{"n":1,"extra":1}' }, true).warnings).not.toEqual([]);
  });
});

describe("header values", () => {
  const headers = (values: Record<string, string>) =>
    check(200, { headers: { ...json, ...values }, bodyText: '{"n":1}' }).violations;

  it("are converted by their declared type and each checked against its own schema", () => {
    expect(headers({ "x-int": "2", "x-bool": "true", "x-num": "1.5", "x-either": "abc" })).toEqual([]);
    expect(headers({ "x-bool": "false" }).map((v) => v.pointer)).toEqual(["/x-bool"]);
    expect(headers({ "x-either": "7" })).toEqual([]);
  });

  it("a schema violation is named without ajv's (root)", () => {
    const [violation, ...rest] = headers({ "x-int": "0" });
    expect(rest).toEqual([]);
    expect(violation).toMatchObject({ kind: "invalid-header", location: "headers", pointer: "/x-int" });
    expect(violation!.message).toMatch(/^GET \/a 200: header x-int (?!\(root\))\S/);
    expect(violation!.message).not.toContain("(root)");
  });
});

describe("statuses and documents", () => {
  it("a status below 200 is not the expected success", () => {
    expect(check(101, { expectSuccess: true }).violations.map((v) => v.kind)).toContain("unexpected-status");
  });

  it("refuses what is not an OpenAPI 3.1 document with its own message", () => {
    const message = "contract: expected an OpenAPI 3.1 document";
    expect(() => createContractValidator(null as never)).toThrow(message);
    expect(() => createContractValidator({ openapi: 31 } as never)).toThrow(message);
    expect(() => createContractValidator({ openapi: "3.0.3" } as never)).toThrow(message);
  });
});
