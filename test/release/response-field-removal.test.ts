// The gate over the whole contract, not only the small fixtures: every property of every component schema that
// a response reaches (at any depth) is removed, one at a time, and the comparer must call it a breaking change
// (`response-field-removed`, so a major bump) naming that property. A property that a sibling branch still
// declares at every place the component is reached (allOf, or another anyOf/oneOf branch) is not a removal.
// Fixtures are shallow; this is what catches a comparer that stops descending too early (its depth guard).
import { describe, expect, it } from "vitest";
import { type Change, compareContracts, formatChange } from "../../scripts/release/compare.js";
import { requiredBump } from "../../scripts/release/versions.js";
import {
  flattenSchema,
  isObject,
  type JsonObject,
  jsonMedia,
  listOperations,
  type OpenApiDocument,
  refOf,
  resolvePointer,
  viewOfSchemas,
} from "../../src/openapi/index.js";
import { loadSpec } from "../support/spec.js";

const spec = loadSpec();

/** A place in a component schema that declares properties: the component itself or an inline branch of it. */
interface Site {
  component: string;
  /** Tokens from the component schema to the declaring schema (`["allOf", "1"]`); [] for the component itself. */
  path: string[];
}

/** Every schema object that is a component schema or an inline allOf/anyOf/oneOf branch of one, with its site. */
function declarationSites(doc: OpenApiDocument): Map<unknown, Site> {
  const sites = new Map<unknown, Site>();
  const visit = (schema: unknown, site: Site): void => {
    if (!isObject(schema) || "$ref" in schema) return;
    sites.set(schema, site);
    for (const keyword of ["allOf", "anyOf", "oneOf"] as const)
      if (Array.isArray(schema[keyword]))
        schema[keyword].forEach((branch, i) => {
          visit(branch, { component: site.component, path: [...site.path, keyword, String(i)] });
        });
  };
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {}))
    visit(schema, { component: name, path: [] });
  return sites;
}

interface Removal {
  site: Site;
  property: string;
  /** The operations whose responses reach the site. */
  operations: Set<string>;
  /** Whether every place that reaches the site has another part declaring the property too (then it is no removal). */
  shadowed: boolean;
}

/** Each property declared by a component schema (or its inline branches) that a response reaches, body or header. */
function responseProperties(doc: OpenApiDocument): Removal[] {
  const sites = declarationSites(doc);
  const removals = new Map<string, Removal>();
  const walk = (schema: unknown, operation: string, visited: ReadonlySet<unknown>): void => {
    const parts = flattenSchema(doc, schema, { alternatives: true });
    if (parts.every((part) => visited.has(part))) return;
    for (const part of parts) {
      const site = sites.get(part);
      if (site === undefined) continue;
      for (const property of Object.keys(isObject(part.properties) ? part.properties : {})) {
        const key = [site.component, ...site.path, property].join("/");
        const removal = removals.get(key) ?? { site, property, operations: new Set<string>(), shadowed: true };
        removals.set(key, removal);
        removal.operations.add(operation);
        removal.shadowed &&= parts.some(
          (other) => other !== part && isObject(other.properties) && property in other.properties,
        );
      }
    }
    const inner = new Set([...visited, ...parts]);
    const view = viewOfSchemas(parts);
    for (const child of [...[...view.properties.values()].flat(), ...view.items, ...view.maps])
      walk(child, operation, inner);
  };
  for (const op of listOperations(doc))
    for (const response of Object.values(op.responses)) {
      walk(jsonMedia(response)?.schema, op.key, new Set());
      for (const header of Object.values((response.headers ?? {}) as JsonObject))
        walk(flattenSchema(doc, header)[0]?.schema, op.key, new Set());
    }
  return [...removals.values()];
}

/** `doc` with `property` gone from the site (declaration and `required`); only that component schema is copied. */
function withoutProperty(doc: OpenApiDocument, { site, property }: Removal): OpenApiDocument {
  const schemas = doc.components!.schemas as Record<string, JsonObject>;
  const component = structuredClone(schemas[site.component]!);
  const declaring = site.path.length ? (resolvePointer(component, refOf(site.path)) as JsonObject) : component;
  delete (declaring.properties as JsonObject)[property];
  if (Array.isArray(declaring.required)) declaring.required = declaring.required.filter((name) => name !== property);
  return { ...doc, components: { ...doc.components, schemas: { ...schemas, [site.component]: component } } };
}

/** `doc` with only the operations named (the others cannot change when one component loses a property). */
function onlyOperations(doc: OpenApiDocument, keys: ReadonlySet<string>): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of listOperations(doc)) {
    if (!keys.has(op.key)) continue;
    paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: op.operation };
  }
  return { ...doc, paths };
}

const leafOf = (field: string | undefined) =>
  field
    ?.split(".")
    .pop()
    ?.replace(/(\[\]|\{\*\})+$/, "");

const removals = responseProperties(spec);

/** The comparer's changes when `removal` is made, over the operations that reach it. */
function compareWithout(removal: Removal) {
  const before = onlyOperations(spec, removal.operations);
  return compareContracts(before, withoutProperty(before, removal));
}

const namedRemovals = (changes: Change[], property: string) =>
  changes.filter((c) => c.rule === "response-field-removed" && c.kind === "breaking" && leafOf(c.field) === property);
const nameOf = ({ site, property }: Removal) => [site.component, ...site.path, property].join(".");

describe("check:breaking over the whole contract: each response field removed", () => {
  it("reaches the components that responses embed, however deep", () => {
    // Wallet sits in data[].wallet of a transaction list; ActiveNetwork two levels down too (issue 18).
    const reached = new Set(removals.map((r) => r.site.component));
    for (const name of ["Wallet", "ActiveNetwork", "BankAccount", "Currency"])
      expect(reached.has(name), name).toBe(true);
    // Today 177 removals, and 24 still declared elsewhere (each response's `data` over Envelope's, TradePair's
    // source and target over Pair's…): most of the contract is checked, not skipped.
    const shadowed = removals.filter((r) => r.shadowed).length;
    expect(removals.length - shadowed).toBeGreaterThan(Math.max(100, 3 * shadowed));
  });

  // One test per removal, so that a failure names the property (and a mutation run stops at the first one).
  it.each(removals.filter((r) => !r.shadowed).map((r) => [nameOf(r), r] as const))(
    "calls removing %s breaking (a major bump), naming it",
    (_, removal) => {
      const changes = compareWithout(removal);
      const lines = changes.map(formatChange).join("\n") || "no change found";
      expect(namedRemovals(changes, removal.property).length, lines).toBeGreaterThan(0);
      expect(requiredBump(changes), lines).toBe("major");
    },
  );

  it.each(removals.filter((r) => r.shadowed).map((r) => [nameOf(r), r] as const))(
    "does not call removing %s a removal: a sibling branch still declares it",
    (_, removal) => {
      expect(namedRemovals(compareWithout(removal), removal.property).map(formatChange)).toEqual([]);
    },
  );
});
