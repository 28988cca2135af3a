// Description conformance: checks generated/openapi.json against expectations written by hand from
// api-description.md (test/spec/description.ts) and from the facts observed in a real client's
// traffic (test/spec/observed.ts). Probe values (test/spec/probes.ts) are validated with ajv against the
// spec's real schemas: a valid value built from the description must pass, and each single deviation
// from it (wrong type, null, absent field, undocumented enum value, ...) must be judged exactly as the
// description says. Everything observed must be declared and marked `x-observed` where it is.
//
// Each resource that is a component schema is probed in full ONCE, at #/components/schemas/<name>.
// Each operation is probed for its envelope (message, data, meta) and ONE deep probe showing that its
// data is the described resource, so an operation wired to a wrong schema fails. A variant without a
// component of its own (e.g. "Wallet with currency") is probed in full where it first appears. The
// signing headers (declared on every operation) are probed once per schema they are declared with.
// A component schema, an operation, a webhook or a signing header is ONE test: it runs all its probes and checks and
// fails once, with a line for each probe or check that fails (test/spec/failures.ts).
import { describe, expect, it } from "vitest";
import { declaredSources, markerProblems, type ProvenanceKey } from "../../scripts/build/provenance.js";
import {
  API_KEY_HEADER,
  COMPONENTS,
  ENDPOINTS,
  META,
  RATE_LIMIT_HEADERS,
  type EndpointExpectation,
  type ParameterExpectation,
  type Shape,
} from "./description.js";
import {
  IDENTIFIER_RULE,
  ERROR_RESPONSE_KEYS,
  MALFORMED_SIGNING_HEADERS,
  OBSERVED_CATEGORY_VALUES,
  OBSERVED_ENDPOINTS,
  OBSERVED_FIELDS,
  OBSERVED_PARAMETERS,
  OPTIONAL_BODIES,
  PUBLISHED_WEBHOOKS,
  PUBLISHED_ERROR_BODY,
  PUBLISHED_ERROR_CODES,
  PUBLISHED_QUOTE_VALIDITY,
  PUBLISHED_STATUSES,
  SIGNING_HEADERS,
  SOURCED_FIELDS,
  WITHDRAWAL_STATUSES,
  WEBHOOK_SIGNATURE,
  WEBHOOK_SIGNATURE_VALUES,
  WEBHOOKS_PAGE,
  UPLOAD_FILE_MAX_LENGTH,
} from "./observed.js";
import { schemaView } from "../../src/openapi/index.js";
import { Failures } from "./failures.js";
import { type Probe, Prober, sampleOf } from "./probes.js";
import { isHttpMethod, refOf } from "../../src/openapi/index.js";
import {
  at,
  canonicalPointer,
  componentSchemaPointer,
  formatErrors,
  type HttpMethod,
  operation,
  operationKeys,
  parameterSchemaPointer,
  requestBodySchemaPointer,
  resolved,
  responseSchemaPointer,
  securityOf,
  spec,
  validate,
  type SecurityRequirement,
} from "../support/spec-ajv.js";

const ALL_ENDPOINTS = [...ENDPOINTS, ...OBSERVED_ENDPOINTS];

/** The declared parameter `in:name` of an operation, if any. */
const declaredParameter = (method: HttpMethod, path: string, expected: ParameterExpectation) =>
  operation(method, path).parameters.find((p) => p.in === expected.in && p.name === expected.name);

/** Every shape under `shape` (itself included). */
function* shapesIn(shape: Shape): Generator<Shape> {
  yield shape;
  if (shape.kind === "object") for (const field of Object.values(shape.fields)) yield* shapesIn(field);
  if (shape.kind === "array") yield* shapesIn(shape.items);
  if (shape.kind === "map") yield* shapesIn(shape.values);
}

/** Every shape the expectations give: components, responses, parameters and request bodies. */
function* allExpectedShapes(): Generator<Shape> {
  for (const component of COMPONENTS) yield* shapesIn(component);
  for (const endpoint of ALL_ENDPOINTS) {
    yield* shapesIn(endpoint.data);
    if (endpoint.meta) yield* shapesIn(META[endpoint.meta]);
    for (const parameter of endpoint.parameters) yield* shapesIn(parameter.shape);
    if (endpoint.requestBody?.kind === "fields")
      for (const field of Object.values(endpoint.requestBody.fields)) yield* shapesIn(field);
  }
}

const componentOf = (shape: Shape): string | undefined =>
  shape.kind === "object" || shape.kind === "dateTime" ? shape.component : undefined;

// ---------------------------------------------------------------- probes (built once, in this order)

/** One builder for the whole file: a variant is probed in full where it first appears, in this order. */
const prober = new Prober();

/** Probes of each component schema, in full. */
const componentProbes = COMPONENTS.map((shape) => {
  const name = componentOf(shape);
  if (name === undefined) throw new Error(`COMPONENTS holds a shape without a component name (${shape.kind})`);
  return { name, probes: prober.rootProbes(name, shape) };
});

function envelopeOf(endpoint: EndpointExpectation): Record<string, unknown> {
  const envelope: Record<string, unknown> = { message: "Success", data: sampleOf(endpoint.data) };
  if (endpoint.meta) envelope.meta = sampleOf(META[endpoint.meta]);
  return envelope;
}

/** The envelope of an operation's 200 response: message, data (with one deep probe), meta. */
function responseProbes(endpoint: EndpointExpectation): Probe[] {
  const envelope = envelopeOf(endpoint);
  const probes: Probe[] = [
    { name: "the valid envelope built from the description passes", value: envelope, valid: true },
    ...prober.fieldProbes("", envelope, ["message"], { kind: "string", sample: "Success" }),
    ...prober.fieldProbes("", envelope, ["data"], endpoint.data),
  ];
  if (endpoint.data.kind === "array") {
    probes.push({ name: "data: empty list passes", value: { ...envelope, data: [] }, valid: true });
  }
  if (endpoint.meta) {
    const other = endpoint.meta === "A" ? "B" : "A";
    probes.push(...prober.fieldProbes("", envelope, ["meta"], META[endpoint.meta]), {
      name: `meta: shape ${other} fields only fails`,
      value: { ...envelope, meta: sampleOf(META[other]) },
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
    {
      name: `{} ${body.required.length === 0 ? "passes (no field required)" : "fails"}`,
      value: {},
      valid: body.required.length === 0,
    },
  ];
  for (const [name, field] of Object.entries(body.fields)) {
    // In a request, "optional" means the field may be left out; "required" ones may not.
    probes.push(...prober.fieldProbes("", sample, [name], { ...field, optional: !body.required.includes(name) }));
  }
  return probes;
}

/** Cases the brief names explicitly, on top of the generated probes. */
const NAMED_BODY_CASES: Record<string, Probe[]> = {
  "/trades/quote": [
    {
      name: 'side "HOLD" fails',
      value: { sourceId: "USDT", targetId: "NGNX", amount: 100, side: "HOLD" },
      valid: false,
    },
    {
      name: 'amount "100" (string) fails',
      value: { sourceId: "USDT", targetId: "NGNX", amount: "100", side: "BUY" },
      valid: false,
    },
    { name: "side SELL passes", value: { sourceId: "USDT", targetId: "NGNX", amount: 100, side: "SELL" }, valid: true },
  ],
  "/uploads/invoices": [
    { name: "a file of 1 MB passes", value: { file: "x".repeat(UPLOAD_FILE_MAX_LENGTH) }, valid: true },
    { name: "a file over 1 MB fails", value: { file: "x".repeat(UPLOAD_FILE_MAX_LENGTH + 1) }, valid: false },
  ],
  "/transactions/resendWebhooks": [
    { name: "ids as a string fails", value: { ids: "txn-0001" }, valid: false },
    { name: "ids with a number fails", value: { ids: [1] }, valid: false },
    { name: "two string ids pass", value: { ids: ["txn-0001", "txn-0002"] }, valid: true },
  ],
  // Collections feature page: letters, digits and hyphens only, under either name; both names are accepted.
  "/addresses/broker": [
    ...["uniqueUserIdentifier", "purpose"].flatMap((name) => [
      ...IDENTIFIER_RULE.valid.map((value) => ({
        name: `${name} ${JSON.stringify(value)} passes`,
        value: { currency: "ETH", network: "ETH", [name]: value },
        valid: true,
      })),
      ...IDENTIFIER_RULE.invalid.map((value) => ({
        name: `${name} ${JSON.stringify(value)} fails (letters, digits and hyphens only)`,
        value: { currency: "ETH", network: "ETH", [name]: value },
        valid: false,
      })),
    ]),
    {
      name: "both names together pass",
      value: { currency: "ETH", network: "ETH", uniqueUserIdentifier: "usr-1", purpose: "usr-1" },
      valid: true,
    },
  ],
  // The 2023 client sent a merchantCode in destination; an unknown destination field still fails.
  "/wallets/ext/debit/fiat": [
    {
      name: "destination with an unknown field fails",
      value: {
        amount: 1,
        currency: "NGNX",
        destination: { accountNumber: "1", accountName: "A", bankName: "B", bankCode: "C", sortCode: "D" },
      },
      valid: false,
    },
  ],
  "/wallets/ext/debit/crypto": [
    {
      name: "destination with an unknown field fails",
      value: { amount: 1, currency: "USDT", destination: { address: "a", network: "BSC", tag: "x" } },
      valid: false,
    },
  ],
};

/** Observed elements declared on an operation: the signing headers everywhere, plus its own observed parameters. */
const observedParametersOf = (endpoint: EndpointExpectation): ParameterExpectation[] => [
  ...(OBSERVED_PARAMETERS[`${endpoint.method} ${endpoint.path}`] ?? []),
  ...SIGNING_HEADERS,
];

function parameterProbes(parameter: ParameterExpectation): Probe[] {
  return [
    ...prober.rootProbes(`${parameter.in}:${parameter.name}`, parameter.shape),
    ...(MALFORMED_SIGNING_HEADERS[parameter.name] ?? []).map((value) => ({
      name: `${parameter.in}:${parameter.name}: malformed ${JSON.stringify(value)} fails`,
      value,
      valid: false,
    })),
  ];
}

/** Probes of each operation (parameters, request body, response envelope), built after the components'. */
const endpointProbes = new Map(
  ALL_ENDPOINTS.map((endpoint) => [
    endpoint,
    {
      // The signing headers are probed once per schema they are declared with (below), not on every operation.
      parameters: [...endpoint.parameters, ...(OBSERVED_PARAMETERS[`${endpoint.method} ${endpoint.path}`] ?? [])].map(
        (parameter) => ({
          parameter,
          probes: parameterProbes(parameter),
        }),
      ),
      requestBody: endpoint.requestBody
        ? [...requestBodyProbes(endpoint), ...(NAMED_BODY_CASES[endpoint.path] ?? [])]
        : [],
      response: responseProbes(endpoint),
    },
  ]),
);

/**
 * The signing headers (on every operation) are one expectation each: their probes run once per distinct
 * schema the operations declare them with (normally the one shared parameter), naming those operations.
 * Where an operation does not declare one, "declares exactly the parameters" fails for it.
 */
const signingHeaderProbes = SIGNING_HEADERS.flatMap((header) => {
  /** Operations by the pointer of the header's schema (or by the error that finding it gave). */
  const byPointer = new Map<string, { operations: string[]; error?: string }>();
  for (const endpoint of ALL_ENDPOINTS) {
    const key = `${endpoint.method.toUpperCase()} ${endpoint.path}`;
    let pointer: string;
    let error: string | undefined;
    try {
      pointer = parameterSchemaPointer(endpoint.method, endpoint.path, header.in, header.name);
    } catch (caught) {
      // Not declared at all: "declares exactly the parameters" reports it. Declared but unreadable: the probes do.
      const declared =
        operationKeys().includes(key) && declaredParameter(endpoint.method, endpoint.path, header) !== undefined;
      if (!declared) continue;
      error = (caught as Error).message;
      pointer = `unreadable on ${key}`;
    }
    const group = byPointer.get(pointer) ?? { operations: [], ...(error === undefined ? {} : { error }) };
    group.operations.push(key);
    byPointer.set(pointer, group);
  }
  const probes = parameterProbes(header);
  return [...byPointer].map(([pointer, { operations, error }]) => ({ header, pointer, operations, error, probes }));
});

/** Judges every probe against the schema at `pointer` (a case each): a probe ajv judges otherwise is a failure. */
function judge(failures: Failures, pointer: string, probes: Probe[], where = pointer, label = ""): void {
  for (const probe of probes)
    failures.check(`${label}${probe.name}`, () => {
      const result = validate(pointer, probe.value);
      const detail = result.valid ? "ajv accepted it" : `ajv rejected it: ${formatErrors(result.errors)}`;
      if (result.valid !== probe.valid) throw new Error(`${detail} (${where})`);
    });
}

// ---------------------------------------------------------------- security helpers

function isApiKeyScheme(name: string): boolean {
  const scheme = resolved(spec.components?.securitySchemes?.[name]);
  return scheme?.type === "apiKey" && scheme.in === "header" && String(scheme.name).toLowerCase() === API_KEY_HEADER;
}

const requiresApiKey = (requirement: SecurityRequirement): boolean =>
  Object.keys(requirement).length > 0 && Object.keys(requirement).every(isApiKeyScheme);

const isOptionalBody = (endpoint: EndpointExpectation): boolean =>
  OPTIONAL_BODIES.some((body) => body.method === endpoint.method && body.path === endpoint.path);

/** Whether the value is a marker `key` as the provenance format has it: the build's own check finds nothing wrong. */
const isMark = (key: ProvenanceKey, value: unknown): boolean =>
  value !== undefined &&
  markerProblems(key, value, new Set(declaredSources(spec).map((source) => source.id))).length === 0;

// ---------------------------------------------------------------- tests

describe("the expectations themselves", () => {
  it("list each resource marked with a component once in COMPONENTS, so each is probed in full somewhere", () => {
    const marked = new Set<string>();
    for (const shape of allExpectedShapes()) {
      const name = componentOf(shape);
      if (name !== undefined) marked.add(name);
    }
    const listed = componentProbes.map((component) => component.name);
    expect(new Set(listed).size, "no component listed twice").toBe(listed.length);
    expect([...marked].sort()).toEqual([...listed].sort());
  });
});

describe("the document as a whole", () => {
  it("declares exactly the 16 operations of the description and the observed ones (nothing else is invented)", () => {
    const expected = ALL_ENDPOINTS.map((endpoint) => `${endpoint.method.toUpperCase()} ${endpoint.path}`).sort();
    expect(ENDPOINTS).toHaveLength(16);
    expect([...operationKeys()].sort()).toEqual(expected);
  });

  // Create Quote's sourceId and targetId: the identifiers a real client sends.
  it(`marks each observed field x-observed and keeps it a plain string, optional where it is new (${
    OBSERVED_FIELDS.length
  } fields)`, () => {
    const failures = new Failures();
    for (const { schema, property, added } of OBSERVED_FIELDS) {
      const where = `${schema}.${property}`;
      failures.check(where, () => {
        const component = resolved(spec.components?.schemas?.[schema]);
        const field = resolved(resolved(component?.properties)?.[property]);
        expect(isMark("x-observed", field?.["x-observed"]), where).toBe(true);
        expect(field?.type, where).toBe("string");
        if (added) expect(component?.required ?? [], `${where} is not required`).not.toContain(property);
      });
    }
    failures.expectNone("the observed fields");
  });

  // Issue 20: what the clients declare and the pages publish on schemas, each marked with its source.
  it(`marks each field the clients declare or the pages publish with its source, and declares its type (${
    SOURCED_FIELDS.length
  } fields)`, () => {
    const failures = new Failures();
    for (const { schema, property, marker, type } of SOURCED_FIELDS) {
      const where = `${schema}.${property} (${marker})`;
      failures.check(where, () => {
        const declared = schemaView(spec, spec.components?.schemas?.[schema]).properties.get(property) ?? [];
        expect(declared.length, `${where} is declared`).toBeGreaterThan(0);
        expect(
          declared.some((field) => isMark(marker, resolved(field)?.[marker])),
          where,
        ).toBe(true);
        const types = declared.flatMap((field) => [resolved(field)?.type ?? []].flat());
        expect(types, where).toContain(type);
      });
    }
    failures.expectNone("the sourced fields");
  });

  it("knows the withdrawal statuses of the Payouts feature page as payout statuses (still open)", () => {
    const status = resolved(spec.components?.schemas?.PayoutStatus);
    expect(status?.type).toBe("string");
    expect(status?.enum).toBeUndefined();
    expect([...((status?.["x-known-values"] as string[] | undefined) ?? [])].sort()).toEqual(
      expect.arrayContaining([...WITHDRAWAL_STATUSES].sort()),
    );
    expect(isMark("x-published", status?.["x-published"])).toBe(true);
  });

  it("carries the version in the base path (every server URL ends with /v1) and the description's label 1.0.0", () => {
    const servers = spec.servers ?? [];
    expect(servers.length).toBeGreaterThan(0);
    for (const server of servers) expect(server.url).toMatch(/\/v1$/);
    // info.version is the contract package's own version (package.json; check:breaking keeps them equal).
    expect(spec.info?.["x-description-version"]).toBe("1.0.0");
  });
});

// ---------------------------------------------------------------- component schemas, once each

describe("component schemas, once each", () => {
  it.each(componentProbes.map((component) => [component.name, component.probes.length, component] as const))(
    "%s judges each of its %d probes as the description says",
    (name, _, { probes }) => {
      const failures = new Failures();
      judge(failures, componentSchemaPointer(name), probes);
      failures.expectNone(`the component schema ${name}`);
    },
  );
});

// ---------------------------------------------------------------- operations

/** The cases of an operation's declaration: security, parameters, responses and body, each as one check. */
function checkDeclaration(failures: Failures, endpoint: EndpointExpectation): void {
  const { method, path } = endpoint;
  if (OBSERVED_ENDPOINTS.includes(endpoint)) {
    failures.check("is marked x-observed (observed, not in the description)", () => {
      expect(isMark("x-observed", operation(method, path).operation["x-observed"]), path).toBe(true);
    });
  } else {
    failures.check("is not marked x-observed (described)", () => {
      expect(operation(method, path).operation["x-observed"], path).toBeUndefined();
    });
  }

  if (endpoint.key === "required") {
    failures.check("requires the x-api-key header (no empty alternative)", () => {
      const security = securityOf(method, path);
      expect(security, "security").toBeDefined();
      expect(security!.length).toBeGreaterThan(0);
      for (const requirement of security!) expect(requiresApiKey(requirement), JSON.stringify(requirement)).toBe(true);
    });
  } else {
    failures.check("accepts the x-api-key header or none, and marks the question x-not-shown", () => {
      const security = securityOf(method, path) ?? [];
      expect(
        security.some((requirement) => Object.keys(requirement).length === 0),
        "an empty {} alternative",
      ).toBe(true);
      expect(security.some(requiresApiKey), "an x-api-key alternative").toBe(true);
      expect(
        isMark("x-not-shown", operation(method, path).operation["x-not-shown"]),
        "x-not-shown on the operation",
      ).toBe(true);
    });
  }

  const allParameters = [...endpoint.parameters, ...observedParametersOf(endpoint)];
  failures.check(
    `declares exactly the parameters ${JSON.stringify(allParameters.map((p) => `${p.in}:${p.name}`))}`,
    () => {
      const declared = operation(method, path)
        .parameters.map((parameter) => `${String(parameter.in)}:${String(parameter.name)}`)
        .sort();
      expect(declared).toEqual(allParameters.map((parameter) => `${parameter.in}:${parameter.name}`).sort());
      for (const expected of allParameters) {
        expect(declaredParameter(method, path, expected)?.required === true, `${expected.name} required`).toBe(
          expected.required,
        );
      }
    },
  );

  failures.check("marks each observed parameter x-observed (or its observed operation) and no described one", () => {
    const observedOperation = OBSERVED_ENDPOINTS.includes(endpoint);
    for (const expected of observedParametersOf(endpoint)) {
      expect(
        isMark("x-observed", declaredParameter(method, path, expected)?.["x-observed"]),
        `${expected.in}:${expected.name}`,
      ).toBe(true);
    }
    for (const expected of endpoint.parameters) {
      if (!observedOperation)
        expect(
          declaredParameter(method, path, expected)?.["x-observed"],
          `${expected.in}:${expected.name}`,
        ).toBeUndefined();
    }
  });

  failures.check("answers 200 with application/json and the three rate-limit headers", () => {
    const response = operation(method, path).responses["200"];
    expect(Object.keys(resolved(response?.content) ?? {})).toContain("application/json");
    const headers = Object.keys(resolved(response?.headers) ?? {}).map((name) => name.toLowerCase());
    for (const header of RATE_LIMIT_HEADERS) expect(headers, header).toContain(header);
  });

  if (endpoint.requestBody) {
    const optionalBody = isOptionalBody(endpoint);
    failures.check(
      optionalBody ? "takes its body or none (observed), and marks that x-observed" : "requires its body",
      () => {
        const requestBody = operation(method, path).requestBody;
        expect(requestBody, "a request body").toBeDefined();
        expect(requestBody?.required === true).toBe(!optionalBody);
        expect(isMark("x-observed", requestBody?.["x-observed"])).toBe(optionalBody);
      },
    );
  }

  if (endpoint.requestBody?.kind === "fields") {
    const { fields, mediaType = "application/json" } = endpoint.requestBody;
    failures.check(
      `request body (${mediaType}) declares exactly ${JSON.stringify(Object.keys(fields))}, closed`,
      () => {
        const schema = resolved(resolved(operation(method, path).requestBody?.content)?.[mediaType]);
        const bodySchema = resolved(schema?.schema);
        expect(Object.keys(resolved(bodySchema?.properties) ?? {}).sort()).toEqual(Object.keys(fields).sort());
        expect(bodySchema?.additionalProperties).toBe(false);
      },
    );
  } else if (!endpoint.requestBody) {
    failures.check("takes no request body", () => {
      expect(operation(method, path).operation.requestBody).toBeUndefined();
    });
  }
}

/** Judges the probes of `part` (a parameter, the request body, the 200 envelope) at the pointer `pointerOf` finds. */
function judgePart(failures: Failures, part: string, pointerOf: () => string, probes: Probe[]): void {
  let pointer: string | undefined;
  failures.check(`${part}: its schema is found`, () => {
    pointer = pointerOf();
  });
  if (pointer === undefined) {
    failures.lines.push(`${part}: ${probes.length} probes not judged (no schema)`);
    return;
  }
  judge(failures, pointer, probes, pointer, `${part}: `);
}

describe("operations", () => {
  it.each(
    ALL_ENDPOINTS.map((endpoint) => {
      const probes = endpointProbes.get(endpoint)!;
      const count =
        probes.parameters.reduce((sum, { probes: cases }) => sum + cases.length, 0) +
        probes.requestBody.length +
        probes.response.length;
      const title = `${endpoint.n || "observed"} ${endpoint.method.toUpperCase()} ${endpoint.path} (${endpoint.name})`;
      return [title, count, endpoint] as const;
    }),
  )("%s is declared as the description says and judges each of its %d probes so", (title, _, endpoint) => {
    const { method, path } = endpoint;
    const probes = endpointProbes.get(endpoint)!;
    const failures = new Failures();
    failures.check("exists", () => {
      expect(() => operation(method, path)).not.toThrow();
    });
    if (failures.lines.length > 0) return failures.expectNone(title);
    checkDeclaration(failures, endpoint);

    for (const { parameter, probes: parameterCases } of probes.parameters) {
      judgePart(
        failures,
        `parameter ${parameter.in}:${parameter.name}`,
        () => parameterSchemaPointer(method, path, parameter.in, parameter.name),
        parameterCases,
      );
    }
    if (endpoint.requestBody) {
      const mediaType = endpoint.requestBody.kind === "fields" ? endpoint.requestBody.mediaType : undefined;
      judgePart(failures, "request body", () => requestBodySchemaPointer(method, path, mediaType), probes.requestBody);
    }
    judgePart(failures, "200 response envelope", () => responseSchemaPointer(method, path), probes.response);
    failures.expectNone(title);
  });
});

// ---------------------------------------------------------------- signing headers, once per schema

describe("signing headers, once per schema", () => {
  it.each(
    signingHeaderProbes.map(
      (group) =>
        [
          `${group.header.name} at ${group.pointer} (${group.operations.length} operations)`,
          group.probes.length,
          group,
        ] as const,
    ),
  )("%s judges each of its %d probes as the description says", (title, _, group) => {
    if (group.error !== undefined) throw new Error(`${group.header.name}: ${group.error}`);
    const failures = new Failures();
    judge(failures, group.pointer, group.probes, `the schema of this header on ${group.operations.join(", ")}`);
    failures.expectNone(`the signing header ${title}`);
  });

  it("probes every signing header", () => {
    expect(new Set(signingHeaderProbes.map((group) => group.header.name))).toEqual(
      new Set(SIGNING_HEADERS.map((header) => header.name)),
    );
  });
});

// ---------------------------------------------------------------- rate-limit headers

describe("rate-limit headers", () => {
  const declared = Object.keys(spec.components?.headers ?? {});
  // "Maximum requests per minute" and "Requests remaining": counts, never negative.
  const headers = [
    [RATE_LIMIT_HEADERS[0], true],
    [RATE_LIMIT_HEADERS[1], true],
    [RATE_LIMIT_HEADERS[2], false],
  ] as const;
  it.each(headers)("%s judges each of its probes as the description says", (header, counts) => {
    const name = declared.find((candidate) => candidate.toLowerCase() === header);
    const probes: Probe[] = [
      { name: "0 passes", value: 0, valid: true },
      { name: "200 passes", value: 200, valid: true },
      { name: "1.5 fails", value: 1.5, valid: false },
      ...(counts ? [{ name: "-1 fails (a count)", value: -1, valid: false }] : []),
    ];
    expect(name, `components.headers declares ${header}`).toBeDefined();
    const failures = new Failures();
    judge(failures, `#/components/headers/${name}/schema`, probes, undefined, `${header}: `);
    failures.expectNone(`the header ${header}`);
  });
});

// ---------------------------------------------------------------- closed enums, exactly

/** Every closed enum the description gives (as sorted value lists), from the expectations. */
function describedClosedEnums(): Set<string> {
  const found = new Set<string>();
  for (const shape of allExpectedShapes())
    if (shape.kind === "enum" && !shape.open) found.add(JSON.stringify([...shape.values].sort()));
  return found;
}

/** Every `enum` keyword in the spec, with where it is. */
function specEnums(): Array<{ where: string; values: string }> {
  const found: Array<{ where: string; values: string }> = [];
  const walk = (node: unknown, where: string[]): void => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, [...where, String(i)]);
      return;
    }
    if (!node || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "example" || key === "examples") continue;
      if (key === "enum" && Array.isArray(value))
        found.push({ where: where.join("/"), values: JSON.stringify([...value].sort()) });
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
  it(`each enum of the spec lists exactly a value set the description gives (${inSpec.length} enums)`, () => {
    const failures = new Failures();
    for (const e of inSpec)
      failures.check(e.where, () => {
        expect([...described]).toContain(e.values);
      });
    failures.expectNone("the spec's enums");
  });

  it("declares every closed enum of the description", () => {
    const declared = new Set(inSpec.map((e) => e.values));
    expect([...described].filter((values) => !declared.has(values))).toEqual([]);
  });
});

// ---------------------------------------------------------------- webhooks (published on the page "Webhooks")

/** A published marker naming `source`: a list of { sources, fact }, one of them with `source` among its sources. */
const isPublishedMark = (value: unknown, source: string): boolean =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every(
    (item) =>
      typeof item?.fact === "string" &&
      item.fact.trim().length > 0 &&
      Array.isArray(item.sources) &&
      item.sources.length > 0,
  ) &&
  value.some((item) => item.sources.includes(source));

const webhookPointer = (name: string, ...rest: string[]) => refOf(["webhooks", name, "post", ...rest]);
const webhookBodyPointer = (name: string) =>
  canonicalPointer(webhookPointer(name, "requestBody", "content", "application/json", "schema"));

/** The `x-known-values` a schema lists for a property, along its `$ref`s and `allOf` branches. */
function knownValuesOf(schema: unknown, property: string): string[] {
  const node = resolved(schema);
  if (!node) return [];
  const own = resolved(resolved(node.properties)?.[property])?.["x-known-values"];
  const branches = Array.isArray(node.allOf) ? node.allOf.flatMap((branch) => knownValuesOf(branch, property)) : [];
  return [...(Array.isArray(own) ? own.map(String) : []), ...branches];
}

const webhookProbes = PUBLISHED_WEBHOOKS.map((webhook) => ({
  webhook,
  body: [
    ...prober.rootProbes(`${webhook.name} webhook body`, webhook.payload),
    {
      name: `${webhook.name} webhook body: a further field passes (open)`,
      value: { ...(sampleOf(webhook.payload) as object), furtherField: "x" },
      valid: true,
    },
  ],
  signature: [
    ...prober.rootProbes(`header:${WEBHOOK_SIGNATURE.name}`, WEBHOOK_SIGNATURE.shape),
    ...WEBHOOK_SIGNATURE_VALUES.map(({ value, valid }) => ({
      name: `header:${WEBHOOK_SIGNATURE.name}: ${JSON.stringify(value.slice(0, 20))}… (${value.length} characters) ${
        valid ? "passes" : "fails"
      }`,
      value,
      valid,
    })),
  ],
}));

describe("webhooks (published on the service's page Webhooks)", () => {
  it(`declares exactly the webhooks ${JSON.stringify(PUBLISHED_WEBHOOKS.map((w) => w.name))}, each one POST`, () => {
    const webhooks = (spec.webhooks ?? {}) as Record<string, Record<string, unknown>>;
    expect(Object.keys(webhooks).sort()).toEqual(PUBLISHED_WEBHOOKS.map((w) => w.name).sort());
    for (const [name, item] of Object.entries(webhooks))
      expect(Object.keys(resolved(item) ?? {}).filter(isHttpMethod), name).toEqual(["post"]);
  });

  it.each(
    webhookProbes.map((entry) => [entry.webhook.name, entry.signature.length + entry.body.length, entry] as const),
  )("%s is declared as the page publishes it and judges each of its %d probes so", (name, _, entry) => {
    const post = () => resolved(at(webhookPointer(name))) ?? {};
    const failures = new Failures();

    failures.check(
      `is marked x-published with the source ${WEBHOOKS_PAGE}, and so are its payload and signature header`,
      () => {
        expect(isPublishedMark(post()["x-published"], WEBHOOKS_PAGE), "the webhook").toBe(true);
        expect(isPublishedMark(resolved(at(webhookBodyPointer(name)))?.["x-published"], WEBHOOKS_PAGE), "payload").toBe(
          true,
        );
        const [header] = (post().parameters as unknown[]).map((raw) => resolved(raw));
        expect(isPublishedMark(header?.["x-published"], WEBHOOKS_PAGE), "header").toBe(true);
      },
    );

    failures.check(`declares exactly the header ${WEBHOOK_SIGNATURE.name}, required`, () => {
      const parameters = ((post().parameters as unknown[]) ?? []).map((raw) => resolved(raw));
      expect(parameters.map((p) => `${String(p?.in)}:${String(p?.name)}`)).toEqual([
        `${WEBHOOK_SIGNATURE.in}:${WEBHOOK_SIGNATURE.name}`,
      ]);
      expect(parameters[0]?.required).toBe(WEBHOOK_SIGNATURE.required);
    });

    judgePart(
      failures,
      "signature header",
      () => canonicalPointer(webhookPointer(name, "parameters", "0", "schema")),
      entry.signature,
    );

    failures.check("requires a JSON body", () => {
      const body = resolved(post().requestBody);
      expect(body?.required).toBe(true);
      expect(Object.keys(resolved(body?.content) ?? {})).toEqual(["application/json"]);
    });

    judgePart(failures, "body", () => webhookBodyPointer(name), entry.body);

    failures.check(`lists the known values of type ${JSON.stringify(entry.webhook.type)} and status`, () => {
      const schema = at(webhookBodyPointer(name));
      for (const value of entry.webhook.type) expect(knownValuesOf(schema, "type")).toContain(value);
      for (const value of entry.webhook.status) expect(knownValuesOf(schema, "status")).toContain(value);
    });

    failures.check("takes any answer from the receiver (not shown, marked x-not-shown) and sends no API key", () => {
      expect(Object.keys(resolved(post().responses) ?? {})).toEqual(["default"]);
      expect(resolved(resolved(post().responses)?.default)?.content).toBeUndefined();
      expect(isMark("x-not-shown", post()["x-not-shown"])).toBe(true);
      expect(post().security).toEqual([]);
    });
    failures.expectNone(`the webhook ${name}`);
  });
});
// ---------------------------------------------------------------- published on the service's pages

describe("the error body (published on the Errors page)", () => {
  const { component, sample, required, findingRequired, otherJsonTypesPass } = PUBLISHED_ERROR_BODY;
  const pointer = componentSchemaPointer(component);
  const finding = sample.errors[0];
  const without = <T extends object>(value: T, key: string) =>
    Object.fromEntries(Object.entries(value).filter(([name]) => name !== key));
  const probes: Probe[] = [
    { name: "the published sample passes", value: sample, valid: true },
    { name: "a further field passes (open)", value: { ...sample, code: "VALIDATION_ERROR" }, valid: true },
    { name: "errors absent passes (the clients type it optional)", value: without(sample, "errors"), valid: true },
    { name: "errors empty passes", value: { ...sample, errors: [] }, valid: true },
    { name: "message a number fails", value: { ...sample, message: 1 }, valid: false },
    { name: "errors an object fails", value: { ...sample, errors: finding }, valid: false },
    {
      name: "a finding with a property passes",
      value: { ...sample, errors: [{ ...finding, property: "/a" }] },
      valid: true,
    },
    {
      name: "a finding's property of any JSON type passes (its type is not shown)",
      value: { ...sample, errors: [{ ...finding, property: ["a", 0] }] },
      valid: true,
    },
    {
      name: "a finding with a further field passes",
      value: { ...sample, errors: [{ ...finding, x: 1 }] },
      valid: true,
    },
    { name: "a finding's message a number fails", value: { ...sample, errors: [{ message: 1 }] }, valid: false },
    { name: "a finding a string fails", value: { ...sample, errors: ["text"] }, valid: false },
    ...["Account has been disabled", ["a"], 1, null].map((value) => ({
      name: `a body of another JSON type (${JSON.stringify(value)}) ${otherJsonTypesPass ? "passes" : "fails"}`,
      value,
      valid: otherJsonTypesPass,
    })),
    ...required.map((key) => ({ name: `${key} absent fails`, value: without(sample, key), valid: false })),
    ...findingRequired.map((key) => ({
      name: `a finding without its ${key} fails`,
      value: { ...sample, errors: [without(finding, key)] },
      valid: false,
    })),
  ];
  it(`judges each of its ${probes.length} probes as the page publishes it`, () => {
    const failures = new Failures();
    judge(failures, pointer, probes);
    failures.expectNone(`the error body ${component}`);
  });

  it("is marked x-published on the schema (and keeps the description's x-not-shown)", () => {
    const schema = resolved(spec.components?.schemas?.[component]);
    expect(isMark("x-published", schema?.["x-published"])).toBe(true);
    expect(isMark("x-not-shown", schema?.["x-not-shown"])).toBe(true);
  });

  const answers = `answers the published body on ${ERROR_RESPONSE_KEYS.join(", ")}`;
  it(`every operation (${ALL_ENDPOINTS.length}) ${answers}: the sample passes, a body without message fails`, () => {
    const failures = new Failures();
    for (const { method, path } of ALL_ENDPOINTS) {
      for (const key of ERROR_RESPONSE_KEYS) {
        judgePart(failures, `${method.toUpperCase()} ${path} ${key}`, () => responseSchemaPointer(method, path, key), [
          { name: "the published sample passes", value: sample, valid: true },
          { name: "{} fails", value: {}, valid: false },
        ]);
      }
    }
    failures.expectNone("the error responses");
  });
});

describe("the error codes and statuses (published on the Errors page) in the docs", () => {
  const description = String(spec.info?.description ?? "");
  const errorsSection = description.slice(description.indexOf("## Errors"));
  const section = errorsSection.slice(0, errorsSection.indexOf("\n## ", 1) >>> 0);

  it(`lists each published code with its status (${Object.keys(PUBLISHED_ERROR_CODES).length} codes)`, () => {
    const failures = new Failures();
    for (const [code, status] of Object.entries(PUBLISHED_ERROR_CODES))
      failures.check(`${code} ${status}`, () => {
        expect(section).toMatch(new RegExp(`\\|\\s*\`${code}\`\\s*\\|\\s*${status}\\s*\\|`));
      });
    failures.expectNone("the published error codes");
  });

  it("lists the published statuses and marks the info x-published", () => {
    for (const status of PUBLISHED_STATUSES) expect(section).toContain(String(status));
    expect(isMark("x-published", spec.info?.["x-published"])).toBe(true);
  });
});

describe("the quote's validity (published: seconds)", () => {
  const { schema, property, seconds } = PUBLISHED_QUOTE_VALIDITY;
  const field = () => resolved(resolved(resolved(spec.components?.schemas?.[schema])?.properties)?.[property]);

  it(`marks ${property} x-published, says seconds, and keeps the description's "not shown" marker`, () => {
    expect(isMark("x-published", field()?.["x-published"])).toBe(true);
    expect(isMark("x-not-shown", field()?.["x-not-shown"])).toBe(true);
    expect(String(field()?.description)).toMatch(/\bseconds\b/);
  });

  it(`the quote examples carry the published ${property} (${seconds})`, () => {
    const quotes = Object.values(spec.components?.examples ?? {})
      .map((example) => (resolved(example)?.value as { data?: Record<string, unknown> } | undefined)?.data)
      .filter((data) => typeof data === "object" && data !== null && property in data);
    expect(quotes.length).toBeGreaterThan(0);
    for (const quote of quotes) expect(quote?.[property]).toBe(seconds);
  });
});

it("knows the category values both client releases send (x-known-values of the category filter)", () => {
  const parameter = declaredParameter("get", "/transactions/me", {
    name: "category",
    in: "query",
  } as ParameterExpectation);
  const schema = resolved(parameter?.schema);
  expect(schema?.["x-known-values"]).toEqual([...OBSERVED_CATEGORY_VALUES]);
});
