// Request bodies against the operation's JSON request body schema: the spec's documented request examples pass and
// an unknown field is refused where bodies are closed (one test per operation); unknown operations, required and
// optional bodies (a required one of any media type), no JSON media type and no schema, on a small contract; a
// multipart/form-data body's parts against its schema when that media type is given.
import { describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import { MEMO_LIMIT } from "../../src/contract/responses.js";
import {
  buildSampleRequest,
  type JsonObject,
  listSpecOperations,
  loadSpec,
  requestBodySchema,
  sharedValidator,
} from "../support/spec.js";
import { Failures } from "../spec/failures.js";
import { smallSpec } from "./support/fixtures.js";

const spec = loadSpec();
const withBodies = listSpecOperations(spec).filter((op) => requestBodySchema(op) !== undefined);

describe("the spec's request bodies", () => {
  it("some operations take a JSON request body", () => {
    expect(withBodies.length).toBeGreaterThan(0);
  });

  it.for(withBodies.map((op) => [op.operationId, op] as const))(
    "%s: accepts the documented request example and rejects an unknown field",
    ([, op]) => {
      const validator = sharedValidator();
      const sample = buildSampleRequest(spec, op);
      const failures = new Failures();
      failures.check("the documented request example passes", () => {
        expect(validator.validateRequestBody(op.method, op.path, JSON.parse(sample.body!)), op.operationId).toEqual([]);
      });
      failures.check("an unknown field is refused", () => {
        const extra = validator.validateRequestBody(op.method, op.path, {
          ...(JSON.parse(sample.body!) as JsonObject),
          unknownField: 1,
        });
        expect(
          extra.map((v) => v.pointer),
          op.operationId,
        ).toContain("/unknownField");
      });
      failures.expectNone(`the request body of ${op.operationId}`);
    },
  );
});

describe("validateRequestBody", () => {
  it("unknown operations, required and optional bodies, no JSON media type, no schema", () => {
    const validator = createContractValidator(smallSpec());
    expect(validator.validateRequestBody("get", "/nope", {})).toEqual([
      {
        kind: "unknown-operation",
        location: "operation",
        pointer: "",
        message: "GET /nope is not an operation of the spec",
      },
    ]);
    expect(validator.validateRequestBody("POST", "/v1/body", undefined)).toEqual([
      { kind: "body-schema", location: "body", pointer: "", message: "request body is required" },
    ]);
    expect(validator.validateRequestBody("POST", "/body", { n: "x" })).toEqual([
      { kind: "body-schema", location: "body", pointer: "/n", message: "request body: /n must be integer" },
    ]);
    expect(validator.validateRequestBody("POST", "/body", {})).toEqual([
      { kind: "body-schema", location: "body", pointer: "/n", message: "request body: /n is required but missing" },
    ]);
    expect(validator.validateRequestBody("POST", "/body", { n: 1 })).toEqual([]);
    expect(validator.validateRequestBody("POST", "/optional", undefined)).toEqual([]);
    expect(validator.validateRequestBody("POST", "/optional", [])).toEqual([
      { kind: "body-schema", location: "body", pointer: "", message: "request body: (root) must be object" },
    ]);
    // A required body of another media type than JSON is still required; its content is not judged here.
    expect(validator.validateRequestBody("POST", "/text", undefined)).toEqual([
      { kind: "body-schema", location: "body", pointer: "", message: "request body is required" },
    ]);
    expect(validator.validateRequestBody("POST", "/text", "plain text")).toEqual([]);
    expect(validator.validateRequestBody("POST", "/any", 42)).toEqual([]);
    expect(validator.validateRequestBody("POST", "/none", { a: 1 })).toEqual([]);
  });

  it("with a media type, judges the body against that media type's schema (multipart parts by name)", () => {
    const validator = sharedValidator();
    const upload = listSpecOperations(spec).find((op) => op.operationId === "uploadInvoiceDocument")!;
    const check = (parts: unknown, mediaType?: string) =>
      validator.validateRequestBody(upload.method, upload.path, parts, mediaType).map((v) => v.pointer);
    expect(check({ file: "%PDF-1.7" }, "multipart/form-data")).toEqual([]);
    expect(check({ other: "x" }, "multipart/form-data")).toEqual(["/file", "/other"]);
    // Without the media type (JSON, which the operation does not take) its parts are not judged.
    expect(check({ other: "x" })).toEqual([]);
  });

  it("matches each call's media type, after more media types than its memo of them holds", () => {
    const validator = sharedValidator();
    const upload = listSpecOperations(spec).find((op) => op.operationId === "uploadInvoiceDocument")!;
    const check = (parts: unknown, mediaType?: string) =>
      validator.validateRequestBody(upload.method, upload.path, parts, mediaType).map((v) => v.pointer);
    const seen: string[][] = [];
    const others = 3 * MEMO_LIMIT; // the memo starts over more than once
    for (let i = 1; i <= others; i++) {
      seen.push(check({ other: "x" }, `text/x-${i}`));
      if (i % 100 === 0) seen.push(check({ other: "x" }, "multipart/form-data"));
    }
    const judged = seen.filter((pointers) => pointers.length);
    expect(judged).toEqual(Array.from({ length: Math.floor(others / 100) }, () => ["/file", "/other"]));
  });
});
