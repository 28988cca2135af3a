// The status of a response: documented exactly, by its range (4XX) or by default, else reported; and a status outside
// 2xx reported when the caller expected a success, whether documented or not.
import { describe, expect, it } from "vitest";
import { createContractValidator, type OpenApiDocument } from "../../src/contract/index.js";
import { jsonMedia, loadSpec, mediaExamples, sharedValidator } from "../support/spec.js";
import { plainGet, successOf } from "./support/examples.js";
import { checkMediaTypes } from "./support/fixtures.js";

describe("statuses", () => {
  it("reports an undocumented status and a non-2xx when success was expected", () => {
    const op = plainGet();
    const success = successOf(op);
    const body = success.examples[0]!.value;
    const base = { method: op.method, path: op.path, status: success.status, headers: success.headers, body };
    const validator = sharedValidator();
    const undocumented = validator.validateResponse({ ...base, status: 302 });
    expect(undocumented.violations).toEqual([
      expect.objectContaining({ kind: "undocumented-status", location: "status" }),
    ]);
    const rangeKey = Object.keys(op.responses).find((k) => /^4XX$/i.test(k));
    expect(rangeKey).toBeDefined();
    // The range's documented error body.
    const [error] = mediaExamples(loadSpec(), jsonMedia(op.responses[rangeKey!]));
    const notFound = validator.validateResponse({ ...base, status: 404, body: error!.value });
    expect(notFound).toMatchObject({ ok: true, responseKey: rangeKey });
    const expected = validator.validateResponse({ ...base, status: 404, body: error!.value, expectSuccess: true });
    expect(expected.violations.map((v) => v.kind)).toEqual(["unexpected-status"]);
  });

  it("a status below 200 is not the expected success", () => {
    expect(checkMediaTypes(101, { expectSuccess: true }).violations.map((v) => v.kind)).toContain("unexpected-status");
  });

  it("status violations, exactly: messages that name the operation, and no response key", () => {
    expect(checkMediaTypes(302, { expectSuccess: true }).violations).toEqual([
      { kind: "unexpected-status", location: "status", pointer: "", message: "GET /a: expected a 2xx status, got 302" },
      { kind: "undocumented-status", location: "status", pointer: "", message: "GET /a: status 302 is not documented" },
    ]);
    expect(checkMediaTypes(302, {})).toMatchObject({ ok: false, responseKey: undefined });
  });

  it("validates a tiny document of its own: ranges, default and a nested ref", () => {
    const tiny: OpenApiDocument = {
      openapi: "3.1.0",
      servers: [{ url: "https://{host}/api/v2", variables: { host: { default: "example.invalid" } } }],
      paths: {
        "/things/{id}": {
          get: {
            operationId: "getThing",
            responses: {
              "200": {
                description: "ok",
                content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Thing" } } },
              },
              default: { description: "any", content: { "text/plain": { schema: { type: "string", maxLength: 3 } } } },
            },
          },
        },
      },
      components: {
        schemas: {
          Thing: {
            type: "object",
            required: ["tags"],
            properties: { tags: { type: "array", items: { $ref: "#/components/schemas/Tag" } } },
          },
          Tag: { type: "string", enum: ["a", "b"] },
        },
      },
    };
    const own = createContractValidator(tiny);
    const ok = own.validateResponse({
      method: "get",
      path: "/api/v2/things/7",
      status: 200,
      headers: { "Content-Type": "application/problem+json" },
      bodyText: '{"tags":["a"]}',
    });
    expect(ok.violations).toEqual([]);
    const bad = own.validateResponse({
      method: "get",
      path: "/api/v2/things/7",
      status: 200,
      headers: { "Content-Type": "application/problem+json" },
      body: { tags: ["a", "c"] },
    });
    expect(bad.violations.map((v) => v.pointer)).toEqual(["/tags/1"]);
    const fallback = own.validateResponse({
      method: "get",
      path: "/things/7",
      status: 503,
      headers: { "content-type": "text/plain" },
      bodyText: "toolong",
    });
    expect(fallback).toMatchObject({ responseKey: "default", ok: false });
    expect(fallback.violations[0]?.kind).toBe("body-schema");
  });
});
