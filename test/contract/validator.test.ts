// Unit tests of the contract validator on real bodies: the spec's own examples, changed on purpose.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createBundledContractValidator,
  createContractValidator,
  openApiDocument,
  type OpenApiDocument,
} from "../../src/contract/index.js";
import { walk, setAt } from "../validator/support/schema-walk.js";
import {
  buildSampleRequest,
  deref,
  isObject,
  jsonMedia,
  listSpecOperations,
  loadSpec,
  mediaExamples,
  requestBodySchema,
  sharedValidator,
  successKey,
  type JsonObject,
  type SpecOperation,
  BASE_PATH,
  RATE_LIMIT_HEADERS,
} from "../support/spec.js";

const spec = loadSpec();
const validator = sharedValidator();
const operations = listSpecOperations(spec);
const basePath = BASE_PATH;

function successOf(op: SpecOperation) {
  const key = successKey(op);
  const response = op.responses[key]!;
  const headers: Record<string, string> = { "content-type": Object.keys(response.content as JsonObject)[0]! };
  for (const [name, raw] of Object.entries(response.headers as JsonObject)) {
    const header = deref(spec, raw) as JsonObject;
    headers[name.toLowerCase()] = String(header.example ?? (header.schema as JsonObject).example);
  }
  const examples = mediaExamples(spec, jsonMedia(response));
  return { status: Number(key), headers, examples, schema: jsonMedia(response)!.schema };
}

/** An operation whose success example has a field matching `predicate`, with that field. */
function findField(predicate: (entry: ReturnType<typeof walk>[number]) => boolean) {
  for (const op of operations) {
    const success = successOf(op);
    for (const example of success.examples) {
      const entry = walk(spec, success.schema, example.value).find(predicate);
      if (entry) return { op, success, body: example.value, entry };
    }
  }
  throw new Error("no such field in any example");
}

const plainGet = operations.find((op) => op.method === "GET" && !op.path.includes("{"))!;

describe("operation lookup", () => {
  it("finds every operation by templated path, concrete path, base path and full URL", () => {
    expect(validator.operations.length).toBe(operations.length);
    for (const op of operations) {
      const concrete = buildSampleRequest(spec, op).path;
      for (const candidate of [
        op.path,
        concrete,
        `${basePath}${concrete}`,
        `http://127.0.0.1:4010${basePath}${concrete}?x=1`,
      ]) {
        expect(
          validator.findOperation(op.method.toLowerCase(), candidate)?.operationId,
          `${op.method} ${candidate}`,
        ).toBe(op.operationId);
      }
    }
  });

  it("prefers, among matching templates, the one with a literal at the first position where they differ (fixture spec)", () => {
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
    const wrongMethod = validator.validateResponse({ method: "DELETE", path: plainGet.path, status: 200 });
    expect(wrongMethod.violations[0]?.kind).toBe("unknown-operation");
  });
});

describe("success responses", () => {
  it("passes every documented example of every operation, in strict mode without warnings", () => {
    let checked = 0;
    for (const op of operations) {
      const success = successOf(op);
      expect(success.examples.length, op.operationId).toBeGreaterThan(0);
      for (const example of success.examples) {
        const result = validator.validateResponse(
          {
            method: op.method,
            path: op.path,
            status: success.status,
            headers: success.headers,
            bodyText: JSON.stringify(example.value),
          },
          { strict: true },
        );
        expect(result, `${op.operationId} ${example.name}`).toMatchObject({
          ok: true,
          violations: [],
          warnings: [],
          responseKey: String(success.status),
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(operations.length);
  });

  it("accepts a fetch Headers object and header values with a charset and surrounding spaces", () => {
    const success = successOf(plainGet);
    const headers = new Headers(success.headers);
    headers.set("content-type", `${success.headers["content-type"]}; charset=utf-8`);
    const name = Object.keys(success.headers).find((h) => h !== "content-type")!;
    headers.set(name, ` ${success.headers[name]} `);
    const result = validator.validateResponse({
      method: plainGet.method,
      path: plainGet.path,
      status: success.status,
      headers,
      body: success.examples[0]!.value,
    });
    expect(result.violations).toEqual([]);
  });
});

describe("violations", () => {
  const success = successOf(plainGet);
  const body = success.examples[0]!.value;
  const base = { method: plainGet.method, path: plainGet.path, status: success.status, headers: success.headers, body };
  const headerNames = Object.keys(success.headers).filter((h) => h !== "content-type");

  it("reports an undocumented status and a non-2xx when success was expected", () => {
    const undocumented = validator.validateResponse({ ...base, status: 302 });
    expect(undocumented.violations).toEqual([
      expect.objectContaining({ kind: "undocumented-status", location: "status" }),
    ]);
    const rangeKey = Object.keys(plainGet.responses).find((k) => /^4XX$/i.test(k));
    expect(rangeKey).toBeDefined();
    const notFound = validator.validateResponse({ ...base, status: 404, body: {} });
    expect(notFound).toMatchObject({ ok: true, responseKey: rangeKey });
    const expected = validator.validateResponse({ ...base, status: 404, body: {}, expectSuccess: true });
    expect(expected.violations.map((v) => v.kind)).toEqual(["unexpected-status"]);
  });

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
    const response = plainGet.responses[String(success.status)]!;
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
        expect(result.violations).toEqual(
          remainingCount > limitCount
            ? [
                {
                  kind: "invalid-header",
                  location: "headers",
                  pointer: `/${remaining}`,
                  message: `${plainGet.method} ${plainGet.path} ${success.status}: header ${remaining} (${remainingCount}) exceeds ${limit} (${limitCount})`,
                },
              ]
            : [],
        );
      }),
    );
  });

  it("reports a JSON body that begins with a byte-order mark (RFC 8259 forbids it), and still checks the rest", () => {
    const bom = "\uFEFF";
    const withBom = validator.validateResponse({ ...base, body: undefined, bodyText: `${bom}${JSON.stringify(body)}` });
    expect(withBom.violations).toEqual([
      {
        kind: "invalid-json",
        location: "body",
        pointer: "",
        message: `${plainGet.method} ${plainGet.path} ${success.status}: body begins with a byte-order mark (U+FEFF), which RFC 8259 forbids a sender to add`,
      },
    ]);
    const brokenToo = validator.validateResponse({ ...base, body: undefined, bodyText: `${bom}{"data":1}` });
    expect(brokenToo.violations[0]?.kind).toBe("invalid-json");
    expect(brokenToo.violations.slice(1).map((v) => v.kind)).toContain("body-schema");
  });

  it("reports an undocumented or missing content type", () => {
    const html = validator.validateResponse({ ...base, headers: { ...success.headers, "content-type": "text/html" } });
    expect(html.violations.map((v) => v.kind)).toEqual(["undocumented-content-type"]);
    const { "content-type": _omitted, ...noType } = success.headers;
    const missing = validator.validateResponse({ ...base, headers: noType });
    expect(missing.violations.map((v) => v.kind)).toEqual(["undocumented-content-type"]);
  });

  it("reports a body that is not JSON, and an empty body", () => {
    const broken = validator.validateResponse({ ...base, body: undefined, bodyText: '{"message":' });
    expect(broken.violations.map((v) => v.kind)).toEqual(["invalid-json"]);
    const empty = validator.validateResponse({ ...base, body: undefined, bodyText: "" });
    expect(empty.violations.map((v) => v.kind)).toEqual(["body-schema"]);
  });

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
});

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
    const strictByOption = createContractValidator(spec, { strict: true }).validateResponse(input);
    expect(strictByOption.warnings).toHaveLength(2);
  });

  it("treats keys of a map (additionalProperties schema) as documented", () => {
    const mapOp = operations.find((op) => dataIsMap(op));
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
});

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

describe("request bodies", () => {
  it("accepts the documented request examples and rejects an unknown field where bodies are closed", () => {
    const withBodies = operations.filter((op) => requestBodySchema(op) !== undefined);
    expect(withBodies.length).toBeGreaterThan(0);
    for (const op of withBodies) {
      const sample = buildSampleRequest(spec, op);
      expect(validator.validateRequestBody(op.method, op.path, JSON.parse(sample.body!)), op.operationId).toEqual([]);
      const extra = validator.validateRequestBody(op.method, op.path, {
        ...(JSON.parse(sample.body!) as JsonObject),
        unknownField: 1,
      });
      expect(
        extra.map((v) => v.pointer),
        op.operationId,
      ).toContain("/unknownField");
    }
  });
});

describe("construction", () => {
  it("embeds the bundled document and shares one validator", () => {
    expect(openApiDocument).toEqual(spec);
    expect(createBundledContractValidator()).toBe(createBundledContractValidator());
    expect(createBundledContractValidator({ strict: true })).not.toBe(createBundledContractValidator());
  });

  it("rejects a document that is not OpenAPI 3.1 and a schema format it does not know", () => {
    expect(() => createContractValidator({ openapi: "3.0.3" } as OpenApiDocument)).toThrow(/3\.1/);
    const tiny: OpenApiDocument = {
      openapi: "3.1.0",
      paths: {},
      components: { schemas: { Odd: { type: "string", format: "no-such-format" } } },
    };
    expect(() => createContractValidator(tiny)).toThrow(/no-such-format/);
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
