// Every example in the spec (request bodies, responses, parameters, headers) validates against
// the schema it illustrates. Examples are enumerated from generated/openapi.json; a failure names the
// hand-written file under openapi/ (and line) the example comes from, and the line of each wrong value.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { ErrorObject } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { sourceLocation } from "../../scripts/lib/source-map.js";
import { HTTP_METHODS, isObject, listOperations, pointerTokens, refOf } from "../../src/openapi/index.js";
import { canonicalPointer, resolved, spec, validate } from "../support/spec-ajv.js";
import { repoRoot } from "../support/spec.js";
import { Failures } from "./failures.js";

interface Case {
  /** What the example illustrates: `METHOD /path`, `webhook <name>` or `headers`; one test checks each group. */
  group: string;
  name: string;
  schemaPointer: string;
  /** Where the example's value is in the bundle. */
  examplePointer: string;
  value: unknown;
}

/** The examples of a media type object at `pointer` (`example` and each named example). */
function mediaTypeCases(group: string, label: string, pointer: string, media: unknown): Case[] {
  if (!isObject(media)) return [];
  const cases: Case[] = [];
  const schemaPointer = `${pointer}/schema`;
  if (media.example !== undefined)
    cases.push({
      group,
      name: `${label} example`,
      schemaPointer,
      examplePointer: `${pointer}/example`,
      value: media.example,
    });
  for (const [key, example] of Object.entries(resolved(media.examples) ?? {})) {
    const examplePointer = `${pointer}${refOf(["examples", key, "value"]).slice(1)}`;
    const value = resolved(example)?.value;
    cases.push({ group, name: `${label} example "${key}"`, schemaPointer, examplePointer, value });
  }
  return cases;
}

/** The media type objects of a request body or response at `pointer`. */
function contentCases(group: string, label: string, pointer: string, container: unknown): Case[] {
  const content = resolved(resolved(container)?.content) ?? {};
  return Object.entries(content).flatMap(([type, media]) =>
    mediaTypeCases(group, `${label} ${type}`, `${pointer}${refOf(["content", type]).slice(1)}`, media),
  );
}

const operations = listOperations(spec);
const cases: Case[] = [];
for (const [route, item] of Object.entries(spec.paths ?? {})) {
  for (const method of HTTP_METHODS) {
    const op = resolved(item[method]);
    if (!op) continue;
    const where = `${method.toUpperCase()} ${route}`;
    if (op.requestBody) {
      const pointer = refOf(["paths", route, method, "requestBody"]);
      cases.push(...contentCases(where, `${where} request`, pointer, op.requestBody));
    }
    for (const [status, raw] of Object.entries(resolved(op.responses) ?? {})) {
      const pointer = refOf(["paths", route, method, "responses", status]);
      cases.push(...contentCases(where, `${where} ${status}`, pointer, raw));
    }
    for (const [index, raw] of (Array.isArray(op.parameters) ? op.parameters : []).entries()) {
      const parameter = resolved(raw);
      const pointer = refOf(["paths", route, method, "parameters", String(index)]);
      if (parameter?.example !== undefined)
        cases.push({
          group: where,
          name: `${where} parameter ${String(parameter.name)} example`,
          schemaPointer: `${pointer}/schema`,
          examplePointer: `${pointer}/example`,
          value: parameter.example,
        });
    }
  }
}
// The webhooks' request bodies (the requests the service sends): each named example against its payload schema.
for (const [name, item] of Object.entries(spec.webhooks ?? {})) {
  for (const method of HTTP_METHODS) {
    const op = resolved(resolved(item)?.[method]);
    if (op?.requestBody) {
      const pointer = refOf(["webhooks", name, method, "requestBody"]);
      cases.push(...contentCases(`webhook ${name}`, `webhook ${name} request`, pointer, op.requestBody));
    }
  }
}
for (const [name, raw] of Object.entries(spec.components?.headers ?? {})) {
  const pointer = refOf(["components", "headers", name]);
  cases.push({
    group: "headers",
    name: `header ${name} example`,
    schemaPointer: `${pointer}/schema`,
    examplePointer: `${pointer}/example`,
    value: resolved(raw)?.example,
  });
}

/** `file:line` of a bundle pointer in the hand-written spec under openapi/. */
function placeOf(pointer: string): string {
  const location = sourceLocation(pointer);
  return location ? `${location.file}:${location.line}` : `(no source file found for ${pointer})`;
}

/** What is wrong with an example that does not validate: its source file and line, and each error's (and line). */
function failureMessage(c: Case, errors: ErrorObject[]): string {
  const example = canonicalPointer(c.examplePointer);
  const problems = errors.map((error) => {
    const at = refOf([...pointerTokens(example), ...pointerTokens(error.instancePath)]);
    return `${error.instancePath || "/"} ${error.message ?? error.keyword} (${placeOf(at)})`;
  });
  const where = `the example at ${placeOf(example)} (${example} in the bundle)`;
  return `${where} does not validate: ${problems.join("; ")}`;
}

function expectValidExample(c: Case, value: unknown = c.value): void {
  const { valid, errors } = validate(c.schemaPointer, value);
  expect(valid, valid ? c.name : failureMessage(c, errors)).toBe(true);
}

describe("every example validates against its schema", () => {
  it("finds operations to look for examples in", () => {
    // How many operations there are is the conformance test's business (description + observed).
    expect(operations.length).toBeGreaterThan(0);
  });

  // One test per operation, webhook and the headers: it finds the examples it must have, and each one validates.
  const groups = [
    ...operations.map((op) => ({
      title: op.key,
      found: (failures: Failures) => {
        failures.check("finds examples for its success response", () => {
          expect(cases.some((c) => c.name.startsWith(`${op.key} 200 `))).toBe(true);
        });
        if (op.operation.requestBody)
          failures.check("finds examples for its request body", () => {
            expect(cases.some((c) => c.name.startsWith(`${op.key} request `))).toBe(true);
          });
      },
    })),
    ...Object.keys(spec.webhooks ?? {}).map((name) => ({
      title: `webhook ${name}`,
      found: (failures: Failures) =>
        failures.check("finds examples for its request body", () => {
          expect(cases.some((c) => c.name.startsWith(`webhook ${name} request `))).toBe(true);
        }),
    })),
  ];
  // Examples of anything else (the headers; an operation of spec.paths listOperations would not list) as well.
  for (const group of new Set(cases.map((c) => c.group)))
    if (!groups.some((known) => known.title === group)) groups.push({ title: group, found: () => {} });

  it.each(groups.map((group) => [group.title, cases.filter((c) => c.group === group.title).length, group] as const))(
    "%s: finds the examples it must have, and each of its %d examples validates",
    (title, _, group) => {
      const failures = new Failures();
      group.found(failures);
      for (const c of cases.filter((c) => c.group === title)) failures.check(c.name, () => expectValidExample(c));
      failures.expectNone(`the examples of ${title}`);
    },
  );

  const quoteCase = cases.find((c) => c.name.startsWith("POST /trades/quote 200"));
  const brokenQuote = (): { data: { side: string } } => {
    const broken = structuredClone(quoteCase!.value) as { data: { side: string } };
    broken.data.side = "HOLD";
    return broken;
  };

  it("rejects a broken example, so the check can fail", () => {
    expect(quoteCase).toBeDefined();
    expect(validate(quoteCase!.schemaPointer, brokenQuote()).valid).toBe(false);
  });

  it("names the source file under openapi/ and the line of a broken example and of its wrong value", () => {
    expect(quoteCase).toBeDefined();
    // The example is a component of its own: openapi/components/examples/<Name>.yaml.
    const [kind, group, name] = pointerTokens(canonicalPointer(quoteCase!.examplePointer));
    expect([kind, group]).toEqual(["components", "examples"]);
    const file = `openapi/components/examples/${name}.yaml`;
    const lines = readFileSync(path.join(repoRoot, file), "utf8").split("\n");
    const valueLine = lines.findIndex((line) => /^value:/.test(line)) + 1;
    const sideLine = lines.findIndex((line) => /^\s+side:/.test(line)) + 1;
    expect(valueLine, `a value: line in ${file}`).toBeGreaterThan(0);
    expect(sideLine, `a side: line in ${file}`).toBeGreaterThan(0);
    expect(() => expectValidExample(quoteCase!, brokenQuote())).toThrow(`the example at ${file}:${valueLine} `);
    expect(() => expectValidExample(quoteCase!, brokenQuote())).toThrow(
      `/data/side must be equal to one of the allowed values (${file}:${sideLine})`,
    );
  });
});
