// Compares two bundles of the contract and classifies each change from the consumer's side: a consumer
// sends requests, reads responses, and compiles against the generated type names. No library on npm does
// this for OpenAPI 3.1 here (RELEASING.md, "Why an own classifier": api-smart-diff reads 3.0 only and
// misreads $ref with siblings, openapi-diff refuses 3.1, Optic's CLI does not start, @pb33f/openapi-changes
// downloads a Go binary at install).
//   breaking      in a response: a field removed, made optional or nullable, a type changed or narrowed, a
//                 value added to a closed enum (or the enum opened), a looser or changed constraint, a status,
//                 header or body removed; in a request: a field, parameter, header or body added as required or
//                 made required, a value removed from an enum (or the enum closed), a type narrowed or changed,
//                 a tighter or changed constraint, undocumented fields refused, a parameter removed, an
//                 operation or path removed, a security requirement added, a server base path removed; a
//                 renamed operationId or component name (they are type names: operations[…], Quote, …); a
//                 webhook removed. A webhook is a request the service sends: its receiver reads its body and
//                 headers, so they compare as a response's body and headers do;
//   non-breaking  additions consumers may ignore or need not send, relaxed request rules, tighter responses;
//   annotation    descriptions, examples, extensions: anything else that changes no modelled shape.
// Each change carries a rule (its kind, e.g. `response-field-removed`), the operation, the place in it and
// the field path, so that the gate, the changelog and the tests can name them.
// What a schema says (its JSON types, closed values, fields, items and maps) is read through src/openapi
// (schemaTypes, closedValues, schemaView), as the validator, the mock and the verifier read it.
import { isDeepStrictEqual } from "node:util";
import {
  closedValues,
  deref,
  flattenSchema,
  isHttpMethod,
  isObject,
  type JsonObject,
  jsonMedia,
  listOperations,
  type OpenApiDocument,
  type Operation,
  type SchemaView,
  schemaTypes,
  schemaView,
  serverBasePaths,
} from "../../src/openapi/index.js";

export type ChangeKind = "breaking" | "non-breaking" | "annotation";

/** Every kind of change the comparer names. Schema rules start with the side they happen on. */
export const CHANGE_RULES = [
  "operation-removed",
  "operation-added",
  "webhook-removed",
  "webhook-added",
  "operation-id-renamed",
  "security-requirement-added",
  "security-requirement-relaxed",
  "server-base-path-removed",
  "server-base-path-added",
  "component-removed",
  "component-renamed",
  "component-added",
  "parameter-removed",
  "parameter-added",
  "required-parameter-added",
  "parameter-made-required",
  "parameter-made-optional",
  "request-body-removed",
  "request-body-added",
  "required-request-body-added",
  "request-body-made-required",
  "request-body-made-optional",
  "request-field-removed",
  "request-field-added",
  "request-required-field-added",
  "request-field-made-required",
  "request-field-made-optional",
  "request-type-changed",
  "request-type-narrowed",
  "request-type-widened",
  "request-enum-value-removed",
  "request-enum-value-added",
  "request-enum-closed",
  "request-enum-opened",
  "request-closed-to-undocumented-fields",
  "request-constraint-tightened",
  "request-constraint-loosened",
  "request-constraint-changed",
  "response-field-removed",
  "response-field-added",
  "response-field-made-optional",
  "response-field-made-required",
  "response-nullable",
  "response-type-changed",
  "response-type-narrowed",
  "response-type-widened",
  "response-enum-value-added",
  "response-enum-value-removed",
  "response-enum-opened",
  "response-enum-closed",
  "response-constraint-loosened",
  "response-constraint-tightened",
  "response-constraint-changed",
  "response-status-removed",
  "response-status-added",
  "response-header-removed",
  "response-header-added",
  "response-header-made-optional",
  "response-body-removed",
  "annotation",
] as const;
export type ChangeRule = (typeof CHANGE_RULES)[number];

export interface OperationRef {
  method: string;
  path: string;
  operationId: string | undefined;
}

export interface Change {
  kind: ChangeKind;
  /** The kind of change, e.g. `response-field-removed`. */
  rule: ChangeRule;
  /** The operation it happens in (none for components, servers, the document). */
  operation?: OperationRef;
  /**
   * The place inside the operation (`response 200 body`, `query parameter page`), or what else changed
   * (`component schema Quote`).
   */
  location: string;
  /**
   * The field path inside a body or value (`data.currency`, `data[].id`); "" for the whole body; absent when
   * not about a field.
   */
  field?: string;
  /** Where, for a reader: `GET /wallets/USDT (getWalletBalance), response 200 body`. */
  where: string;
  message: string;
}

type Direction = "request" | "response";

/** `GET /wallets/USDT (getWalletBalance)`. */
const operationLabel = (op: OperationRef): string => `${op.method} ${op.path} (${op.operationId ?? "no operationId"})`;

/**
 * Value constraints, and which way a bigger number goes ("up": a bigger value is tighter; undefined: no order).
 * test/release/constraints.test.ts makes a fixture of each keyword here, each way, on each side.
 */
export const CONSTRAINTS = {
  pattern: undefined,
  format: undefined,
  multipleOf: undefined,
  minimum: "up",
  exclusiveMinimum: "up",
  minLength: "up",
  minItems: "up",
  maximum: "down",
  exclusiveMaximum: "down",
  maxLength: "down",
  maxItems: "down",
} as const satisfies Record<string, "up" | "down" | undefined>;
type Constraint = keyof typeof CONSTRAINTS;

const anyOfSchemas = (list: unknown[]): unknown => (list.length === 1 ? list[0] : { allOf: list });
const typeText = (types: Set<string> | undefined) =>
  types
    ? [...types]
        .filter((t) => t !== "integer" || !types.has("number"))
        .sort()
        .join(" | ")
    : "any";
const valuesText = (values: unknown[]) => values.map((v) => JSON.stringify(v)).join(", ");

/** The exported TypeScript name openapi-typescript gives a component (`--root-types-no-schema-prefix`). */
const COMPONENT_TYPES = {
  schemas: "",
  responses: "Response",
  parameters: "Parameter",
  requestBodies: "RequestBody",
  headers: "Header",
  pathItems: "PathItem",
} as const;
const typeNameOf = (kind: keyof typeof COMPONENT_TYPES, name: string) =>
  kind === "schemas"
    ? name
    : COMPONENT_TYPES[kind] +
      name
        .split(/[^A-Za-z0-9]+/)
        .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
        .join("");

/** The JSON types before and after, and which the change removed and added ("any" for no constraint). */
interface TypeChange {
  typesA: Set<string> | undefined;
  typesB: Set<string> | undefined;
  removed: string[];
  added: string[];
}

/** One value compared: where, its field path ("" for the root) and how messages name it. */
interface At {
  place: Place;
  field: string;
  label: string;
}

/** Where a schema comparison happens: the operation, the place in it, the side. */
interface Place {
  operation?: OperationRef;
  location: string;
  direction: Direction;
  /** How the root value is named in messages ("the body", or the parameter or header). */
  root: string;
}

/** An operation's parameters by `in` and name; header names are case-insensitive, other parameters are not. */
function parametersByKey(operation: Operation): Map<string, JsonObject> {
  return new Map(
    operation.parameters.map((p) => [
      `${String(p.in)} parameter ${p.in === "header" ? String(p.name).toLowerCase() : String(p.name)}`,
      p,
    ]),
  );
}

/** A response's headers by lower-cased name (header names are case-insensitive). */
function headersByName(response: JsonObject): Map<string, unknown> {
  return new Map(Object.entries((response.headers ?? {}) as JsonObject).map(([name, h]) => [name.toLowerCase(), h]));
}

class Comparer {
  readonly changes: Change[] = [];
  constructor(
    private readonly before: OpenApiDocument,
    private readonly after: OpenApiDocument,
  ) {}

  add(
    kind: ChangeKind,
    rule: ChangeRule,
    place: { operation?: OperationRef; location: string },
    message: string,
    field?: string,
  ): void {
    const head = place.operation ? operationLabel(place.operation) : "";
    // The place is left out of `where` when the message names it already ("response 200 removed").
    const where =
      [head, message.includes(place.location) ? "" : place.location].filter(Boolean).join(", ") || place.location;
    this.changes.push({
      kind,
      rule,
      ...(place.operation ? { operation: place.operation } : {}),
      location: place.location,
      ...(field !== undefined ? { field } : {}),
      where,
      message,
    });
  }

  /** Compares the value described by `a` (before) and `b` (after) at `field` (a dotted path, "" for the root). */
  schema(a: unknown, b: unknown, place: Place, field: string, depth = 0): void {
    if (depth > 24) return;
    const at: At = { place, field, label: field || place.root };
    this.types(schemaTypes(this.before, a), schemaTypes(this.after, b), at);
    this.values(closedValues(this.before, a), closedValues(this.after, b), at);
    this.constraints(a, b, place, field, at.label);
    const viewA = schemaView(this.before, a, { alternatives: true });
    const viewB = schemaView(this.after, b, { alternatives: true });
    this.fields(viewA, viewB, at, depth);
    if (place.direction === "request" && !viewA.closed && viewB.closed)
      this.note(at, "breaking", "request-closed-to-undocumented-fields", `${at.label} refuses undocumented fields now`);
    if (viewA.items.length && viewB.items.length)
      this.schema(anyOfSchemas(viewA.items), anyOfSchemas(viewB.items), place, `${field}[]`, depth + 1);
    if (viewA.maps.length && viewB.maps.length)
      this.schema(anyOfSchemas(viewA.maps), anyOfSchemas(viewB.maps), place, `${field}{*}`, depth + 1);
  }

  /** A change about the value at `at` (or, with `field`, about one of its fields). */
  private note(at: At, kind: ChangeKind, rule: ChangeRule, message: string, field = at.field): void {
    this.add(kind, rule, at.place, message, field);
  }

  /** The JSON types: undefined is any type, so any to some removes "any" and some to any adds it. */
  private types(typesA: Set<string> | undefined, typesB: Set<string> | undefined, at: At): void {
    if (!typesA && !typesB) return;
    const removed = typesA ? (typesB ? [...typesA].filter((t) => !typesB.has(t)) : []) : ["any"];
    const added = typesB ? (typesA ? [...typesB].filter((t) => !typesA.has(t)) : []) : ["any"];
    const change = { typesA, typesB, removed, added };
    if (at.place.direction === "response") this.responseTypes(change, at);
    else this.requestTypes(change, at);
  }

  /** A response may now hold a type the consumer does not expect: null, another type, or fewer (narrowed). */
  private responseTypes({ typesA, typesB, removed, added }: TypeChange, at: At): void {
    const { label } = at;
    if (added.includes("null") && typesA && !typesA.has("null"))
      this.note(at, "breaking", "response-nullable", `${label} may now be null`);
    const otherAdded = added.filter((t) => t !== "null");
    if (otherAdded.length && removed.length)
      this.note(
        at,
        "breaking",
        "response-type-changed",
        `${label} changed type from ${typeText(typesA)} to ${typeText(typesB)}`,
      );
    else if (otherAdded.length)
      this.note(
        at,
        "breaking",
        "response-type-widened",
        `${label} may now be ${otherAdded.join(" or ")} (was ${typeText(typesA)})`,
      );
    else if (removed.length)
      this.note(
        at,
        "breaking",
        "response-type-narrowed",
        `${label} narrowed: it can no longer be ${removed.join(" or ")} (now ${typeText(typesB)})`,
      );
  }

  /** A request that sent a type no longer accepted is refused; accepting more is safe. */
  private requestTypes({ typesA, typesB, removed, added }: TypeChange, at: At): void {
    const { label } = at;
    if (removed.length && added.filter((t) => t !== "null").length)
      this.note(
        at,
        "breaking",
        "request-type-changed",
        `${label} changed type from ${typeText(typesA)} to ${typeText(typesB)}`,
      );
    else if (removed.length)
      this.note(
        at,
        "breaking",
        "request-type-narrowed",
        `${label} no longer accepts ${removed.join(" or ")} (now ${typeText(typesB)})`,
      );
    else if (added.length)
      this.note(at, "non-breaking", "request-type-widened", `${label} now also accepts ${added.join(" or ")}`);
  }

  /** Closed values (enum or const): a response gaining one, or a request losing one, is breaking. */
  private values(valuesA: unknown[] | undefined, valuesB: unknown[] | undefined, at: At): void {
    if (!valuesA && !valuesB) return;
    const gained = valuesB ? valuesB.filter((v) => !valuesA?.some((x) => isDeepStrictEqual(x, v))) : [];
    const lost = valuesA ? valuesA.filter((v) => !valuesB?.some((x) => isDeepStrictEqual(x, v))) : [];
    const { label } = at;
    if (at.place.direction === "response") {
      if (valuesA && !valuesB)
        this.note(at, "breaking", "response-enum-opened", `${label} is no longer limited to ${valuesText(valuesA)}`);
      else if (!valuesA && valuesB)
        this.note(at, "non-breaking", "response-enum-closed", `${label} is now limited to ${valuesText(valuesB)}`);
      else {
        const addedText = `${label} gains the value(s) ${valuesText(gained)} in a closed enum`;
        if (gained.length) this.note(at, "breaking", "response-enum-value-added", addedText);
        const removedText = `${label} no longer takes the value(s) ${valuesText(lost)}`;
        if (lost.length) this.note(at, "non-breaking", "response-enum-value-removed", removedText);
      }
    } else if (valuesA && !valuesB)
      this.note(at, "non-breaking", "request-enum-opened", `${label} accepts any value now`);
    else if (!valuesA && valuesB)
      this.note(at, "breaking", "request-enum-closed", `${label} is now limited to ${valuesText(valuesB)}`);
    else {
      if (lost.length)
        this.note(at, "breaking", "request-enum-value-removed", `${label} no longer accepts ${valuesText(lost)}`);
      if (gained.length)
        this.note(at, "non-breaking", "request-enum-value-added", `${label} now accepts ${valuesText(gained)}`);
    }
  }

  /** The fields of an object: removed, made optional or required, added; each kept field compared in turn. */
  private fields(viewA: SchemaView, viewB: SchemaView, at: At, depth: number): void {
    const child = (name: string) => (at.field ? `${at.field}.${name}` : name);
    for (const [name, schemasA] of viewA.properties) {
      const schemasB = viewB.properties.get(name);
      if (!schemasB) this.fieldRemoved(child(name), viewB.closed, at);
      else {
        this.requiredness(viewA.required.has(name), viewB.required.has(name), child(name), at);
        this.schema(anyOfSchemas(schemasA), anyOfSchemas(schemasB), at.place, child(name), depth + 1);
      }
    }
    for (const [name] of viewB.properties) {
      if (viewA.properties.has(name)) continue;
      if (at.place.direction === "request" && viewB.required.has(name))
        this.note(at, "breaking", "request-required-field-added", `required field ${child(name)} added`, child(name));
      else {
        const rule = at.place.direction === "request" ? "request-field-added" : "response-field-added";
        this.note(at, "non-breaking", rule, `field ${child(name)} added`, child(name));
      }
    }
  }

  /** A response field removed breaks its readers; a request field removed breaks only a closed object's senders. */
  private fieldRemoved(field: string, closedAfter: boolean, at: At): void {
    if (at.place.direction === "response")
      this.note(at, "breaking", "response-field-removed", `field ${field} removed`, field);
    else
      this.note(
        at,
        closedAfter ? "breaking" : "non-breaking",
        "request-field-removed",
        `field ${field} removed${closedAfter ? " (sending it is now refused)" : ""}`,
        field,
      );
  }

  private requiredness(wasRequired: boolean, isRequired: boolean, field: string, at: At): void {
    const response = at.place.direction === "response";
    if (wasRequired && !isRequired) {
      if (response) this.note(at, "breaking", "response-field-made-optional", `field ${field} made optional`, field);
      else this.note(at, "non-breaking", "request-field-made-optional", `field ${field} made optional`, field);
    }
    if (!wasRequired && isRequired) {
      if (response)
        this.note(at, "non-breaking", "response-field-made-required", `field ${field} made required`, field);
      else this.note(at, "breaking", "request-field-made-required", `field ${field} made required`, field);
    }
  }

  /**
   * Value constraints (pattern, format, bounds, lengths): tighter is breaking in a request; in a response,
   * looser is; a change without an order is breaking on both sides. A keyword may be in several parts of a
   * schema (allOf, anyOf, oneOf): a value both sides have is no change, the others pair up in their order.
   */
  constraints(a: unknown, b: unknown, place: Place, field: string, label: string): void {
    const before = constraintValues(this.before, a);
    const after = constraintValues(this.after, b);
    for (const key of Object.keys(CONSTRAINTS) as Constraint[]) {
      const [onlyBefore, onlyAfter] = difference(before.get(key) ?? [], after.get(key) ?? []);
      for (let i = 0; i < Math.max(onlyBefore.length, onlyAfter.length); i++)
        this.constraint(key, onlyBefore[i], onlyAfter[i], place, field, label);
    }
  }

  /** One constraint keyword from `was` to `now` (undefined: absent). */
  private constraint(key: Constraint, was: unknown, now: unknown, place: Place, field: string, label: string): void {
    const what =
      was === undefined
        ? `${key} ${JSON.stringify(now)} added`
        : now === undefined
          ? `${key} ${JSON.stringify(was)} removed`
          : `${key} changed from ${JSON.stringify(was)} to ${JSON.stringify(now)}`;
    const tighter = isTighter(key, was, now);
    const side = place.direction;
    const rule: ChangeRule =
      tighter === undefined
        ? `${side}-constraint-changed`
        : tighter
          ? `${side}-constraint-tightened`
          : `${side}-constraint-loosened`;
    const safe = side === "request" ? tighter === false : tighter === true;
    this.add(safe ? "non-breaking" : "breaking", rule, place, `${label}: ${what}`, field);
  }

  operation(a: Operation, b: Operation): void {
    const op: OperationRef = { method: b.method, path: b.path, operationId: b.operationId ?? a.operationId };
    if (a.operationId !== b.operationId)
      this.add(
        "breaking",
        "operation-id-renamed",
        { operation: op, location: "operationId" },
        `operationId renamed from ${a.operationId} to ${b.operationId} (the key of the operations type)`,
      );
    this.security(a, b, { operation: op, location: "security" });
    this.parameters(a, b, op);
    this.requestBody(a.requestBody, b.requestBody, op);
    for (const [status, responseA] of Object.entries(a.responses)) {
      const responseB = b.responses[status];
      if (responseB) this.response(status, responseA, responseB, op);
      else
        this.add(
          "breaking",
          "response-status-removed",
          { operation: op, location: `response ${status}` },
          `response ${status} removed`,
        );
    }
    for (const status of Object.keys(b.responses))
      if (!(status in a.responses))
        this.add(
          "non-breaking",
          "response-status-added",
          { operation: op, location: `response ${status}` },
          `response ${status} added`,
        );
  }

  /** Parameters by `in` and name (header names case-insensitive): removed, made required or optional, added. */
  private parameters(a: Operation, b: Operation, op: OperationRef): void {
    const at = (location: string) => ({ operation: op, location });
    const paramsA = parametersByKey(a);
    const paramsB = parametersByKey(b);
    for (const [key, pa] of paramsA) {
      const pb = paramsB.get(key);
      if (!pb) {
        this.add("breaking", "parameter-removed", at(key), `${key} removed`);
        continue;
      }
      if (pa.required !== true && pb.required === true)
        this.add("breaking", "parameter-made-required", at(key), `${key} made required`);
      if (pa.required === true && pb.required !== true)
        this.add("non-breaking", "parameter-made-optional", at(key), `${key} made optional`);
      this.schema(pa.schema, pb.schema, { operation: op, location: key, direction: "request", root: key }, "");
    }
    for (const [key, pb] of paramsB) {
      if (paramsA.has(key)) continue;
      if (pb.required === true) this.add("breaking", "required-parameter-added", at(key), `required ${key} added`);
      else this.add("non-breaking", "parameter-added", at(key), `optional ${key} added`);
    }
  }

  private requestBody(bodyA: JsonObject | undefined, bodyB: JsonObject | undefined, op: OperationRef): void {
    const place = { operation: op, location: "request body" };
    if (bodyA && !bodyB) this.add("breaking", "request-body-removed", place, "request body removed");
    else if (!bodyA && bodyB) {
      if (bodyB.required === true)
        this.add("breaking", "required-request-body-added", place, "required request body added");
      else this.add("non-breaking", "request-body-added", place, "optional request body added");
    } else if (bodyA && bodyB) {
      if (bodyA.required !== true && bodyB.required === true)
        this.add("breaking", "request-body-made-required", place, "request body made required");
      if (bodyA.required === true && bodyB.required !== true)
        this.add("non-breaking", "request-body-made-optional", place, "request body made optional");
      const where: Place = { ...place, direction: "request", root: "the body" };
      this.schema(jsonMedia(bodyA)?.schema, jsonMedia(bodyB)?.schema, where, "");
    }
  }

  /** One status both documents answer with: its headers, then its JSON body. */
  private response(status: string, responseA: JsonObject, responseB: JsonObject, op: OperationRef): void {
    this.responseHeaders(status, headersByName(responseA), headersByName(responseB), op);
    this.receivedBody(jsonMedia(responseA), jsonMedia(responseB), op, `response ${status} body`);
  }

  /** A JSON body the consumer receives (a response's, a webhook's): removed is breaking, else its schemas compare. */
  private receivedBody(
    mediaA: JsonObject | undefined,
    mediaB: JsonObject | undefined,
    op: OperationRef,
    location: string,
  ): void {
    if (mediaA && !mediaB)
      this.add("breaking", "response-body-removed", { operation: op, location }, `${location} removed`);
    else if (mediaA && mediaB)
      this.schema(
        mediaA.schema,
        mediaB.schema,
        { operation: op, location, direction: "response", root: "the body" },
        "",
      );
  }

  private responseHeaders(
    status: string,
    headersA: Map<string, unknown>,
    headersB: Map<string, unknown>,
    op: OperationRef,
  ): void {
    for (const [name, rawA] of headersA) {
      const location = `response ${status} header ${name}`;
      const rawB = headersB.get(name);
      if (rawB === undefined) {
        this.add("breaking", "response-header-removed", { operation: op, location }, `${location} removed`);
        continue;
      }
      const headerA = deref(this.before, rawA);
      const headerB = deref(this.after, rawB);
      if (headerA?.required === true && headerB?.required !== true)
        this.add("breaking", "response-header-made-optional", { operation: op, location }, `${location} made optional`);
      const place: Place = { operation: op, location, direction: "response", root: location };
      this.schema(headerA?.schema, headerB?.schema, place, "");
    }
    for (const name of headersB.keys()) {
      const location = `response ${status} header ${name}`;
      if (!headersA.has(name))
        this.add("non-breaking", "response-header-added", { operation: op, location }, `${location} added`);
    }
  }

  /** A consumer meets one alternative of the security requirement; if it is gone, its calls are refused. */
  security(a: Operation, b: Operation, place: { operation: OperationRef; location: string }): void {
    const alternatives = (doc: OpenApiDocument, o: Operation) => {
      const list = (o.operation.security ?? doc.security ?? []) as Array<Record<string, unknown>>;
      return new Set(list.map((r) => Object.keys(r).sort().join(" + ")));
    };
    const altsA = alternatives(this.before, a);
    const altsB = alternatives(this.after, b);
    const open = (alts: Set<string>) => alts.size === 0 || alts.has("");
    const text = (alts: Set<string>) => (open(alts) ? "none" : [...alts].join(" or "));
    if (open(altsB) || isDeepStrictEqual(altsA, altsB)) {
      if (!open(altsA) && open(altsB))
        this.add(
          "non-breaking",
          "security-requirement-relaxed",
          place,
          `security requirement relaxed (was ${text(altsA)}, now none)`,
        );
      return;
    }
    const lost = open(altsA) ? ["none"] : [...altsA].filter((alt) => !altsB.has(alt));
    if (lost.length)
      this.add(
        "breaking",
        "security-requirement-added",
        place,
        `security requirement now ${text(altsB)} (was ${text(altsA)})`,
      );
    else
      this.add(
        "non-breaking",
        "security-requirement-relaxed",
        place,
        `security alternatives added: ${[...altsB].filter((x) => !altsA.has(x)).join(", ")}`,
      );
  }

  components(): void {
    for (const kind of Object.keys(COMPONENT_TYPES) as Array<keyof typeof COMPONENT_TYPES>) {
      const mapA = (this.before.components?.[kind] ?? {}) as JsonObject;
      const mapB = (this.after.components?.[kind] ?? {}) as JsonObject;
      const gone = Object.keys(mapA).filter((name) => !(name in mapB));
      const added = Object.keys(mapB).filter((name) => !(name in mapA));
      const singular = kind === "requestBodies" ? "requestBody" : kind.slice(0, -1);
      for (const name of gone) {
        const place = { location: `component ${singular} ${name}` };
        const renamedTo = added.find((other) => isDeepStrictEqual(mapA[name], mapB[other]));
        if (renamedTo !== undefined)
          this.add(
            "breaking",
            "component-renamed",
            place,
            `renamed to ${renamedTo}: the exported type ${typeNameOf(kind, name)} is now ` +
              typeNameOf(kind, renamedTo),
          );
        else
          this.add(
            "breaking",
            "component-removed",
            place,
            `removed or renamed: the exported type ${typeNameOf(kind, name)} is gone`,
          );
      }
      for (const name of added)
        if (!gone.some((old) => isDeepStrictEqual(mapA[old], mapB[name])))
          this.add(
            "non-breaking",
            "component-added",
            { location: `component ${singular} ${name}` },
            `added (a new exported type ${typeNameOf(kind, name)})`,
          );
    }
  }

  /** The webhooks: a receiver reads what the service sends, so bodies and headers compare as a response's. */
  webhooks(): void {
    const hooksA = webhookOperations(this.before);
    const hooksB = webhookOperations(this.after);
    for (const [key, a] of hooksA) {
      const b = hooksB.get(key);
      if (!b) {
        this.add("breaking", "webhook-removed", { operation: a.ref, location: "" }, "webhook removed");
        continue;
      }
      const op = b.ref;
      if (a.ref.operationId !== op.operationId)
        this.add(
          "breaking",
          "operation-id-renamed",
          { operation: op, location: "operationId" },
          `operationId renamed from ${a.ref.operationId} to ${op.operationId} (the key of the operations type)`,
        );
      this.sentHeaders(a, b);
      this.receivedBody(jsonMedia(a.body), jsonMedia(b.body), op, "webhook body");
    }
    for (const [key, b] of hooksB)
      if (!hooksA.has(key))
        this.add("non-breaking", "webhook-added", { operation: b.ref, location: "" }, "webhook added");
  }

  /** A webhook's header parameters: what the service sends, read by the receiver. */
  private sentHeaders(a: Webhook, b: Webhook): void {
    const headers = (doc: OpenApiDocument, hook: Webhook) =>
      new Map(
        ((hook.operation.parameters ?? []) as unknown[])
          .map((raw) => deref(doc, raw))
          .filter((p): p is JsonObject => p?.in === "header")
          .map((p) => [String(p.name).toLowerCase(), p]),
      );
    const [headersA, headersB] = [headers(this.before, a), headers(this.after, b)];
    for (const [name, headerA] of headersA) {
      const location = `webhook header ${name}`;
      const headerB = headersB.get(name);
      if (!headerB)
        this.add("breaking", "response-header-removed", { operation: b.ref, location }, `${location} removed`);
      else {
        if (headerA.required === true && headerB.required !== true)
          this.add(
            "breaking",
            "response-header-made-optional",
            { operation: b.ref, location },
            `${location} made optional`,
          );
        const place: Place = { operation: b.ref, location, direction: "response", root: location };
        this.schema(headerA.schema, headerB.schema, place, "");
      }
    }
    for (const name of headersB.keys())
      if (!headersA.has(name))
        this.add(
          "non-breaking",
          "response-header-added",
          { operation: b.ref, location: `webhook header ${name}` },
          `webhook header ${name} added`,
        );
  }

  run(): Change[] {
    const before = new Map(listOperations(this.before).map((op) => [op.key, op]));
    const after = new Map(listOperations(this.after).map((op) => [op.key, op]));
    const pathsAfter = new Set(Object.keys(this.after.paths ?? {}));
    for (const [key, op] of before) {
      const now = after.get(key);
      if (now) this.operation(op, now);
      else
        this.add(
          "breaking",
          "operation-removed",
          { operation: { method: op.method, path: op.path, operationId: op.operationId }, location: "" },
          pathsAfter.has(op.path) ? "operation removed" : `operation removed (the path ${op.path} is gone)`,
        );
    }
    for (const [key, op] of after)
      if (!before.has(key))
        this.add(
          "non-breaking",
          "operation-added",
          { operation: { method: op.method, path: op.path, operationId: op.operationId }, location: "" },
          "operation added",
        );
    const basesA = serverBasePaths(this.before);
    const basesB = serverBasePaths(this.after);
    for (const base of basesA)
      if (!basesB.includes(base))
        this.add("breaking", "server-base-path-removed", { location: "servers" }, `server base path ${base} removed`);
    for (const base of basesB)
      if (!basesA.includes(base))
        this.add("non-breaking", "server-base-path-added", { location: "servers" }, `server base path ${base} added`);
    this.webhooks();
    this.components();
    if (this.changes.length === 0 && !isDeepStrictEqual(strip(this.before), strip(this.after)))
      this.add(
        "annotation",
        "annotation",
        { location: "the document" },
        "descriptions, examples, extensions or other parts the gate does not model changed",
      );
    return this.changes;
  }
}

/** Each constraint keyword's values in the parts of a schema ($ref, allOf, anyOf, oneOf), in their order. */
function constraintValues(doc: OpenApiDocument, schema: unknown): Map<Constraint, unknown[]> {
  const found = new Map<Constraint, unknown[]>();
  for (const part of flattenSchema(doc, schema, { alternatives: true }))
    for (const key of Object.keys(CONSTRAINTS) as Constraint[])
      if (part[key] !== undefined) found.set(key, [...(found.get(key) ?? []), part[key]]);
  return found;
}

/** The values only `was` has and those only `now` has, each in its order (a value in both, as often, is kept). */
function difference(was: readonly unknown[], now: readonly unknown[]): [unknown[], unknown[]] {
  const onlyNow = [...now];
  const onlyWas = was.filter((value) => {
    const i = onlyNow.findIndex((other) => isDeepStrictEqual(other, value));
    if (i >= 0) onlyNow.splice(i, 1);
    return i < 0;
  });
  return [onlyWas, onlyNow];
}

/** Whether a constraint from `was` to `now` (undefined: absent) is tighter; undefined when they have no order. */
function isTighter(key: Constraint, was: unknown, now: unknown): boolean | undefined {
  if (was === undefined) return true;
  if (now === undefined) return false;
  const order = CONSTRAINTS[key];
  if (!order || typeof was !== "number" || typeof now !== "number") return undefined;
  return order === "up" ? now > was : now < was;
}

/** A webhook's operation (`webhooks: {name: {post: …}}`), named `POST webhook <name>` in the gate's lines. */
interface Webhook {
  ref: OperationRef;
  operation: JsonObject;
  body: JsonObject | undefined;
}

function webhookOperations(doc: OpenApiDocument): Map<string, Webhook> {
  const hooks = new Map<string, Webhook>();
  for (const [name, raw] of Object.entries((doc.webhooks ?? {}) as JsonObject)) {
    const item = deref(doc, raw) ?? {};
    for (const [method, value] of Object.entries(item)) {
      const operation = deref(doc, value);
      if (!isHttpMethod(method) || !operation) continue;
      const ref = {
        method: method.toUpperCase(),
        path: `webhook ${name}`,
        operationId: operation.operationId as string,
      };
      hooks.set(`${ref.method} ${ref.path}`, { ref, operation, body: deref(doc, operation.requestBody) });
    }
  }
  return hooks;
}

/**
 * The document without what every release changes (its version) or the copy adds (notices), for the
 * annotation check.
 */
function strip(doc: OpenApiDocument): unknown {
  const { "x-generated": _notice, "x-released": _released, info, ...rest } = doc;
  if (!isObject(info)) return rest;
  const { version: _version, ...otherInfo } = info;
  return { ...rest, info: otherInfo };
}

/** Every change from `before` to `after`, classified; breaking first. */
export function compareContracts(before: OpenApiDocument, after: OpenApiDocument): Change[] {
  const order: Record<ChangeKind, number> = { breaking: 0, "non-breaking": 1, annotation: 2 };
  const reportedKeys = new Set<string>();
  return new Comparer(before, after)
    .run()
    .filter((c) => {
      const key = `${c.kind}|${c.rule}|${c.where}|${c.message}`;
      if (reportedKeys.has(key)) return false;
      reportedKeys.add(key);
      return true;
    })
    .sort((x, y) => order[x.kind] - order[y.kind]);
}

/**
 * One line: `BREAKING  response-field-removed  GET /wallets/USDT (getWalletBalance), response 200 body: field
 * data.currency removed`.
 */
export const formatChange = (change: Change): string =>
  `${change.kind.toUpperCase()}  ${change.rule}  ${change.where}: ${change.message}`;

const leaf = (field: string) => /[\w-]+(?:\[\]|\{\*\})*$/.exec(field)?.[0] ?? field;

/**
 * Changes of one kind to the same field name at the same kind of place (a shared schema changes wherever it
 * is embedded).
 */
interface ChangeGroup {
  kind: ChangeKind;
  rule: ChangeRule;
  /**
   * The one change's place, or the generic place of many (`response * header x-ratelimit-limit`); "" when
   * the text names it.
   */
  where: string;
  /** The message, with the field path cut to the field's own name when the group has many places. */
  text: string;
  count: number;
  /** The operationIds (or places) it happens at, in first-seen order. */
  operations: string[];
}

/** The changes grouped for a reader (a changelog), in their order. */
export function groupChanges(changes: readonly Change[]): ChangeGroup[] {
  const generic = (location: string) => location.replace(/^response \S+( |$)/, "response *$1");
  const groups = new Map<string, { members: Change[]; text: string }>();
  for (const change of changes) {
    const location = generic(change.location);
    let text = change.field ? change.message.split(change.field).join(leaf(change.field)) : change.message;
    if (change.location) text = text.split(change.location).join(location);
    const key = `${change.kind}|${change.rule}|${location}|${text}`;
    const group = groups.get(key) ?? { members: [], text };
    group.members.push(change);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ members, text }) => {
    const first = members[0]!;
    const operations = [...new Set(members.map((c) => c.operation?.operationId ?? c.where))];
    if (members.length === 1)
      return { kind: first.kind, rule: first.rule, where: first.where, text: first.message, count: 1, operations };
    const location = generic(first.location);
    const where = text.includes(location) ? "" : location;
    return { kind: first.kind, rule: first.rule, where, text, count: members.length, operations };
  });
}

/**
 * One line per group: `NON-BREAKING  parameter-added  optional header parameter x-api-timestamp added — 16
 * places: getFiatRates, …`.
 */
export function summarizeChanges(changes: readonly Change[]): string[] {
  return groupChanges(changes).map((g) => {
    const head = `${g.kind.toUpperCase()}  ${g.rule}  ${g.where ? `${g.where}: ` : ""}${g.text}`;
    if (g.count === 1) return head;
    const more = g.operations.length > 3 ? `, … (${g.operations.length} operations)` : "";
    const shown = g.operations.slice(0, 3).join(", ") + more;
    return `${head} — ${g.count} places: ${shown}`;
  });
}
