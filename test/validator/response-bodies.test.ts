// Response bodies: JSON text that parses (a byte-order mark reported, the rest still checked), a body where one is
// documented, and every schema mismatch reported with a JSON pointer into the body, the pointer of a removed required
// field being the field's own; refs into a component's inside followed, enum and const values named in messages.
import { describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";
import { loadSpec, sharedValidator } from "../support/spec.js";
import { findField, plainGet, successOf } from "./support/examples.js";
import { checkMediaTypes, OK_HEADERS, smallSpec } from "./support/fixtures.js";
import { setAt, walk } from "./support/schema-walk.js";

const spec = loadSpec();
const validator = sharedValidator();

describe("JSON text", () => {
  const op = plainGet();
  const success = successOf(op);
  const body = success.examples[0]!.value;
  const base = { method: op.method, path: op.path, status: success.status, headers: success.headers, body };

  it("reports a JSON body that begins with a byte-order mark (RFC 8259 forbids it), and still checks the rest", () => {
    const bom = "\uFEFF";
    const withBom = validator.validateResponse({ ...base, body: undefined, bodyText: `${bom}${JSON.stringify(body)}` });
    expect(withBom.violations).toEqual([
      {
        kind: "invalid-json",
        location: "body",
        pointer: "",
        message:
          `${op.method} ${op.path} ${success.status}: ` +
          "body begins with a byte-order mark (U+FEFF), which RFC 8259 forbids a sender to add",
      },
    ]);
    const brokenToo = validator.validateResponse({ ...base, body: undefined, bodyText: `${bom}{"data":1}` });
    expect(brokenToo.violations[0]?.kind).toBe("invalid-json");
    expect(brokenToo.violations.slice(1).map((v) => v.kind)).toContain("body-schema");
  });

  it("reports a body that is not JSON, and an empty body", () => {
    const broken = validator.validateResponse({ ...base, body: undefined, bodyText: '{"message":' });
    expect(broken.violations.map((v) => v.kind)).toEqual(["invalid-json"]);
    const empty = validator.validateResponse({ ...base, body: undefined, bodyText: "" });
    expect(empty.violations.map((v) => v.kind)).toEqual(["body-schema"]);
  });

  it("JSON that does not parse, and an empty body where one is documented, exactly", () => {
    const json = { "content-type": "application/json" };
    const [invalid, ...rest] = checkMediaTypes(200, { headers: json, bodyText: "{" }).violations;
    expect(rest).toEqual([]);
    expect(invalid).toEqual({
      kind: "invalid-json",
      location: "body",
      pointer: "",
      message: expect.stringMatching(/^GET \/a 200: body is not valid JSON \(.+\)$/),
    });
    expect(checkMediaTypes(200, { headers: json, bodyText: "" }).violations).toEqual([
      {
        kind: "body-schema",
        location: "body",
        pointer: "",
        message: "GET /a 200: body is empty, but the spec documents one",
      },
    ]);
  });
});

describe("schema mismatches", () => {
  it("reports every schema mismatch with a JSON pointer into the body", () => {
    const found = findField((e) => typeof e.value === "number" && e.pointer.startsWith("/data/"));
    const dateField = walk(spec, found.success.schema, found.body).find(
      (e) => e.facts.format === "date-time" && typeof e.value === "string",
    );
    let mutated = setAt(found.body, found.entry.pointer, "not a number");
    if (dateField) mutated = setAt(mutated, dateField.pointer, "yesterday");
    const result = validator.validateResponse({
      method: found.op.method,
      path: found.op.path,
      status: found.success.status,
      headers: found.success.headers,
      body: mutated,
    });
    const pointers = result.violations.map((v) => v.pointer);
    expect(pointers).toContain(found.entry.pointer);
    if (dateField) expect(pointers).toContain(dateField.pointer);
    expect(
      result.violations.every(
        (v) => v.kind === "body-schema" && v.location === "body" && v.message.includes(v.pointer),
      ),
    ).toBe(true);
  });

  it("takes no NaN or Infinity for a number in a body given parsed: JSON has neither (stringify writes null)", () => {
    const found = findField((e) => typeof e.value === "number" && e.pointer.startsWith("/data/"));
    const { op, success } = found;
    const base = { method: op.method, path: op.path, status: success.status, headers: success.headers };
    expect(validator.validateResponse({ ...base, body: found.body }).violations).toEqual([]);
    for (const notANumber of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      const result = validator.validateResponse({ ...base, body: setAt(found.body, found.entry.pointer, notANumber) });
      expect(result.violations).toEqual([
        expect.objectContaining({ kind: "body-schema", pointer: found.entry.pointer }),
      ]);
    }
  });

  it("points at a removed required field itself", () => {
    const found = findField((e) => e.required && e.pointer.split("/").length > 3);
    const result = validator.validateResponse({
      method: found.op.method,
      path: found.op.path,
      status: found.success.status,
      headers: found.success.headers,
      body: setAt(found.body, found.entry.pointer, undefined, true),
    });
    expect(result.violations).toEqual([expect.objectContaining({ kind: "body-schema", pointer: found.entry.pointer })]);
  });

  it("reports every error of a body, not only the first", () => {
    const document: OpenApiDocument = {
      openapi: "3.1.0",
      paths: {
        "/a": {
          get: {
            responses: {
              "200": {
                description: "ok",
                content: {
                  "application/json": {
                    schema: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } } },
                  },
                },
              },
            },
          },
        },
      },
    };
    const result = createContractValidator(document).validateResponse({
      method: "GET",
      path: "/a",
      status: 200,
      headers: new Headers({ "content-type": "application/json" }),
      bodyText: JSON.stringify({ a: "x", b: "y" }),
    });
    expect(result.violations.map((v) => v.pointer)).toEqual(["/a", "/b"]);
  });

  it("follows a ref into a component's inside and names enum and const values in their messages", () => {
    const small = createContractValidator(smallSpec());
    const bodyProblems = (body: unknown) =>
      small
        .validateResponse({
          method: "GET",
          path: "/h",
          status: 200,
          headers: { ...OK_HEADERS, "content-type": "application/json; charset=utf-8" },
          body,
        })
        .violations.map((v) => `${v.pointer}: ${v.message.replace("GET /h 200: ", "")}`);
    expect(bodyProblems({ id: "1", kind: "a", version: "v1" })).toEqual([]);
    expect(bodyProblems({ kind: "c" })).toEqual(['/kind: /kind must be one of "a", "b"']);
    expect(bodyProblems({ version: "v2" })).toEqual(['/version: /version must be "v1"']);
    expect(bodyProblems(5)).toEqual([": (root) must be object"]);
  });
});
