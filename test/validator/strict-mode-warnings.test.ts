// Strict mode: body fields no schema documents are warnings, never violations, and only for a body with no violation;
// keys of a map count as documented; findUndocumentedFields walks arrays, maps and every branch of a union.
import { describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import { findUndocumentedFields } from "../../src/contract/undocumented.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";
import {
  deref,
  isObject,
  type JsonObject,
  listSpecOperations,
  loadSpec,
  type SpecOperation,
  sharedValidator,
} from "../support/spec.js";
import { findField, successOf } from "./support/examples.js";
import { checkMediaTypes, OK_HEADERS, smallSpec } from "./support/fixtures.js";
import { setAt } from "./support/schema-walk.js";

const spec = loadSpec();
const validator = sharedValidator();

/** True when the success body's `data` is a map (an object schema with an additionalProperties schema). */
function dataIsMap(op: SpecOperation): boolean {
  const schema = successOf(op).schema as JsonObject;
  const resolved = deref(spec, schema) as JsonObject;
  const parts = Array.isArray(resolved.allOf) ? resolved.allOf.map((p) => deref(spec, p) as JsonObject) : [resolved];
  return parts.some(
    (p) =>
      isObject(p.properties) &&
      isObject((deref(spec, p.properties.data) as JsonObject | undefined)?.additionalProperties),
  );
}

describe("strict mode", () => {
  it("reports undocumented fields as warnings, not violations", () => {
    const found = findField(
      (e) => isObject(e.value) && e.pointer.split("/").length >= 3 && e.pointer.startsWith("/data/"),
    );
    const body = setAt(setAt(found.body, `${found.entry.pointer}/surpriseField`, 1), "/surpriseTop", true);
    const input = {
      method: found.op.method,
      path: found.op.path,
      status: found.success.status,
      headers: found.success.headers,
      body,
    };
    const strict = validator.validateResponse(input, { strict: true });
    expect(strict.ok).toBe(true);
    expect(strict.warnings.map((w) => w.pointer).sort()).toEqual(
      [`${found.entry.pointer}/surpriseField`, "/surpriseTop"].sort(),
    );
    expect(validator.validateResponse(input).warnings).toEqual([]);
    // Built here, not at load: a validator made without options is not strict.
    expect(createContractValidator(spec).validateResponse(input).warnings).toEqual([]);
    const strictByOption = createContractValidator(spec, { strict: true }).validateResponse(input);
    expect(strictByOption.warnings).toHaveLength(2);
  });

  it("treats keys of a map (additionalProperties schema) as documented", () => {
    const mapOp = listSpecOperations(spec).find((op) => dataIsMap(op));
    expect(mapOp).toBeDefined();
    const success = successOf(mapOp!);
    const data = (success.examples[0]!.value as JsonObject).data as JsonObject;
    const [firstKey] = Object.keys(data);
    const body = setAt(success.examples[0]!.value, "/data/ANOTHER_KEY", data[firstKey!]);
    const result = validator.validateResponse(
      { method: mapOp!.method, path: mapOp!.path, status: success.status, headers: success.headers, body },
      { strict: true },
    );
    expect(result).toMatchObject({ ok: true, warnings: [] });
  });

  it("warnings only when the body has no violation", () => {
    const json = { "content-type": "application/json" };
    const broken = checkMediaTypes(200, { headers: json, bodyText: '{"n":"x","extra":1}' }, true);
    expect(broken.violations.map((v) => v.pointer)).toEqual(["/n"]);
    expect(broken.warnings).toEqual([]);
    expect(checkMediaTypes(200, { headers: json, bodyText: '{"n":1,"extra":1}' }, true).warnings).not.toEqual([]);
  });

  it("lists undocumented fields; findUndocumentedFields defaults to the root and a fresh list", () => {
    const small = smallSpec();
    const result = createContractValidator(small).validateResponse(
      {
        method: "GET",
        path: "/h",
        status: 200,
        headers: { ...OK_HEADERS, "content-type": "application/json" },
        body: { id: "1", extra: true },
      },
      { strict: true },
    );
    expect(result.warnings).toEqual([
      {
        kind: "undocumented-field",
        location: "body",
        pointer: "/extra",
        message: "/extra is not documented by the spec",
      },
    ]);
    expect(findUndocumentedFields(small, { $ref: "#/components/schemas/Thing" }, { id: "1", "a/b": 1 })).toEqual([
      {
        kind: "undocumented-field",
        location: "body",
        pointer: "/a~1b",
        message: "/a~1b is not documented by the spec",
      },
    ]);
  });
});

describe("undocumented fields inside arrays, maps and unions", () => {
  const document = {
    openapi: "3.1.0",
    components: {
      schemas: {
        A: { type: "object", properties: { a: { type: "string" } } },
        B: { type: "object", properties: { b: { type: "string" } } },
      },
    },
  } as OpenApiDocument;
  const find = (schema: unknown, data: unknown) => findUndocumentedFields(document, schema, data).map((w) => w.pointer);

  it("walks array items, map values and every branch of a union; not undescribed or non-object values", () => {
    expect(find({ type: "array", items: { $ref: "#/components/schemas/A" } }, [{ a: "1" }, { a: "2", z: 1 }])).toEqual([
      "/1/z",
    ]);
    expect(find({ type: "array" }, [{ z: 1 }])).toEqual([]);
    expect(
      find(
        { type: "object", additionalProperties: { $ref: "#/components/schemas/A" } },
        { k1: { a: "x" }, k2: { y: 1 } },
      ),
    ).toEqual(["/k2/y"]);
    expect(
      find(
        { oneOf: [{ $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/B" }] },
        { a: "1", b: "2", c: 3 },
      ),
    ).toEqual(["/c"]);
    expect(find({ type: "object" }, { anything: { goes: 1 } })).toEqual([]);
    expect(find({ $ref: "#/components/schemas/A" }, "text")).toEqual([]);
    expect(find({ $ref: "#/components/schemas/A" }, null)).toEqual([]);
    expect(findUndocumentedFields(document, { $ref: "#/components/schemas/A" }, { z: 1 }, "/data")).toEqual([
      {
        kind: "undocumented-field",
        location: "body",
        pointer: "/data/z",
        message: "/data/z is not documented by the spec",
      },
    ]);
  });
});
