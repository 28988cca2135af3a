// Description conformance: checks generated/openapi.json against expectations written by hand from
// api-description.md (test/spec/description.ts) and from the facts observed in a real client's
// traffic (test/spec/observed.ts). Probe values are validated with ajv against the operations' real
// schemas: a valid value built from the description must pass, and each single deviation from it
// (wrong type, null, absent field, undocumented enum value, ...) must be judged exactly as the
// description says. Everything observed must be declared and marked `x-observed` where it is.
import { describe, expect, it } from "vitest";
import {
  API_KEY_HEADER,
  ENDPOINTS,
  META,
  RATE_LIMIT_HEADERS,
  SAMPLE_TIME,
  type EndpointExpectation,
  type Field,
  type ParameterExpectation,
  type Shape,
} from "./description.js";
import { MALFORMED_SIGNING_HEADERS, OBSERVED_ENDPOINTS, OBSERVED_FIELDS, OBSERVED_PARAMETERS, OPTIONAL_BODIES, SIGNING_HEADERS } from "./observed.js";
import {
  at,
  formatErrors,
  operation,
  parameterSchemaPointer,
  parametersOf,
  requestBodySchemaPointer,
  resolveRef,
  responseSchemaPointer,
  securityOf,
  spec,
  validate,
  type SecurityRequirement,
} from "../support/spec-ajv.js";

// ---------------------------------------------------------------- sample values

type Path = (string | number)[];

const NUMBER_SAMPLE = 100; // fractional values are probed separately
const INTEGER_SAMPLE = 2;

function sampleOf(shape: Shape): unknown {
  switch (shape.kind) {
    case "string":
      return shape.sample;
    case "dateTime":
      return SAMPLE_TIME;
    case "number":
      return NUMBER_SAMPLE;
    case "integer":
      return INTEGER_SAMPLE;
    case "boolean":
      return true;
    case "enum":
      return shape.values[0];
    case "const":
      return shape.value;
    case "object":
      return Object.fromEntries(Object.entries(shape.fields).map(([name, field]) => [name, sampleOf(field)]));
    case "array":
      return [sampleOf(shape.items)];
    case "map":
      return { [shape.sampleKey]: sampleOf(shape.values) };
    case "emptyObject":
      return {};
  }
}

/** A value of the wrong JSON type for the shape. */
function wrongTypeOf(shape: Shape): unknown {
  switch (shape.kind) {
    case "string":
    case "dateTime":
    case "enum":
    case "const":
      return 12345;
    case "number":
    case "integer":
      return "12";
    case "boolean":
      return "true";
    case "array":
      return {};
    case "object":
    case "map":
    case "emptyObject":
      return [];
  }
}

function formatPath(path: Path): string {
  return path.map((part, index) => (typeof part === "number" ? `[${part}]` : index === 0 ? part : `.${part}`)).join("");
}

function changed(root: unknown, path: Path, change: { set: unknown } | { remove: true }): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const part of path.slice(0, -1)) node = node[part] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if ("remove" in change) delete node[last];
  else node[last] = change.set;
  return copy;
}

// ---------------------------------------------------------------- probes

interface Probe {
  name: string;
  value: unknown;
  valid: boolean;
}

const UNDOCUMENTED = "UNDOCUMENTED_VALUE";

/** Probes of the value at `path` (which holds a sample of `shape` inside `root`). */
function valueProbes(root: unknown, path: Path, shape: Shape, nullable: boolean): Probe[] {
  const where = formatPath(path);
  const probes: Probe[] = [];
  const probe = (what: string, value: unknown, valid: boolean) =>
    probes.push({ name: `${where}: ${what} ${valid ? "passes" : "fails"}`, value: changed(root, path, { set: value }), valid });

  probe(nullable ? "null (or null)" : "null", null, nullable);
  probe(`wrong type ${JSON.stringify(wrongTypeOf(shape))}`, wrongTypeOf(shape), false);
  switch (shape.kind) {
    case "number":
      probe("fractional number 1.25", 1.25, true);
      break;
    case "integer":
      probe("non-integer 1.5", 1.5, false);
      break;
    case "dateTime":
      probe('non-date string "yesterday"', "yesterday", false);
      // Conventions 4: ISO 8601 UTC strings with milliseconds, and nothing else.
      probe('an offset "2025-05-17T10:39:37+01:00"', "2025-05-17T10:39:37+01:00", false);
      probe('an offset with milliseconds "2025-05-17T10:39:37.553+01:00"', "2025-05-17T10:39:37.553+01:00", false);
      probe('no milliseconds "2025-05-17T10:39:37Z"', "2025-05-17T10:39:37Z", false);
      probe('a space separator "2025-05-17 10:39:37.553Z"', "2025-05-17 10:39:37.553Z", false);
      probe('two fraction digits "2025-05-17T10:39:37.55Z"', "2025-05-17T10:39:37.55Z", false);
      probe('microseconds "2025-05-17T10:39:37.553123Z"', "2025-05-17T10:39:37.553123Z", false);
      probe('an impossible date "2025-02-30T10:39:37.553Z"', "2025-02-30T10:39:37.553Z", false);
      probe('the convention\'s example "2025-05-17T10:39:37.553Z"', "2025-05-17T10:39:37.553Z", true);
      break;
    case "const":
      probe(`other value "NOT_${shape.value}"`, `NOT_${shape.value}`, false);
      break;
    case "enum":
      for (const value of shape.values) probe(`documented value ${value}`, value, true);
      probe(`undocumented value (${shape.open ? "open" : "closed"} enum)`, UNDOCUMENTED, shape.open);
      if (!shape.open) probe(`lower-case variant "${shape.values[0]!.toLowerCase()}" (closed enum)`, shape.values[0]!.toLowerCase(), false);
      break;
    case "object":
      for (const [name, field] of Object.entries(shape.fields)) probes.push(...fieldProbes(root, [...path, name], field));
      break;
    case "array":
      probes.push(...valueProbes(root, [...path, 0], shape.items, false));
      break;
    case "map": {
      const renamed = changed(root, path, { set: { OTHERCODE: sampleOf(shape.values) } });
      probes.push({ name: `${where}: any currency code as key passes`, value: renamed, valid: true });
      probes.push(...valueProbes(root, [...path, shape.sampleKey], shape.values, false));
      break;
    }
    default:
      break;
  }
  return probes;
}

function fieldProbes(root: unknown, path: Path, field: Field): Probe[] {
  const absent: Probe = {
    name: `${formatPath(path)}: absent ${field.optional ? "(optional) passes" : "(required) fails"}`,
    value: changed(root, path, { remove: true }),
    valid: field.optional === true,
  };
  return [absent, ...valueProbes(root, path, field, field.nullable === true)];
}

function envelopeOf(endpoint: EndpointExpectation): Record<string, unknown> {
  const envelope: Record<string, unknown> = { message: "Success", data: sampleOf(endpoint.data) };
  if (endpoint.meta) envelope.meta = sampleOf({ kind: "object", name: "meta", fields: META[endpoint.meta] });
  return envelope;
}

function responseProbes(endpoint: EndpointExpectation): Probe[] {
  const envelope = envelopeOf(endpoint);
  const probes: Probe[] = [
    { name: "the valid envelope built from the description passes", value: envelope, valid: true },
    ...fieldProbes(envelope, ["message"], { kind: "string", sample: "Success" }),
    ...fieldProbes(envelope, ["data"], endpoint.data),
  ];
  if (endpoint.data.kind === "array") {
    probes.push({ name: "data: empty list passes", value: { ...envelope, data: [] }, valid: true });
  }
  if (endpoint.meta) {
    const other = endpoint.meta === "A" ? "B" : "A";
    probes.push(...fieldProbes(envelope, ["meta"], { kind: "object", name: `meta ${endpoint.meta}`, fields: META[endpoint.meta] }), {
      name: `meta: shape ${other} fields only fails`,
      value: { ...envelope, meta: sampleOf({ kind: "object", name: `meta ${other}`, fields: META[other] }) },
      valid: false,
    });
  }
  return probes;
}

function requestBodyProbes(endpoint: EndpointExpectation): Probe[] {
  const body = endpoint.requestBody;
  if (!body) return [];
  if (body.kind === "emptyObject") {
    return [
      { name: "{} passes", value: {}, valid: true },
      { name: '{"a":1} fails', value: { a: 1 }, valid: false },
      { name: "[] fails", value: [], valid: false },
    ];
  }
  const sample = sampleOf({ kind: "object", name: "body", fields: body.fields }) as Record<string, unknown>;
  const probes: Probe[] = [
    { name: "the full body built from the description passes", value: sample, valid: true },
    { name: "an unknown field fails", value: { ...sample, undocumentedField: "x" }, valid: false },
    { name: `{} ${body.required.length === 0 ? "passes (no field required)" : "fails"}`, value: {}, valid: body.required.length === 0 },
  ];
  for (const [name, field] of Object.entries(body.fields)) {
    // In a request, "optional" means the field may be left out; "required" ones may not.
    probes.push(...fieldProbes(sample, [name], { ...field, optional: !body.required.includes(name) }));
  }
  return probes;
}

/** Cases the brief names explicitly, on top of the generated probes. */
const NAMED_BODY_CASES: Record<string, Probe[]> = {
  "/trades/quote": [
    { name: 'side "HOLD" fails', value: { sourceId: "USDT", targetId: "NGNX", amount: 100, side: "HOLD" }, valid: false },
    { name: 'amount "100" (string) fails', value: { sourceId: "USDT", targetId: "NGNX", amount: "100", side: "BUY" }, valid: false },
    { name: "side SELL passes", value: { sourceId: "USDT", targetId: "NGNX", amount: 100, side: "SELL" }, valid: true },
  ],
  "/transactions/resendWebhooks": [
    { name: "ids as a string fails", value: { ids: "txn-0001" }, valid: false },
    { name: "ids with a number fails", value: { ids: [1] }, valid: false },
    { name: "two string ids pass", value: { ids: ["txn-0001", "txn-0002"] }, valid: true },
  ],
};

/** [name, probe] rows: `%s` prints the full name (`$name` would truncate it). */
const named = (probes: Probe[]): [string, Probe][] => probes.map((probe) => [probe.name, probe]);

function expectJudged(pointer: string, probe: Probe): void {
  const result = validate(pointer, probe.value);
  const detail = result.valid ? "ajv accepted it" : `ajv rejected it: ${formatErrors(result.errors)}`;
  expect(result.valid, `${probe.name} — ${detail}`).toBe(probe.valid);
}

// ---------------------------------------------------------------- security helpers

function isApiKeyScheme(name: string): boolean {
  const scheme = resolveRef(spec.components?.securitySchemes?.[name]);
  return scheme?.type === "apiKey" && scheme.in === "header" && String(scheme.name).toLowerCase() === API_KEY_HEADER;
}

const requiresApiKey = (requirement: SecurityRequirement): boolean =>
  Object.keys(requirement).length > 0 && Object.keys(requirement).every(isApiKeyScheme);

/** Observed elements declared on an operation: the signing headers everywhere, plus its own observed parameters. */
const observedParametersOf = (endpoint: EndpointExpectation): ParameterExpectation[] => [
  ...(OBSERVED_PARAMETERS[`${endpoint.method} ${endpoint.path}`] ?? []),
  ...SIGNING_HEADERS,
];

const isOptionalBody = (endpoint: EndpointExpectation): boolean =>
  OPTIONAL_BODIES.some((body) => body.method === endpoint.method && body.path === endpoint.path);

const isNonEmptyMark = (value: unknown): boolean =>
  (typeof value === "string" && value.trim().length > 0) ||
  (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === "string" && item.trim().length > 0));

// ---------------------------------------------------------------- tests

describe("the document as a whole", () => {
  it("declares exactly the 16 operations of the description and the observed ones (nothing else is invented)", () => {
    const declared = Object.entries(spec.paths)
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) => ["get", "put", "post", "delete", "patch", "options", "head", "trace"].includes(key))
          .map((method) => `${method.toUpperCase()} ${path}`),
      )
      .sort();
    const expected = [...ENDPOINTS, ...OBSERVED_ENDPOINTS].map((endpoint) => `${endpoint.method.toUpperCase()} ${endpoint.path}`).sort();
    expect(ENDPOINTS).toHaveLength(16);
    expect(declared).toEqual(expected);
  });

  it("marks every observed operation x-observed and no described one", () => {
    for (const endpoint of OBSERVED_ENDPOINTS)
      expect(isNonEmptyMark(operation(endpoint.method, endpoint.path)["x-observed"]), endpoint.path).toBe(true);
    for (const endpoint of ENDPOINTS) expect(operation(endpoint.method, endpoint.path)["x-observed"], endpoint.path).toBeUndefined();
  });

  it("marks Create Quote's sourceId and targetId x-observed (identifiers sent) and keeps them plain strings", () => {
    for (const { schema, property } of OBSERVED_FIELDS) {
      const declared = resolveRef(at(`#/components/schemas/${schema}/properties/${property}`));
      expect(isNonEmptyMark(declared["x-observed"]), `${schema}.${property}`).toBe(true);
      expect(declared.type, `${schema}.${property}`).toBe("string");
    }
  });

  it("carries the version in the base path (every server URL ends with /v1) and is labelled 1.0.0", () => {
    const servers = (spec.servers ?? []) as { url: string }[];
    expect(servers.length).toBeGreaterThan(0);
    for (const server of servers) expect(server.url).toMatch(/\/v1$/);
    expect((spec.info as { version?: string }).version).toBe("1.0.0");
  });
});

describe.each(
  [...ENDPOINTS, ...OBSERVED_ENDPOINTS].map(
    (endpoint) => [`${endpoint.n || "observed"} ${endpoint.method.toUpperCase()} ${endpoint.path} (${endpoint.name})`, endpoint] as const,
  ),
)("%s", (_, endpoint) => {
  const { method, path } = endpoint;

  describe("operation", () => {
    it("exists", () => {
      expect(() => operation(method, path)).not.toThrow();
    });

    if (endpoint.key === "required") {
      it("requires the x-api-key header (no empty alternative)", () => {
        const security = securityOf(method, path);
        expect(security, "security").toBeDefined();
        expect(security!.length).toBeGreaterThan(0);
        for (const requirement of security!) expect(requiresApiKey(requirement), JSON.stringify(requirement)).toBe(true);
      });
    } else {
      it("accepts the x-api-key header or none, and marks the question x-not-shown", () => {
        const security = securityOf(method, path) ?? [];
        expect(
          security.some((requirement) => Object.keys(requirement).length === 0),
          "an empty {} alternative",
        ).toBe(true);
        expect(security.some(requiresApiKey), "an x-api-key alternative").toBe(true);
        expect(isNonEmptyMark(operation(method, path)["x-not-shown"]), "x-not-shown on the operation").toBe(true);
      });
    }

    const allParameters = [...endpoint.parameters, ...observedParametersOf(endpoint)];
    it(`declares exactly the parameters ${JSON.stringify(allParameters.map((p) => `${p.in}:${p.name}`))}`, () => {
      const declared = parametersOf(method, path)
        .map((parameter) => `${parameter.in}:${parameter.name}`)
        .sort();
      expect(declared).toEqual(allParameters.map((parameter) => `${parameter.in}:${parameter.name}`).sort());
      for (const expected of allParameters) {
        const declaredParameter = parametersOf(method, path).find((p) => p.in === expected.in && p.name === expected.name);
        expect(declaredParameter?.required === true, `${expected.name} required`).toBe(expected.required);
      }
    });

    it("marks each observed parameter x-observed (or its observed operation) and no described one", () => {
      const observedOperation = OBSERVED_ENDPOINTS.includes(endpoint);
      for (const expected of observedParametersOf(endpoint)) {
        const declared = parametersOf(method, path).find((p) => p.in === expected.in && p.name === expected.name) as
          | Record<string, unknown>
          | undefined;
        expect(isNonEmptyMark(declared?.["x-observed"]), `${expected.in}:${expected.name}`).toBe(true);
      }
      for (const expected of endpoint.parameters) {
        const declared = parametersOf(method, path).find((p) => p.in === expected.in && p.name === expected.name) as
          | Record<string, unknown>
          | undefined;
        if (!observedOperation) expect(declared?.["x-observed"], `${expected.in}:${expected.name}`).toBeUndefined();
      }
    });

    it("answers 200 with application/json and the three rate-limit headers", () => {
      const response = resolveRef(operation(method, path).responses["200"]);
      expect(Object.keys((response.content ?? {}) as object)).toContain("application/json");
      const headers = Object.keys((response.headers ?? {}) as object).map((name) => name.toLowerCase());
      for (const header of RATE_LIMIT_HEADERS) expect(headers, header).toContain(header);
    });

    if (endpoint.requestBody) {
      const optionalBody = isOptionalBody(endpoint);
      it(optionalBody ? "takes its body or none (observed), and marks that x-observed" : "requires its body", () => {
        const requestBody = resolveRef(operation(method, path).requestBody);
        expect(requestBody.required === true).toBe(!optionalBody);
        expect(isNonEmptyMark(requestBody["x-observed"])).toBe(optionalBody);
      });
    }

    if (endpoint.requestBody?.kind === "fields") {
      const { fields } = endpoint.requestBody;
      it(`request body declares exactly ${JSON.stringify(Object.keys(fields))} and additionalProperties: false`, () => {
        const pointer = requestBodySchemaPointer(method, path);
        const schema = resolveRef(at(pointer));
        expect(Object.keys((schema.properties ?? {}) as object).sort()).toEqual(Object.keys(fields).sort());
        expect(schema.additionalProperties).toBe(false);
      });
    } else if (!endpoint.requestBody) {
      it("takes no request body", () => {
        expect(operation(method, path).requestBody).toBeUndefined();
      });
    }
  });

  for (const parameter of [...endpoint.parameters, ...observedParametersOf(endpoint)]) {
    describe(`parameter ${parameter.in}:${parameter.name}`, () => {
      const probes = [
        { name: `sample ${JSON.stringify(sampleOf(parameter.shape))} passes`, value: sampleOf(parameter.shape), valid: true },
        ...valueProbes({ value: sampleOf(parameter.shape) }, ["value"], parameter.shape, false).map((probe) => ({
          ...probe,
          name: probe.name.replace(/^value: /, ""),
          value: (probe.value as { value: unknown }).value,
        })),
        ...(MALFORMED_SIGNING_HEADERS[parameter.name] ?? []).map((value) => ({
          name: `malformed ${JSON.stringify(value)} fails`,
          value,
          valid: false,
        })),
      ];
      it.each(named(probes))("%s", (_, probe) => {
        expectJudged(parameterSchemaPointer(method, path, parameter.in, parameter.name), probe);
      });
    });
  }

  if (endpoint.requestBody) {
    describe("request body", () => {
      it.each(named([...requestBodyProbes(endpoint), ...(NAMED_BODY_CASES[path] ?? [])]))("%s", (_, probe) => {
        expectJudged(requestBodySchemaPointer(method, path), probe);
      });
    });
  }

  describe("200 response body", () => {
    it.each(named(responseProbes(endpoint)))("%s", (_, probe) => {
      expectJudged(responseSchemaPointer(method, path), probe);
    });
  });
});

// ---------------------------------------------------------------- rate-limit headers

describe("rate-limit headers", () => {
  const declared = Object.keys(spec.components?.headers ?? {});
  // "Maximum requests per minute" and "Requests remaining": counts, never negative.
  for (const [header, counts] of [
    [RATE_LIMIT_HEADERS[0], true],
    [RATE_LIMIT_HEADERS[1], true],
    [RATE_LIMIT_HEADERS[2], false],
  ] as const) {
    const name = declared.find((candidate) => candidate.toLowerCase() === header);
    const probes: Probe[] = [
      { name: "0 passes", value: 0, valid: true },
      { name: "200 passes", value: 200, valid: true },
      { name: "1.5 fails", value: 1.5, valid: false },
      ...(counts ? [{ name: "-1 fails (a count)", value: -1, valid: false }] : []),
    ];
    it.each(named(probes))(`${header}: %s`, (_, probe) => {
      expect(name, `components.headers declares ${header}`).toBeDefined();
      expectJudged(`#/components/headers/${name}/schema`, probe);
    });
  }
});

// ---------------------------------------------------------------- closed enums, exactly

/** Every closed enum the description gives (as sorted value lists), from the expectations. */
function describedClosedEnums(): Set<string> {
  const found = new Set<string>();
  const walk = (shape: Shape): void => {
    if (shape.kind === "enum" && !shape.open) found.add(JSON.stringify([...shape.values].sort()));
    if (shape.kind === "object") Object.values(shape.fields).forEach(walk);
    if (shape.kind === "array") walk(shape.items);
    if (shape.kind === "map") walk(shape.values);
  };
  for (const endpoint of ENDPOINTS) {
    walk(endpoint.data);
    endpoint.parameters.forEach((parameter) => walk(parameter.shape));
    if (endpoint.requestBody?.kind === "fields") Object.values(endpoint.requestBody.fields).forEach(walk);
  }
  return found;
}

/** Every `enum` keyword in the spec, with where it is. */
function specEnums(): Array<{ where: string; values: string }> {
  const found: Array<{ where: string; values: string }> = [];
  const walk = (node: unknown, where: string[]): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, [...where, String(i)]));
    if (!node || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "example" || key === "examples") continue;
      if (key === "enum" && Array.isArray(value)) found.push({ where: where.join("/"), values: JSON.stringify([...value].sort()) });
      else walk(value, [...where, key]);
    }
  };
  walk(spec, []);
  return found;
}

describe("closed enums", () => {
  const described = describedClosedEnums();
  const inSpec = specEnums();

  it("finds the closed enums of the description", () => {
    expect(described.size).toBeGreaterThanOrEqual(5);
  });

  // A probe cannot show that a closed enum has no extra value; comparing the value lists can.
  it.each(inSpec.map((e) => [e.where, e] as const))("%s lists exactly a value set the description gives", (_, e) => {
    expect([...described]).toContain(e.values);
  });

  it("declares every closed enum of the description", () => {
    const declared = new Set(inSpec.map((e) => e.values));
    expect([...described].filter((values) => !declared.has(values))).toEqual([]);
  });
});
