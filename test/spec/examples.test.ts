// Every example in the spec (request bodies, responses, parameters, headers) validates against
// the schema it illustrates. Examples are enumerated from generated/openapi.json.
import { describe, expect, it } from "vitest";
import { formatErrors, jsonPointer, resolveRef, spec, validate } from "../support/spec-ajv.js";

interface Case {
  name: string;
  schemaPointer: string;
  value: unknown;
}

const METHODS = ["get", "put", "post", "delete", "patch"];
type MediaType = { schema?: unknown; example?: unknown; examples?: Record<string, unknown> };

function mediaTypeCases(label: string, pointer: string, media: MediaType): Case[] {
  const cases: Case[] = [];
  if (media.example !== undefined) cases.push({ name: `${label} example`, schemaPointer: `${pointer}/schema`, value: media.example });
  for (const [key, example] of Object.entries(media.examples ?? {})) {
    cases.push({ name: `${label} example "${key}"`, schemaPointer: `${pointer}/schema`, value: resolveRef<{ value: unknown }>(example).value });
  }
  return cases;
}

const cases: Case[] = [];
for (const [path, item] of Object.entries(spec.paths)) {
  for (const method of METHODS) {
    const op = item[method] as Record<string, any> | undefined;
    if (!op) continue;
    const where = `${method.toUpperCase()} ${path}`;
    if (op.requestBody) {
      const body = resolveRef<{ content: Record<string, MediaType> }>(op.requestBody);
      for (const [type, media] of Object.entries(body.content)) {
        cases.push(...mediaTypeCases(`${where} request ${type}`, jsonPointer("paths", path, method, "requestBody", "content", type), media));
      }
    }
    for (const [status, raw] of Object.entries(op.responses as Record<string, unknown>)) {
      const response = resolveRef<{ content?: Record<string, MediaType>; headers?: Record<string, unknown> }>(raw);
      const base =
        typeof (raw as { $ref?: string }).$ref === "string"
          ? (raw as { $ref: string }).$ref
          : jsonPointer("paths", path, method, "responses", status);
      for (const [type, media] of Object.entries(response.content ?? {})) {
        cases.push(...mediaTypeCases(`${where} ${status} ${type}`, `${base}/content/${type.replace("/", "~1")}`, media));
      }
    }
    (op.parameters ?? []).forEach((raw: unknown, index: number) => {
      const parameter = resolveRef<{ name: string; example?: unknown }>(raw);
      const pointer =
        typeof (raw as { $ref?: string }).$ref === "string"
          ? (raw as { $ref: string }).$ref
          : jsonPointer("paths", path, method, "parameters", String(index));
      if (parameter.example !== undefined)
        cases.push({ name: `${where} parameter ${parameter.name} example`, schemaPointer: `${pointer}/schema`, value: parameter.example });
    });
  }
}
for (const [name, raw] of Object.entries(spec.components?.headers ?? {})) {
  const header = raw as { example?: unknown };
  cases.push({ name: `header ${name} example`, schemaPointer: jsonPointer("components", "headers", name, "schema"), value: header.example });
}

describe("every example validates against its schema", () => {
  it("finds examples for every operation's request body and success response", () => {
    const operations = Object.values(spec.paths).flatMap((item) => METHODS.filter((m) => item[m]));
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const method of METHODS.filter((m) => item[m])) {
        expect(
          cases.some((c) => c.name.startsWith(`${method.toUpperCase()} ${path} 200 `)),
          `${method} ${path}`,
        ).toBe(true);
      }
    }
    // How many operations there are is the conformance test's business (description + observed).
    expect(operations.length).toBeGreaterThan(0);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const { valid, errors } = validate(c.schemaPointer, c.value);
    expect(valid, formatErrors(errors)).toBe(true);
  });

  it("rejects a broken example, so the check can fail", () => {
    const quoteCase = cases.find((c) => c.name.startsWith("POST /trades/quote 200"));
    expect(quoteCase).toBeDefined();
    const broken = structuredClone(quoteCase!.value) as { data: { side: string } };
    broken.data.side = "HOLD";
    expect(validate(quoteCase!.schemaPointer, broken).valid).toBe(false);
  });
});
