// The provenance register (generated/provenance.json and .md): every marker of the bundle is listed under
// its kind, each entry's text, sources and place agree with the document at its pointer, the table of sources
// counts the elements each supports, and every fact of test/spec/observed.ts is among the observed or published
// entries.
// Markers of the wrong shape, or naming a source info.x-sources does not declare, are refused (small documents).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  collectMarkers,
  collectProvenance,
  declaredSources,
  markerProblems,
  PROVENANCE_KINDS,
  provenanceProblems,
  SOURCES_KEY,
  type SourceUse,
  sourceTitles,
} from "../../scripts/build/provenance.js";
import provenanceRegister from "../../scripts/build/steps/20-provenance.js";
import { escapePointerToken, isObject, type OpenApiDocument, pointerTokens } from "../../src/openapi/index.js";
import { at, resolved, spec } from "../support/spec-ajv.js";
import { repoRoot } from "../support/spec.js";
import { Failures } from "./failures.js";
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
  sources?: string[];
}
const register = JSON.parse(readFileSync(path.join(repoRoot, "generated", "provenance.json"), "utf8")) as {
  sources: SourceUse[];
  kinds: Array<{ key: string; entries: Entry[] }>;
};
const markdown = readFileSync(path.join(repoRoot, "generated", "provenance.md"), "utf8");
const entriesOf = (key: string) => register.kinds.find((kind) => kind.key === key)?.entries ?? [];
/** The register as the build's function makes it now, in this process (the file above is its last output). Called
 * inside each test, not while the file loads, so that a mutation run sees which test runs which line. */
const computedOf = (key: string) => collectProvenance(spec).kinds.find((kind) => kind.key === key)?.entries ?? [];
const isSourced = (key: string) => key === "x-observed" || key === "x-published";

/** A marker's items as `text` or `text [source ids]` (the form of a sourced kind: `{ sources, fact }` objects). */
function itemsOf(key: string, value: unknown): string[] {
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) => {
    if (!isSourced(key)) return String(item);
    const { fact, sources } = item as { fact: string; sources: string[] };
    return `${fact} [${sources.join(", ")}]`;
  });
}
const itemOf = (entry: Entry) => (entry.sources ? `${entry.text} [${entry.sources.join(", ")}]` : entry.text);

/** Every object of the bundle carrying `key`, by pointer, with its value (example values are data, not markers). */
function markedValues(key: string): Map<string, unknown> {
  const found = new Map<string, unknown>();
  const walk = (node: unknown, pointer: string, inExample: boolean) => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${pointer}/${i}`, inExample);
      return;
    }
    if (!node || typeof node !== "object") return;
    for (const [name, value] of Object.entries(node)) {
      if (name === key && !inExample) found.set(pointer, value);
      walk(value, `${pointer}/${escapePointerToken(name)}`, inExample || name === "example" || name === "examples");
    }
  };
  walk(spec, "#", false);
  return found;
}
/** Every object of the bundle carrying `key`, by pointer, with its items as itemsOf writes them. */
const markedPlaces = (key: string): Map<string, string[]> =>
  new Map([...markedValues(key)].map(([pointer, value]) => [pointer, itemsOf(key, value)]));

const quote = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** What a register place must say for a pointer, read from the document at that pointer. */
function expectedPlace([top, a = "", b = "", ...rest]: string[]): RegExp {
  if (top === "paths") {
    const operation = at(`#/paths/${escapePointerToken(a)}/${b}`) as { operationId: string };
    const head = `${operation.operationId} (${b.toUpperCase()} ${a})`;
    return new RegExp(`^${quote([head, ...rest].join(" › "))}$`);
  }
  if (top === "webhooks") {
    const operation = at(`#/webhooks/${escapePointerToken(a)}/${b}`) as { operationId?: string };
    const head = `${operation.operationId ?? a} (webhook ${a}, ${b.toUpperCase()})`;
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
  it("has the kinds in order: observed, published, not shown, conventions", () => {
    expect(register.kinds.map((kind) => kind.key)).toEqual(PROVENANCE_KINDS.map((kind) => kind.key));
    expect(register.kinds.map((kind) => kind.key)).toEqual([
      "x-observed",
      "x-published",
      "x-not-shown",
      "x-convention",
    ]);
  });

  it("finds nothing wrong with the bundle's markers and sources", () => {
    expect(provenanceProblems(spec)).toEqual([]);
    expect(register.kinds.flatMap((kind) => kind.entries).length).toBeGreaterThan(0);
  });

  it.each(PROVENANCE_KINDS.map((kind) => [kind.key, kind] as const))(
    "lists every %s marker of the bundle, with its sources, in its own section",
    (key, kind) => {
      const listed = entriesOf(key);
      const expected = [...markedPlaces(key)].flatMap(([pointer, items]) => items.map((item) => `${pointer} ${item}`));
      expect(listed.map((entry) => `${entry.pointer} ${itemOf(entry)}`).sort()).toEqual([...expected].sort());
      expect(
        computedOf(key)
          .map((entry) => `${entry.pointer} ${itemOf(entry)}`)
          .sort(),
        "collectProvenance now",
      ).toEqual([...expected].sort());
      const section = markdown.split(`## ${kind.heading}\n`)[1]?.split("\n## ")[0] ?? "";
      expect(section).toContain(`${expected.length} marker${expected.length === 1 ? "" : "s"}.`);
      if (expected.length === 0) expect(section).toContain("None.");
      const rows = section.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| # "));
      expect(rows).toHaveLength(listed.length);
      listed.forEach((entry, index) => {
        expect(rows[index], entry.pointer).toContain(entry.pointer);
        // Each source by its title, as info.x-sources declares it: the sources cell lists them, "; " between.
        const sourcesCell = rows[index]!.split(" | ").at(-2)!.split("; ");
        for (const id of entry.sources ?? [])
          expect(sourcesCell, `${entry.pointer} ${id}`).toContain(String(at(`#/info/x-sources/${id}/title`)));
      });
    },
  );

  // The table of sources read against the bundle: each source of info.x-sources, in its order, with the number
  // of distinct elements whose x-observed or x-published items name it.
  it("lists every source with its kind, title and the number of elements it supports", () => {
    const declared = Object.entries(at("#/info/x-sources") as Record<string, { kind: string; title: string }>);
    expect(declared.length).toBeGreaterThan(0);
    const places = [...markedValues("x-observed"), ...markedValues("x-published")];
    const names = (value: unknown, id: string) =>
      (value as Array<{ sources: string[] }>).some((item) => item.sources.includes(id));
    const expected = declared.map(([id, { kind, title }]) => ({
      id,
      kind,
      title,
      elements: new Set(places.filter(([, value]) => names(value, id)).map(([pointer]) => pointer)).size,
    }));
    expect(register.sources).toEqual(expected);
    expect(collectProvenance(spec).sources, "collectProvenance now").toEqual(expected);
    expect(expected.some((source) => source.elements > 0)).toBe(true);
    const section = markdown.split("## Sources\n")[1]?.split("\n## ")[0] ?? "";
    for (const source of expected)
      expect(section).toContain(`| \`${source.id}\` | ${source.kind} | ${source.title} | ${source.elements} |`);
  });

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
    for (const entry of entries) {
      const element = at(entry.pointer);
      const items = isObject(element) ? itemsOf(key, element[key]) : [];
      if (!items.includes(itemOf(entry)))
        wrong.push(`${entry.pointer}: no ${key} ${JSON.stringify(itemOf(entry))} there`);
      const expected = expectedPlace(pointerTokens(entry.pointer));
      if (!expected.test(entry.place))
        wrong.push(`${entry.pointer}: place "${entry.place}" does not match ${expected}`);
    }
    expect(wrong).toEqual([]);
  });

  // Each fact of test/spec/observed.ts, found by its pointer (a $ref's target, as the register lists it) among the
  // entries of the kinds that name sources (a fact seen in a client, or published on a reference page).
  it(`lists each fact of test/spec/observed.ts among the observed or published entries (${
    observedFacts().length
  } facts)`, () => {
    const observed = new Set([...entriesOf("x-observed"), ...entriesOf("x-published")].map((entry) => entry.pointer));
    const failures = new Failures();
    for (const { what, pointer: pointerOf } of observedFacts())
      failures.check(what, () => {
        const pointer = pointerOf();
        const raw = at(pointer) as { $ref?: string };
        expect(observed.has(raw.$ref ?? pointer), what).toBe(true);
      });
    failures.expectNone("the observed facts");
  });

  // The places of markers the contract does not have today, on a small document of each kind of place.
  it("names each place: the operation and what follows, or the component and its fields; not in examples", () => {
    // One { sources, fact } item per fact; the second of a list names two sources.
    const mark = (...facts: string[]) => ({
      "x-observed": facts.map((fact, i) => ({ sources: i === 0 ? ["c1"] : ["c1", "p1"], fact })),
    });
    const doc = {
      openapi: "3.1.0",
      info: { title: "t", version: "1", ...mark("i") },
      paths: {
        "/a/{id}": {
          ...mark("path item"),
          parameters: [{ name: "id", in: "path", ...mark("shared") }],
          post: {
            operationId: "postA",
            ...mark("one", "two"),
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
      webhooks: {
        paid: { post: { operationId: "paidEvent", ...mark("w"), requestBody: mark("wb") } },
        anonymous: { post: mark("a") },
      },
    } as unknown as OpenApiDocument;
    expect(
      collectMarkers(doc, "x-observed").map(
        ({ pointer, place, text, sources }) => `${pointer} | ${place} | ${text} | ${sources?.join(" ")}`,
      ),
    ).toEqual([
      "#/info | API (info) | i | c1",
      "#/paths/~1a~1{id} | paths › /a/{id} | path item | c1",
      "#/paths/~1a~1{id}/parameters/0 | paths › /a/{id} › parameters › 0 | shared | c1",
      "#/paths/~1a~1{id}/post | postA (POST /a/{id}) | one | c1",
      "#/paths/~1a~1{id}/post | postA (POST /a/{id}) | two | c1 p1",
      "#/paths/~1a~1{id}/post/responses/200 | postA (POST /a/{id}) › responses › 200 | r | c1",
      "#/components/schemas/S/allOf/1/properties/2fa/properties/q2 | schema S › 2fa › q2 | deep | c1",
      "#/components/schemas/T/properties/r/items | schema T › r › items | item | c1",
      "#/components/securitySchemes/K | security scheme K | k | c1",
      "#/components/requestBodies/B | requestBodies B | b | c1",
      "#/webhooks/paid/post | paidEvent (webhook paid, POST) | w | c1",
      "#/webhooks/paid/post/requestBody | paidEvent (webhook paid, POST) › requestBody | wb | c1",
      "#/webhooks/anonymous/post | anonymous (webhook anonymous, POST) | a | c1",
    ]);
    // A kind without sources: one entry per text, no sources.
    const plain = { openapi: "3.1.0", info: { title: "t", version: "1", "x-not-shown": ["a", "b"] } };
    expect(collectMarkers(plain as OpenApiDocument, "x-not-shown")).toEqual([
      { pointer: "#/info", place: "API (info)", text: "a" },
      { pointer: "#/info", place: "API (info)", text: "b" },
    ]);
  });

  it("says under the conventions that every timestamp follows the description's convention", () => {
    const conventions = entriesOf("x-convention");
    expect(conventions.some((entry) => /Timestamps are ISO 8601 UTC strings with milliseconds/.test(entry.text))).toBe(
      true,
    );
  });
});

// Small documents: two clients and a page declared; markers placed on an operation and a schema.
const SOURCES = {
  c1: { kind: "client", title: "Client one" },
  c2: { kind: "client", title: "Client two" },
  p1: { kind: "page", title: "Page one" },
  unused: { kind: "page", title: "Page never named" },
};
function documentWith(operation: object, schema: object = {}, sources: unknown = SOURCES): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "t", version: "1", "x-sources": sources },
    paths: { "/a": { get: { operationId: "getA", responses: {}, ...operation } } },
    components: { schemas: { S: { type: "object", properties: { f: { type: "string", ...schema } } } } },
  } as unknown as OpenApiDocument;
}
const OPERATION = "#/paths/~1a/get";

describe("provenance sources", () => {
  it("counts the elements each source supports: distinct places, whatever the kind or the number of items", () => {
    const doc = documentWith(
      {
        "x-observed": [
          { sources: ["c1", "c2"], fact: "Both clients send it." },
          { sources: ["c1"], fact: "The first client also sends it empty." },
        ],
        "x-published": [{ sources: ["p1"], fact: "The page publishes it." }],
      },
      { "x-observed": [{ sources: ["c1"], fact: "The first client reads it." }] },
    );
    const { sources, kinds } = collectProvenance(doc);
    expect(sources).toEqual([
      { id: "c1", kind: "client", title: "Client one", elements: 2 },
      { id: "c2", kind: "client", title: "Client two", elements: 1 },
      { id: "p1", kind: "page", title: "Page one", elements: 1 },
      { id: "unused", kind: "page", title: "Page never named", elements: 0 },
    ]);
    expect(kinds.find((kind) => kind.key === "x-published")?.entries).toEqual([
      { pointer: OPERATION, place: "getA (GET /a)", text: "The page publishes it.", sources: ["p1"] },
    ]);
    expect(kinds.find((kind) => kind.key === "x-observed")?.entries.map((entry) => entry.sources)).toEqual([
      ["c1", "c2"],
      ["c1"],
      ["c1"],
    ]);
  });
});

describe("provenance source titles", () => {
  it("names an entry's sources by title, in its order; an id no source declares by the id itself", () => {
    const sources = collectProvenance(documentWith({})).sources;
    const entry = { pointer: "#", place: "p", text: "t", sources: ["p1", "c1", "gone"] };
    expect(sourceTitles(entry, sources)).toEqual(["Page one", "Client one", "gone"]);
    expect(sourceTitles({ pointer: "#", place: "p", text: "t" }, sources)).toEqual([]);
  });
});

describe("provenance markers refused", () => {
  const item = { sources: ["c1"], fact: "A fact." };
  // [what, the operation's markers, the pointer of the problem, what its message says]
  const wrongMarkers: Array<[string, Record<string, unknown>, string, RegExp]> = [
    [
      "a plain string",
      { "x-observed": "A fact." },
      `${OPERATION}/x-observed`,
      /non-empty list of \{ sources, fact \}, found "A fact\."$/,
    ],
    ["an empty list", { "x-published": [] }, `${OPERATION}/x-published`, /non-empty list/],
    [
      "a list of strings",
      { "x-observed": ["A fact."] },
      `${OPERATION}/x-observed/0`,
      /\{ sources, fact \} object, found "A fact\."$/,
    ],
    [
      "a missing fact",
      { "x-observed": [{ sources: ["c1"] }] },
      `${OPERATION}/x-observed/0`,
      /needs a fact \(one sentence\), found undefined$/,
    ],
    [
      "an empty fact",
      { "x-observed": [{ sources: ["c1"], fact: " " }] },
      `${OPERATION}/x-observed/0`,
      /needs a fact .*, found " "$/,
    ],
    ["missing sources", { "x-published": [{ fact: "A fact." }] }, `${OPERATION}/x-published/0`, /needs sources/],
    ["null as a fact", { "x-observed": [{ sources: ["c1"], fact: null }] }, `${OPERATION}/x-observed/0`, /found null$/],
    [
      "sources as an object",
      { "x-published": [{ sources: { p1: true }, fact: "F." }] },
      `${OPERATION}/x-published/0`,
      /needs sources: .*, found an object$/,
    ],
    [
      "no sources",
      { "x-observed": [{ sources: [], fact: "F." }] },
      `${OPERATION}/x-observed/0`,
      /needs sources: .*, found a list$/,
    ],
    [
      "a source as a string",
      { "x-observed": [{ sources: "c1", fact: "F." }] },
      `${OPERATION}/x-observed/0`,
      /needs sources/,
    ],
    [
      "an unknown source",
      { "x-observed": [item, { sources: ["c1", "client-2099"], fact: "F." }] },
      `${OPERATION}/x-observed/1/sources/1`,
      /unknown source "client-2099" \(info\.x-sources declares: c1, c2, p1, unused\)/,
    ],
    [
      "a source named twice",
      { "x-observed": [{ sources: ["c1", "c1"], fact: "F." }] },
      `${OPERATION}/x-observed/0/sources/1`,
      /"c1" twice/,
    ],
    [
      "an unknown key",
      { "x-published": [{ ...item, source: "p1" }] },
      `${OPERATION}/x-published/0`,
      /unknown key "source"/,
    ],
    ["an x-not-shown object", { "x-not-shown": [{ fact: "F." }] }, `${OPERATION}/x-not-shown`, /non-empty string/],
    ["an empty x-convention", { "x-convention": "" }, `${OPERATION}/x-convention`, /non-empty string/],
  ];
  it(`refuses each wrong marker, naming its pointer (${wrongMarkers.length} markers)`, () => {
    const failures = new Failures();
    for (const [what, operation, pointer, message] of wrongMarkers)
      failures.check(what, () => {
        const doc = documentWith(operation);
        const problems = provenanceProblems(doc);
        expect(problems).toHaveLength(1);
        expect(problems[0]?.pointer).toBe(pointer);
        expect(problems[0]?.message).toMatch(message);
        expect(() => collectProvenance(doc)).toThrow(`${pointer}: ${problems[0]?.message}`);
      });
    failures.expectNone("the wrong markers");
  });

  it("accepts the same document with the marker right, and markers inside examples whatever their shape", () => {
    const doc = documentWith(
      { "x-observed": [item], "x-published": [{ sources: ["p1", "c2"], fact: "F." }], "x-not-shown": "N." },
      { "x-convention": ["C."], examples: [{ "x-observed": "data, not a marker" }] },
    );
    expect(provenanceProblems(doc)).toEqual([]);
  });

  // [what, info.x-sources, the pointer of the problem, what its message says]
  const wrongSources: Array<[string, unknown, string, RegExp]> = [
    [
      "a source that is not an object",
      { c1: "Client one" },
      "#/info/x-sources/c1",
      /must be \{ kind, title \}, found "Client one"$/,
    ],
    [
      "an unknown kind",
      { c1: { kind: "forum", title: "T" } },
      "#/info/x-sources/c1",
      /kind must be one of client, page/,
    ],
    ["a missing title", { c1: { kind: "client" } }, "#/info/x-sources/c1", /title must be a non-empty string/],
    ["an unknown key", { c1: { kind: "page", title: "T", url: "u" } }, "#/info/x-sources/c1", /unknown key "url"/],
    [
      "a list",
      [{ id: "c1", kind: "client", title: "T" }],
      "#/info/x-sources",
      /must map each source id to \{ kind, title \}, found a list$/,
    ],
  ];
  it(`refuses each wrong info.x-sources, naming its pointer (${wrongSources.length} cases)`, () => {
    const failures = new Failures();
    for (const [what, sources, pointer, message] of wrongSources)
      failures.check(what, () => {
        const problems = provenanceProblems(documentWith({}, {}, sources));
        expect(problems.map((problem) => problem.pointer)).toEqual([pointer]);
        expect(problems[0]?.message).toMatch(message);
      });
    failures.expectNone("the wrong info.x-sources");
  });

  it("refuses a source named where info.x-sources is missing", () => {
    const doc = documentWith({ "x-observed": [item] });
    delete doc.info?.["x-sources"];
    const problems = provenanceProblems(doc);
    expect(problems).toEqual([
      {
        pointer: `${OPERATION}/x-observed/0/sources/0`,
        message: 'names the unknown source "c1" (info.x-sources declares: none)',
      },
    ]);
  });

  it("fails the build's register step, naming the pointer, and writes no register", async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), "provenance-step-"));
    try {
      const doc = documentWith({}, { "x-observed": [{ sources: ["c3"], fact: "F." }] });
      await writeFile(path.join(outDir, "openapi.json"), JSON.stringify(doc));
      await expect(provenanceRegister({ root: repoRoot, outDir, log: () => {} })).rejects.toThrow(
        '#/components/schemas/S/properties/f/x-observed/0/sources/0: names the unknown source "c3"',
      );
      await expect(readFile(path.join(outDir, "provenance.md"), "utf8")).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  });
});

describe("reading and checking markers at their edges", () => {
  const known = new Set(["client-2023"]);
  const bare = { openapi: "3.1.0", info: { title: "t", version: "1" } } as OpenApiDocument;

  it("declares no source without info or x-sources, and skips an entry that is not { kind, title }", () => {
    expect(declaredSources({ openapi: "3.1.0" } as OpenApiDocument)).toEqual([]);
    expect(declaredSources(bare)).toEqual([]);
    expect(provenanceProblems({ openapi: "3.1.0" } as OpenApiDocument)).toEqual([]);
    const mixed = { ...bare, info: { ...bare.info, [SOURCES_KEY]: { c1: { kind: "client", title: "C1" }, x: 1 } } };
    expect(declaredSources(mixed as OpenApiDocument)).toEqual([{ id: "c1", kind: "client", title: "C1" }]);
  });

  it("places a marker at its key when no place is given, and refuses empty texts in a text marker", () => {
    expect(markerProblems("x-not-shown", "Not shown.", known)).toEqual([]);
    expect(markerProblems("x-not-shown", [], known)).toEqual([
      { pointer: "#/x-not-shown", message: "x-not-shown must be a non-empty string or a non-empty list of them" },
    ]);
    expect(markerProblems("x-not-shown", ["Not shown.", " "], known)).toHaveLength(1);
  });

  it("names a sources list with an empty id as wrong sources, and an object where a list belongs as an object", () => {
    const messages = (item: unknown) => markerProblems("x-observed", [item], known).map((problem) => problem.message);
    expect(messages({ sources: ["client-2023", ""], fact: "A fact." })).toEqual([
      "needs sources: a non-empty list of source ids, found a list",
    ]);
    expect(messages({ sources: { id: "client-2023" }, fact: "A fact." })).toEqual([
      "needs sources: a non-empty list of source ids, found an object",
    ]);
  });

  it("refuses a document with several wrong markers, one line each", () => {
    const wrong = { ...bare, paths: {}, "x-not-shown": [""], components: { schemas: { A: { "x-convention": "" } } } };
    expect(() => collectProvenance(wrong as OpenApiDocument)).toThrow(
      /^provenance: 2 marker problem\(s\):\n {2}#\/x-not-shown: .+\n {2}#\/components\/schemas\/A\/x-convention: .+$/,
    );
  });
});
