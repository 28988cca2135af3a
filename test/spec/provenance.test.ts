// The provenance register (generated/provenance.json and .md): every marker of the bundle is listed under
// its kind, and every fact of test/spec/observed.ts is among the observed entries.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROVENANCE_KINDS } from "../../scripts/build/provenance.js";
import { escapePointerToken } from "../../src/openapi/index.js";
import { at, resolved, spec } from "../support/spec-ajv.js";
import { repoRoot } from "../support/spec.js";
import { OBSERVED_ENDPOINTS, OBSERVED_FIELDS, OBSERVED_PARAMETERS, OPTIONAL_BODIES, SIGNING_HEADERS } from "./observed.js";

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

describe("provenance register", () => {
  it("has the kinds in order: observed, not shown, conventions", () => {
    expect(register.kinds.map((kind) => kind.key)).toEqual(PROVENANCE_KINDS.map((kind) => kind.key));
    expect(register.kinds.map((kind) => kind.key)).toEqual(["x-observed", "x-not-shown", "x-convention"]);
  });

  it.each(PROVENANCE_KINDS.map((kind) => [kind.key, kind] as const))("lists every %s marker of the bundle, in its own section", (key, kind) => {
    const listed = entriesOf(key);
    const expected = [...markedPlaces(key)].flatMap(([pointer, texts]) => texts.map((text) => `${pointer} ${text}`)).sort();
    expect(expected.length, `${key} markers in the bundle`).toBeGreaterThan(0);
    expect(listed.map((entry) => `${entry.pointer} ${entry.text}`).sort()).toEqual(expected);
    const section = markdown.split(`## ${kind.heading}\n`)[1]?.split("\n## ")[0] ?? "";
    for (const entry of listed) expect(section, entry.pointer).toContain(entry.pointer);
  });

  it("lists every observed fact among the observed entries", () => {
    const observed = new Set(entriesOf("x-observed").map((entry) => entry.pointer));
    /** Pointer of the declared object (the target of a $ref, as the register lists it). */
    const listedAt = (pointer: string): string | undefined => {
      const raw = at(pointer) as { $ref?: string };
      return raw.$ref ?? pointer;
    };
    const expectListed = (pointer: string, what: string) => expect(observed.has(listedAt(pointer)!), what).toBe(true);
    const parameterPointer = (method: string, route: string, name: string, location: string) => {
      const parameters = (at(`#/paths/${escapePointerToken(route)}/${method}/parameters`) as unknown[]) ?? [];
      const index = parameters.findIndex((raw) => {
        const parameter = resolved(raw);
        return parameter?.name === name && parameter.in === location;
      });
      expect(index, `${method} ${route} ${location}:${name}`).toBeGreaterThanOrEqual(0);
      return `#/paths/${escapePointerToken(route)}/${method}/parameters/${index}`;
    };
    for (const header of SIGNING_HEADERS) expectListed(parameterPointer("get", "/currencies/fiat-rates", header.name, header.in), header.name);
    for (const [key, parameters] of Object.entries(OBSERVED_PARAMETERS)) {
      const [method, route] = key.split(" ") as [string, string];
      for (const parameter of parameters) expectListed(parameterPointer(method, route, parameter.name, parameter.in), `${key} ${parameter.name}`);
    }
    for (const endpoint of OBSERVED_ENDPOINTS) expectListed(`#/paths/${escapePointerToken(endpoint.path)}/${endpoint.method}`, endpoint.path);
    for (const body of OPTIONAL_BODIES) expectListed(`#/paths/${escapePointerToken(body.path)}/${body.method}/requestBody`, `${body.path} body`);
    for (const field of OBSERVED_FIELDS)
      expectListed(`#/components/schemas/${field.schema}/properties/${field.property}`, `${field.schema}.${field.property}`);
  });

  it("says under the conventions that every timestamp follows the description's convention", () => {
    const conventions = entriesOf("x-convention");
    expect(conventions.some((entry) => /Timestamps are ISO 8601 UTC strings with milliseconds/.test(entry.text))).toBe(true);
  });
});
