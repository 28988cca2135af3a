// The provenance register (generated/provenance.json and .md): every marker of the bundle is listed under
// its kind, each entry's text and place agree with the document at its pointer, and every fact of
// test/spec/observed.ts is among the observed entries.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { collectMarkers, collectProvenance, PROVENANCE_KINDS } from "../../scripts/build/provenance.js";
import { escapePointerToken, isObject, type OpenApiDocument, pointerTokens } from "../../src/openapi/index.js";
import { at, resolved, spec } from "../support/spec-ajv.js";
import { repoRoot } from "../support/spec.js";
import {
  OBSERVED_ENDPOINTS,
  OBSERVED_FIELDS,
  OBSERVED_PARAMETERS,
  OPTIONAL_BODIES,
  SIGNING_HEADERS,
} from "./observed.js";

interface Entry {
  pointer: string;
  place: string;
  text: string;
}
const register = JSON.parse(readFileSync(path.join(repoRoot, "generated", "provenance.json"), "utf8")) as {
  kinds: Array<{ key: string; entries: Entry[] }>;
};
const markdown = readFileSync(path.join(repoRoot, "generated", "provenance.md"), "utf8");
const entriesOf = (key: string) => register.kinds.find((kind) => kind.key === key)?.entries ?? [];
/** The register as the build's function makes it now, in this process (the file above is its last output). Called
 * inside each test, not while the file loads, so that a mutation run sees which test runs which line. */
const computedOf = (key: string) => collectProvenance(spec).find((kind) => kind.key === key)?.entries ?? [];

/** Every object of the bundle carrying `key`, by pointer, with its texts (example values are data, not markers). */
function markedPlaces(key: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const walk = (node: unknown, pointer: string, inExample: boolean) => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${pointer}/${i}`, inExample);
      return;
    }
    if (!node || typeof node !== "object") return;
    for (const [name, value] of Object.entries(node)) {
      if (name === key && !inExample) found.set(pointer, Array.isArray(value) ? value : [value]);
      walk(value, `${pointer}/${escapePointerToken(name)}`, inExample || name === "example" || name === "examples");
    }
  };
  walk(spec, "#", false);
  return found;
}

const quote = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** What a register place must say for a pointer, read from the document at that pointer. */
function expectedPlace([top, a = "", b = "", ...rest]: string[]): RegExp {
  if (top === "paths") {
    const operation = at(`#/paths/${escapePointerToken(a)}/${b}`) as { operationId: string };
    const head = `${operation.operationId} (${b.toUpperCase()} ${a})`;
    return new RegExp(`^${quote([head, ...rest].join(" › "))}$`);
  }
  if (top === "components") {
    // The kind in words, then the name, then each property name on the way (allOf branches are not places).
    const properties = rest.filter((_, i) => rest[i - 1] === "properties");
    return new RegExp(`^\\w[\\w ]* ${quote([b, ...properties].join(" › "))}$`);
  }
  // A webhook (webhooks/<name>/<method>…): the register names it by its way through the document.
  if (top === "webhooks") return new RegExp(`^${quote(["webhooks", a, b, ...rest].join(" › "))}$`);
  return new RegExp(`\\(${quote(top ?? "")}\\)$`);
}

/** The pointer of an operation's parameter `location:name` in the bundle (the test fails when it has none). */
function parameterPointer(method: string, route: string, name: string, location: string): string {
  const parameters = (at(`#/paths/${escapePointerToken(route)}/${method}/parameters`) as unknown[]) ?? [];
  const index = parameters.findIndex((raw) => {
    const parameter = resolved(raw);
    return parameter?.name === name && parameter.in === location;
  });
  expect(index, `${method} ${route} ${location}:${name}`).toBeGreaterThanOrEqual(0);
  return `#/paths/${escapePointerToken(route)}/${method}/parameters/${index}`;
}

/** Every fact of test/spec/observed.ts, with where in the bundle it is declared (read when a test asks). */
function observedFacts(): Array<{ what: string; pointer: () => string }> {
  const path = (route: string) => `#/paths/${escapePointerToken(route)}`;
  return [
    ...SIGNING_HEADERS.map((header) => ({
      what: `signing header ${header.name}`,
      pointer: () => parameterPointer("get", "/currencies/fiat-rates", header.name, header.in),
    })),
    ...Object.entries(OBSERVED_PARAMETERS).flatMap(([key, parameters]) => {
      const [method, route] = key.split(" ") as [string, string];
      return parameters.map((parameter) => ({
        what: `parameter ${parameter.in}:${parameter.name} of ${key}`,
        pointer: () => parameterPointer(method, route, parameter.name, parameter.in),
      }));
    }),
    ...OBSERVED_ENDPOINTS.map((endpoint) => ({
      what: `operation ${endpoint.method.toUpperCase()} ${endpoint.path}`,
      pointer: () => `${path(endpoint.path)}/${endpoint.method}`,
    })),
    ...OPTIONAL_BODIES.map((body) => ({
      what: `optional body of ${body.method.toUpperCase()} ${body.path}`,
      pointer: () => `${path(body.path)}/${body.method}/requestBody`,
    })),
    ...OBSERVED_FIELDS.map((field) => ({
      what: `field ${field.schema}.${field.property}`,
      pointer: () => `#/components/schemas/${field.schema}/properties/${field.property}`,
    })),
  ];
}

describe("provenance register", () => {
  it("has the kinds in order: observed, not shown, conventions", () => {
    expect(register.kinds.map((kind) => kind.key)).toEqual(PROVENANCE_KINDS.map((kind) => kind.key));
    expect(register.kinds.map((kind) => kind.key)).toEqual(["x-observed", "x-not-shown", "x-convention"]);
  });

  it.each(PROVENANCE_KINDS.map((kind) => [kind.key, kind] as const))(
    "lists every %s marker of the bundle, in its own section",
    (key, kind) => {
      const listed = entriesOf(key);
      const expected = [...markedPlaces(key)]
        .flatMap(([pointer, texts]) => texts.map((text) => `${pointer} ${text}`))
        .sort();
      expect(expected.length, `${key} markers in the bundle`).toBeGreaterThan(0);
      expect(listed.map((entry) => `${entry.pointer} ${entry.text}`).sort()).toEqual(expected);
      expect(
        computedOf(key)
          .map((entry) => `${entry.pointer} ${entry.text}`)
          .sort(),
        "collectProvenance now",
      ).toEqual(expected);
      const section = markdown.split(`## ${kind.heading}\n`)[1]?.split("\n## ")[0] ?? "";
      for (const entry of listed) expect(section, entry.pointer).toContain(entry.pointer);
    },
  );

  // Each entry read against the document itself (not against collectMarkers, which wrote it): the element at its
  // pointer carries the marker with that text, and its place names what the pointer names: the operation
  // (operationId, METHOD and path) and the tokens after it, or the component and every property on the way.
  // Both the file and the function's output now (so a change to the function fails here before a build).
  it.each(
    PROVENANCE_KINDS.flatMap((kind) => [
      [kind.key, "generated/provenance.json", entriesOf] as const,
      [kind.key, "collectProvenance", computedOf] as const,
    ]),
  )("places each %s entry where its pointer leads (%s)", (key, _source, read) => {
    const entries = read(key);
    const wrong: string[] = [];
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      const element = at(entry.pointer);
      const texts = isObject(element) ? [element[key]].flat() : [];
      if (!texts.includes(entry.text)) wrong.push(`${entry.pointer}: no ${key} ${JSON.stringify(entry.text)} there`);
      const expected = expectedPlace(pointerTokens(entry.pointer));
      if (!expected.test(entry.place))
        wrong.push(`${entry.pointer}: place "${entry.place}" does not match ${expected}`);
    }
    expect(wrong).toEqual([]);
  });

  // One test per fact of test/spec/observed.ts, each found by its pointer (a $ref's target, as the register lists it).
  it.each(observedFacts().map((fact) => [fact.what, fact] as const))(
    "lists the observed fact %s among the observed entries",
    (what, fact) => {
      const observed = new Set(entriesOf("x-observed").map((entry) => entry.pointer));
      const pointer = fact.pointer();
      const raw = at(pointer) as { $ref?: string };
      expect(observed.has(raw.$ref ?? pointer), what).toBe(true);
    },
  );

  // The places of markers the contract does not have today, on a small document of each kind of place.
  it("names each place: the operation and what follows, or the component and its fields; not in examples", () => {
    const mark = (text: string | string[]) => ({ "x-observed": text });
    const doc = {
      openapi: "3.1.0",
      info: { title: "t", version: "1", ...mark("i") },
      paths: {
        "/a/{id}": {
          ...mark("path item"),
          parameters: [{ name: "id", in: "path", ...mark("shared") }],
          post: {
            operationId: "postA",
            ...mark(["one", "two"]),
            responses: { "200": { description: "ok", ...mark("r") } },
          },
        },
      },
      components: {
        schemas: {
          S: {
            allOf: [
              { $ref: "#/components/schemas/T" },
              { properties: { "2fa": { properties: { q2: mark("deep") } } } },
            ],
            examples: [mark("an example value")],
          },
          T: { properties: { r: { items: mark("item"), example: mark("example") } } },
        },
        securitySchemes: { K: mark("k") },
        requestBodies: { B: mark("b") },
      },
    } as unknown as OpenApiDocument;
    expect(
      collectMarkers(doc, "x-observed").map(({ pointer, place, text }) => `${pointer} | ${place} | ${text}`),
    ).toEqual([
      "#/info | API (info) | i",
      "#/paths/~1a~1{id} | paths › /a/{id} | path item",
      "#/paths/~1a~1{id}/parameters/0 | paths › /a/{id} › parameters › 0 | shared",
      "#/paths/~1a~1{id}/post | postA (POST /a/{id}) | one",
      "#/paths/~1a~1{id}/post | postA (POST /a/{id}) | two",
      "#/paths/~1a~1{id}/post/responses/200 | postA (POST /a/{id}) › responses › 200 | r",
      "#/components/schemas/S/allOf/1/properties/2fa/properties/q2 | schema S › 2fa › q2 | deep",
      "#/components/schemas/T/properties/r/items | schema T › r › items | item",
      "#/components/securitySchemes/K | security scheme K | k",
      "#/components/requestBodies/B | requestBodies B | b",
    ]);
  });

  it("says under the conventions that every timestamp follows the description's convention", () => {
    const conventions = entriesOf("x-convention");
    expect(conventions.some((entry) => /Timestamps are ISO 8601 UTC strings with milliseconds/.test(entry.text))).toBe(
      true,
    );
  });
});
