// fast-check arbitraries from the spec's JSON Schemas and parameters, for the fuzz test.
// A small generator written here: the one library for it, json-schema-fast-check 0.0.6, depends on
// fast-check 1.x (this project pins 4.10.2), faker 4 and uuid 3, and has not been released since 2019.
// The request schemas of this API are small (objects of strings, numbers, enums, string arrays), so
// the subset below covers them; it throws on a keyword it does not handle, so a new one is noticed.
import fc from "fast-check";
import { flattenSchema, listOperations, type OpenApiDocument, type Operation } from "../../../src/openapi/index.js";
import { isObject, requestBodySchema, type JsonObject, type SpecOperation } from "../../support/spec.js";

const HANDLED = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
  "maxProperties",
  "minProperties",
  "allOf",
  "$ref",
  "description",
  "title",
  "examples",
  "example",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

function merged(spec: OpenApiDocument, schema: unknown): JsonObject {
  const out: JsonObject = {};
  for (const part of flattenSchema(spec, schema)) {
    for (const [key, value] of Object.entries(part)) {
      if (!HANDLED.has(key) && !key.startsWith("x-"))
        throw new Error(`arbitraries: schema keyword ${key} is not handled`);
      if (key === "properties" && isObject(value))
        out.properties = { ...(out.properties as JsonObject | undefined), ...value };
      else if (key === "required" && Array.isArray(value))
        out.required = [...((out.required as string[] | undefined) ?? []), ...(value as string[])];
      else if (key !== "allOf" && key !== "$ref") out[key] = value;
    }
  }
  return out;
}

function typesOf(schema: JsonObject): string[] | undefined {
  if (schema.type !== undefined) return (Array.isArray(schema.type) ? schema.type : [schema.type]) as string[];
  if (schema.properties) return ["object"];
  if (schema.items) return ["array"];
  return undefined;
}

/** Values valid against `schema`. */
function validValue(spec: OpenApiDocument, schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  const s = merged(spec, schema);
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const types = typesOf(s);
  if (!types) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(...types.map((type) => validOfType(spec, s, type, depth)));
}

function validOfType(spec: OpenApiDocument, s: JsonObject, type: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case "string": {
      if (s.format === "date-time")
        return fc
          .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
          .map((d) => d.toISOString());
      if (typeof s.pattern === "string") return fc.stringMatching(new RegExp(s.pattern));
      if (s.format !== undefined) throw new Error(`arbitraries: string format ${String(s.format)} is not handled`);
      return fc.string({
        unit: "grapheme",
        minLength: Number(s.minLength ?? 0),
        maxLength: Math.min(Number(s.maxLength ?? 24), 24),
      });
    }
    case "number":
    case "integer": {
      const min =
        typeof s.minimum === "number"
          ? s.minimum
          : typeof s.exclusiveMinimum === "number"
            ? s.exclusiveMinimum
            : undefined;
      const max =
        typeof s.maximum === "number"
          ? s.maximum
          : typeof s.exclusiveMaximum === "number"
            ? s.exclusiveMaximum
            : undefined;
      const base =
        type === "integer"
          ? fc.integer({
              min: min === undefined ? undefined : Math.ceil(min),
              max: max === undefined ? undefined : Math.floor(max),
            })
          : fc.double({
              noNaN: true,
              noDefaultInfinity: true,
              min,
              max,
              minExcluded: typeof s.exclusiveMinimum === "number",
              maxExcluded: typeof s.exclusiveMaximum === "number",
            });
      return base.map((n) => (Object.is(n, -0) ? 0 : n));
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(s.items === undefined ? fc.jsonValue({ maxDepth: 1 }) : validValue(spec, s.items, depth + 1), {
        minLength: Number(s.minItems ?? 0),
        maxLength: Math.min(Number(s.maxItems ?? 5), 5),
      });
    case "object": {
      const properties = (s.properties ?? {}) as JsonObject;
      const required = new Set((s.required as string[] | undefined) ?? []);
      if (s.maxProperties === 0) return fc.constant({});
      const record = fc.record(
        Object.fromEntries(
          Object.entries(properties).map(([name, child]) => [name, validValue(spec, child, depth + 1)]),
        ),
        {
          requiredKeys: [...required].filter((name) => name in properties),
        },
      );
      return record as fc.Arbitrary<unknown>;
    }
    default:
      throw new Error(`arbitraries: type ${type} is not handled`);
  }
}

/** A value of a JSON type none of `types` accepts. */
function wrongTypeValue(types: string[] | undefined): fc.Arbitrary<unknown> {
  const all: Array<[string, fc.Arbitrary<unknown>]> = [
    ["string", fc.string({ maxLength: 8 })],
    ["number", fc.double({ noNaN: true, noDefaultInfinity: true })],
    ["boolean", fc.boolean()],
    ["null", fc.constant(null)],
    ["array", fc.array(fc.integer(), { maxLength: 3 })],
    ["object", fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.integer(), { maxKeys: 3 })],
  ];
  const accepted = new Set(types ?? []);
  // An integer-only type: doubles may happen to be integers; callers check values with the validator.
  const options = all.filter(([type]) => !accepted.has(type)).map(([, arb]) => arb);
  return fc.oneof(...options);
}

/**
 * Values that break `schema` in one way (wrong type, enum, missing/unknown property, …).
 * Maybe not all: check with the validator.
 */
function invalidValue(spec: OpenApiDocument, schema: unknown): fc.Arbitrary<{ value: unknown; why: string }> {
  const s = merged(spec, schema);
  const types = typesOf(s);
  const options: Array<fc.Arbitrary<{ value: unknown; why: string }>> = [
    wrongTypeValue(types).map((value) => ({ value, why: "wrong type" })),
  ];
  if (Array.isArray(s.enum))
    options.push(
      fc
        .string({ minLength: 1, maxLength: 12 })
        .filter((v) => !(s.enum as unknown[]).includes(v))
        .map((value) => ({ value, why: "outside enum" })),
    );
  if (types?.includes("object")) {
    const valid = validValue(spec, s) as fc.Arbitrary<JsonObject>;
    const properties = Object.keys((s.properties ?? {}) as JsonObject);
    if (properties.length) {
      options.push(
        fc.tuple(valid, fc.constantFrom(...properties)).chain(([object, name]) =>
          invalidValue(spec, (s.properties as JsonObject)[name]).map(({ value, why }) => ({
            value: { ...object, [name]: value },
            why: `${name}: ${why}`,
          })),
        ),
      );
    }
    for (const name of (s.required as string[] | undefined) ?? []) {
      options.push(
        valid.map((object) => {
          const { [name]: _removed, ...rest } = object;
          return { value: rest, why: `${name} missing` };
        }),
      );
    }
    if (s.additionalProperties === false || s.maxProperties === 0) {
      options.push(
        fc
          .tuple(
            valid,
            fc.string({ minLength: 1, maxLength: 10 }).filter((k) => !properties.includes(k) && k !== "__proto__"),
            fc.jsonValue({ maxDepth: 1 }),
          )
          .map(([object, key, extra]) => ({
            value: { ...object, [key]: extra },
            why: `unknown field ${key}`,
          })),
      );
    }
  }
  if (types?.includes("array") && s.items !== undefined) {
    options.push(
      fc
        .tuple(validValue(spec, s) as fc.Arbitrary<unknown[]>, invalidValue(spec, s.items))
        .map(([array, bad]) => ({ value: [...array, bad.value], why: `item: ${bad.why}` })),
    );
  }
  return fc.oneof(...options);
}

/** Text that is not JSON, made from a valid body. */
function malformedJson(valid: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc
    .tuple(
      valid.map((v) => JSON.stringify(v)),
      fc.nat(),
      fc.constantFrom(",", "}", "{", "'", "undefined", "\u0000"),
    )
    .map(([text, cut, junk]) => text.slice(0, cut % Math.max(1, text.length)) + junk)
    .filter((text) => {
      try {
        JSON.parse(text);
        return false;
      } catch {
        return true;
      }
    });
}

export interface FuzzRequest {
  op: SpecOperation;
  valid: boolean;
  why: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** The parsed body (for checking it against the spec), when the body is JSON. */
  parsedBody: unknown;
}

/**
 * The values each path parameter of `op` must not take, by parameter name: the literal segment another path of
 * the contract has at that place, where that path's other segments could match the same request. A route with
 * the literal answers such a request, not `op` (GET /wallets/me is Get Wallets, not /wallets/{currencyCode}).
 * Every method's paths count: a router may pick the path before it looks at the method.
 */
export function literalSiblingSegments(spec: OpenApiDocument, op: Pick<Operation, "path" | "segments">) {
  const taken = new Map<string, Set<string>>();
  for (const other of listOperations(spec)) {
    if (other.path === op.path || other.segments.length !== op.segments.length) continue;
    const overlaps = op.segments.every((mine, i) => {
      const theirs = other.segments[i]!;
      return !("literal" in mine && "literal" in theirs) || mine.literal === theirs.literal;
    });
    if (!overlaps) continue;
    op.segments.forEach((mine, i) => {
      const theirs = other.segments[i]!;
      if ("param" in mine && "literal" in theirs)
        taken.set(mine.param, (taken.get(mine.param) ?? new Set()).add(theirs.literal));
    });
  }
  return taken;
}

/**
 * A path segment a URL keeps as one segment ("." and ".." are resolved away by URL parsing) and that no
 * literal sibling route takes (`taken`, from literalSiblingSegments).
 */
function pathSegment(spec: OpenApiDocument, schema: unknown, taken: ReadonlySet<string>): fc.Arbitrary<string> {
  const s = merged(spec, schema);
  const base =
    Array.isArray(s.enum) || "const" in s || typeof s.pattern === "string"
      ? validValue(spec, s)
      : fc.string({ unit: "grapheme", minLength: 1, maxLength: 24 });
  return base.map(String).filter((v) => v.length > 0 && v !== "." && v !== ".." && !taken.has(v));
}

/** Valid and invalid requests of one operation. */
export function requestsFor(
  spec: OpenApiDocument,
  op: SpecOperation,
  keyHeader: string,
  bodyIsValid: (op: SpecOperation, body: unknown) => boolean,
): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === "path");
  const queryParams = op.parameters.filter((p) => p.in === "query");
  const bodySchema = requestBodySchema(op);
  const bodyRequired = op.requestBody?.required === true;

  const taken = literalSiblingSegments(spec, op);
  const pathArb = fc
    .tuple(...pathParams.map((p) => pathSegment(spec, p.schema, taken.get(String(p.name)) ?? new Set())))
    .map((values) =>
      pathParams.reduce((path, p, i) => path.replace(`{${String(p.name)}}`, encodeURIComponent(values[i]!)), op.path),
    );
  const validQuery = fc
    .tuple(
      ...queryParams.map((p) =>
        p.required === true ? validValue(spec, p.schema) : fc.option(validValue(spec, p.schema), { nil: undefined }),
      ),
    )
    .map((values) =>
      queryParams.flatMap((p, i) =>
        values[i] === undefined ? [] : [[String(p.name), String(values[i])] as [string, string]],
      ),
    );
  const keyValue = fc
    .string({ unit: "grapheme-ascii", minLength: 1, maxLength: 32 })
    .filter((v) => /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(v));
  const validKey: fc.Arbitrary<string | undefined> =
    op.security === "required"
      ? keyValue
      : op.security === "optional"
        ? fc.option(keyValue, { nil: undefined })
        : fc.constant(undefined);
  const someBody: fc.Arbitrary<unknown> =
    bodySchema === undefined ? fc.constant(undefined) : validValue(spec, bodySchema);
  // An optional body (Accept Quote's, observed sent without one) is sometimes left out.
  const validBody = bodyRequired ? someBody : fc.option(someBody, { nil: undefined });

  const assemble = (
    parts: {
      path: string;
      query: Array<[string, string]>;
      key: string | undefined;
      body: string | undefined;
      parsedBody: unknown;
    },
    valid: boolean,
    why: string,
  ): FuzzRequest => {
    const headers: Record<string, string> = { accept: "application/json" };
    if (parts.key !== undefined) headers[keyHeader] = parts.key;
    if (parts.body !== undefined) headers["content-type"] = "application/json";
    const qs = new URLSearchParams(parts.query).toString();
    return {
      op,
      valid,
      why,
      method: op.method,
      path: qs ? `${parts.path}?${qs}` : parts.path,
      headers,
      body: parts.body,
      parsedBody: parts.parsedBody,
    };
  };

  const valid = fc
    .record({ path: pathArb, query: validQuery, key: validKey, body: validBody })
    .map(({ path, query, key, body }) =>
      assemble(
        { path, query, key, body: body === undefined ? undefined : JSON.stringify(body), parsedBody: body },
        true,
        "valid",
      ),
    );

  const breakers: Array<fc.Arbitrary<FuzzRequest>> = [];
  const validParts = fc.record({ path: pathArb, query: validQuery, key: validKey, body: validBody });
  if (op.security === "required") {
    breakers.push(
      validParts.map((p) =>
        assemble(
          { ...p, key: undefined, body: p.body === undefined ? undefined : JSON.stringify(p.body), parsedBody: p.body },
          false,
          "no API key",
        ),
      ),
    );
  }
  for (const parameter of queryParams) {
    const allowed = merged(spec, parameter.schema).enum;
    if (!Array.isArray(allowed)) continue; // only enums can be broken by a string in a query
    const bad = fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }).filter((v) => !allowed.includes(v));
    breakers.push(
      fc.tuple(validParts, bad).map(([p, value]) =>
        assemble(
          {
            ...p,
            query: [...p.query.filter(([n]) => n !== parameter.name), [String(parameter.name), value]],
            body: p.body === undefined ? undefined : JSON.stringify(p.body),
            parsedBody: p.body,
          },
          false,
          `query ${String(parameter.name)} outside its enum`,
        ),
      ),
    );
  }
  if (bodySchema !== undefined) {
    // Checked as sent: the JSON text parsed back (JSON.stringify can change a value, e.g. drop undefined).
    const reallyInvalid = invalidValue(spec, bodySchema).filter(
      (b) => !bodyIsValid(op, JSON.parse(JSON.stringify(b.value)) as unknown),
    );
    breakers.push(
      fc
        .tuple(validParts, reallyInvalid)
        .map(([p, b]) =>
          assemble({ ...p, body: JSON.stringify(b.value), parsedBody: b.value }, false, `body: ${b.why}`),
        ),
    );
    breakers.push(
      fc
        .tuple(validParts, malformedJson(someBody))
        .map(([p, text]) => assemble({ ...p, body: text, parsedBody: undefined }, false, "malformed JSON")),
    );
    if (bodyRequired)
      breakers.push(
        validParts.map((p) =>
          assemble({ ...p, body: undefined, parsedBody: undefined }, false, "required body missing"),
        ),
      );
  }
  return breakers.length ? fc.oneof(valid, ...breakers) : valid;
}
