// The cases of a verification, from the contract alone (src/verify/cases.ts): which parameters a sample request
// carries and what it needs a value for, the negative cases and the bodies that break one rule each (types, enums
// split by allOf, required fields the example has, a closed object, malformed JSON), the documented values a path
// example may be, whether an operation has a quota of its own, and a multipart/form-data body (sent as its parts,
// broken by leaving out a required part).
import { describe, expect, it } from "vitest";
import { listOperations, type OpenApiDocument } from "../../src/openapi/index.js";
import { documentedValues, hasOwnQuota, negativeCases, positiveCases, sampleRequest } from "../../src/verify/cases.js";
import { planVerification } from "../../src/verify/index.js";

const ok = { responses: { "200": { description: "ok" } } };
const spec: OpenApiDocument = {
  openapi: "3.1.0",
  paths: {
    "/items": {
      get: {
        ...ok,
        parameters: [
          { name: "h", in: "header", required: true, schema: { type: "integer" }, example: 1 },
          { name: "opt", in: "query", schema: { type: "string" }, example: "o" },
          { name: "req", in: "query", required: true, schema: { enum: ["r"] }, example: "r" },
          { name: "mix", in: "query", schema: { type: ["string", "integer"] } },
        ],
      },
    },
    "/things": {
      post: {
        ...ok,
        requestBody: {
          content: {
            "application/json": {
              schema: {
                type: "object",
                additionalProperties: false,
                required: ["n", "z"],
                properties: {
                  n: { type: "number" },
                  s: { type: ["string", "integer"] },
                  b: { type: "boolean" },
                  k: { allOf: [{ enum: ["a"] }, { description: "k" }] },
                },
              },
              example: { n: 1, s: "x", b: true, k: "a" },
            },
          },
        },
      },
    },
    "/drafts": { post: { ...ok, requestBody: { content: { "application/json": { schema: { type: "object" } } } } } },
  },
};
const operations = listOperations(spec);
const byKey = (key: string) => operations.find((o) => o.key === key)!;

describe("sampleRequest", () => {
  it("puts only query parameters in the query, the optional ones only when asked", () => {
    expect(sampleRequest(spec, byKey("GET /items"), {}, false).path).toBe("/items?req=r");
    expect(sampleRequest(spec, byKey("GET /items")).path).toBe("/items?opt=o&req=r");
  });
});

describe("negativeCases", () => {
  // Built in each test, not while the file loads: Stryker links a mutant to the tests that run its code.
  const built = () => {
    const cases = negativeCases(spec, operations);
    return {
      cases,
      bodies: Object.fromEntries(cases.filter((c) => "invalidBody" in c).map((c) => [c.name, c.invalidBody])),
    };
  };

  it("breaks query parameters only, each by what its schema refuses", () => {
    const { cases } = built();
    expect(cases.filter((c) => c.operation.key === "GET /items").map((c) => c.name)).toEqual([
      "GET /items: query req outside its enum",
    ]);
  });

  it("breaks each body property (type or enum), drops each required one, adds a field to a closed object", () => {
    const { bodies } = built();
    expect(Object.keys(bodies)).toEqual([
      "POST /things: n of the wrong type",
      "POST /things: s of the wrong type",
      "POST /things: b of the wrong type",
      "POST /things: k outside its enum",
      "POST /things: required n missing",
      "POST /things: an unknown field",
      "POST /things: malformed JSON",
    ]);
    expect(bodies["POST /things: n of the wrong type"]).toMatchObject({ n: "not-a-number-or-integer" });
    expect(bodies["POST /things: s of the wrong type"]).toMatchObject({ s: { unexpected: true } });
    expect(bodies["POST /things: b of the wrong type"]).toMatchObject({ b: "not-a-boolean" });
    expect(bodies["POST /things: an unknown field"]).toEqual({ n: 1, s: "x", b: true, k: "a", unknownField: "x" });
  });

  it("judges a property several allOf parts declare by all of them: the type of one, the enum of the other", () => {
    const ordersSpec: OpenApiDocument = {
      openapi: "3.1.0",
      info: { title: "orders", version: "1" },
      paths: {
        "/orders": {
          post: {
            ...ok,
            requestBody: {
              content: {
                "application/json": {
                  schema: {
                    allOf: [
                      { type: "object", properties: { side: { type: "string" } } },
                      { properties: { side: { enum: ["BUY", "SELL"] } } },
                    ],
                  },
                  example: { side: "BUY" },
                },
              },
            },
          },
        },
      },
    };
    const names = negativeCases(ordersSpec, listOperations(ordersSpec)).map((c) => c.name);
    expect(names).toContain("POST /orders: side outside its enum");
  });

  it("makes no body case for an operation whose body has no example", () => {
    const { cases } = built();
    expect(cases.filter((c) => c.operation.key === "POST /drafts")).toEqual([]);
  });
});

describe("a multipart/form-data body (Upload Invoice Document's kind)", () => {
  const uploadSpec: OpenApiDocument = {
    openapi: "3.1.0",
    paths: {
      "/uploads": {
        post: {
          ...ok,
          requestBody: {
            required: true,
            content: {
              "multipart/form-data": {
                schema: {
                  type: "object",
                  required: ["file", "kind"],
                  properties: { file: { type: "string" }, kind: { type: "string" }, note: { type: "string" } },
                },
                example: { file: "%PDF-1.7", kind: "invoice" },
              },
            },
          },
        },
      },
    },
  };
  const [upload] = listOperations(uploadSpec);
  /** The parts of a multipart text: [name, value] in order. */
  const partsOf = (text: string, boundary: string) =>
    text
      .split(`--${boundary}`)
      .slice(1, -1)
      .map((part) => [/name="([^"]+)"/.exec(part)![1], part.split("\r\n\r\n")[1]!.replace(/\r\n$/, "")]);

  it("sends the documented example as multipart/form-data, one part per field, with its boundary", () => {
    const request = sampleRequest(uploadSpec, upload!);
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(request.headers["content-type"]!)?.[1];
    expect(boundary).toBeDefined();
    expect(request.body!.endsWith(`--${boundary}--\r\n`)).toBe(true);
    expect(partsOf(request.body!, boundary!)).toEqual([
      ["file", "%PDF-1.7"],
      ["kind", "invoice"],
    ]);
  });

  it("breaks it by leaving out each required part in turn, and nothing else (no JSON cases)", () => {
    const cases = negativeCases(uploadSpec, [upload!]);
    expect(cases.map((c) => c.name)).toEqual([
      "POST /uploads: required part file missing",
      "POST /uploads: required part kind missing",
    ]);
    const boundary = /boundary=(.+)$/.exec(cases[0]!.request.headers["content-type"]!)![1]!;
    expect(partsOf(cases[0]!.request.body!, boundary)).toEqual([["kind", "invoice"]]);
    expect(partsOf(cases[1]!.request.body!, boundary)).toEqual([["file", "%PDF-1.7"]]);
  });
});

describe("hasOwnQuota", () => {
  const ops = (paths: Record<string, Record<string, unknown>>) =>
    listOperations({ openapi: "3.1.0", paths } as OpenApiDocument);

  it("a quota naming another operation is not this one's", () => {
    const [own, other] = ops({
      "/a": { post: { ...ok, "x-rate-limits": [{ appliesTo: "post /a" }] } },
      "/b": { post: { ...ok, "x-rate-limits": [{ appliesTo: "POST /a" }] } },
    });
    expect(hasOwnQuota(own!)).toBe(true);
    expect(hasOwnQuota(other!)).toBe(false);
  });
});

describe("the cases, from the contract alone", () => {
  const casesSpec = {
    openapi: "3.1.0",
    info: { title: "Cases", version: "1.0.0" },
    paths: {
      "/a/{id}": {
        post: {
          operationId: "postA",
          "x-rate-limits": [{ limit: 1 }, { appliesTo: "Post /A/{ID}" }],
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string" } },
            {
              name: "n",
              in: "query",
              schema: { allOf: [{ type: ["integer", "string"] }, { type: "number" }] },
              example: 1,
            },
            { name: "c", in: "query", schema: { const: "NOT_A_DOCUMENTED_VALUE" } },
            {
              name: "e",
              in: "query",
              schema: { enum: ["NOT_A_DOCUMENTED_VALUE", "NOT_A_DOCUMENTED_VALUE_"] },
              example: "NOT_A_DOCUMENTED_VALUE",
            },
          ],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: {
                    s: { type: "string" },
                    i: { type: "integer" },
                    sn: { type: ["string", "number"] },
                    k: { const: 1 },
                  },
                },
                example: { s: "x", i: 1, sn: 2, k: 1 },
              },
            },
          },
          responses: { "200": { description: "ok" } },
        },
      },
      "/b": {
        get: {
          parameters: [{ name: "q", in: "query", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "ok" } },
        },
        post: {
          requestBody: { required: true, content: { "application/json": { schema: { type: "object" } } } },
          responses: { "200": { description: "ok" } },
        },
        put: {
          requestBody: { content: { "application/json": { schema: { type: "object" } } } },
          responses: { "200": { description: "ok" } },
        },
      },
    },
  } as OpenApiDocument;
  const [postA, getB, putB, postB] = listOperations(casesSpec); // methods in HTTP_METHODS order

  it("documentedValues: enum and const strings, not examples; a path example among them needs no value", () => {
    const coded = {
      openapi: "3.1.0",
      info: { title: "Codes", version: "1.0.0" },
      components: {
        schemas: {
          Code: { type: "string", enum: ["AAA", "BBB", 3], example: "EXAMPLE_ONLY" },
          Base: {
            type: "object",
            properties: { base: { const: "CCC" }, n: { const: 1 } },
            examples: [{ base: "DDD" }],
          },
        },
      },
      paths: {
        "/pairs/{from}/{to}/{id}": {
          get: {
            parameters: ["from", "to", "id"].map((name, i) => ({
              name,
              in: "path",
              required: true,
              schema: { type: "string" },
              example: ["AAA", "CCC", "EXAMPLE_ONLY"][i],
            })),
            responses: { "200": { description: "ok" } },
          },
        },
      },
    } as OpenApiDocument;
    expect([...documentedValues(coded)].sort()).toEqual(["AAA", "BBB", "CCC"]);
    const [pairs] = positiveCases(coded, listOperations(coded));
    expect(pairs!.pathParameters).toEqual(["id"]);
    expect(planVerification(coded, {}).map((c) => c.skip)).toEqual([
      "needs a real value for {id} (the spec's example need not exist on the target): pass --param id=…",
    ]);
  });

  it("documentedValues: an enum in an array (parameters, allOf) counts; one inside an example does not", () => {
    const worded = {
      openapi: "3.1.0",
      info: { title: "Words", version: "1.0.0" },
      paths: {
        "/c/{code}": {
          get: {
            parameters: [
              { name: "code", in: "path", required: true, schema: { allOf: [{ enum: ["USDT"] }] }, example: "USDT" },
            ],
            responses: {
              "200": {
                description: "ok",
                content: {
                  "application/json": {
                    schema: { type: "object", example: { enum: ["FROM_EXAMPLE"] } },
                    examples: { one: { value: { const: "FROM_EXAMPLES" } } },
                  },
                },
              },
            },
          },
        },
      },
    } as OpenApiDocument;
    expect([...documentedValues(worded)]).toEqual(["USDT"]);
  });

  it("hasOwnQuota: an x-rate-limits entry that names the operation, in any case", () => {
    expect(hasOwnQuota(postA!)).toBe(true);
    expect(hasOwnQuota(getB!)).toBe(false);
    expect(hasOwnQuota({ ...getB!, operation: { "x-rate-limits": { appliesTo: "GET /b" } } })).toBe(false);
    expect(hasOwnQuota({ ...getB!, operation: { "x-rate-limits": [{ appliesTo: "get /b" }] } })).toBe(true);
  });

  it("sampleRequest needs a value for each path parameter, required query and body, naming the missing", () => {
    expect(() => sampleRequest(casesSpec, postA!)).toThrow(
      /^postA: path parameter id has no example \(pass a value\)$/,
    );
    expect(() => sampleRequest(casesSpec, getB!)).toThrow(/^GET \/b: required query parameter q has no example$/);
    expect(() => sampleRequest(casesSpec, postB!)).toThrow(/^POST \/b: the required request body has no example$/);
    expect(sampleRequest(casesSpec, putB!)).toEqual({
      method: "PUT",
      path: "/b",
      headers: { accept: "application/json" },
      body: undefined,
    });
    expect(sampleRequest(casesSpec, getB!, { params: { q: "given" } }).path).toBe("/b?q=given");
    expect(sampleRequest(casesSpec, postA!, { params: { id: "a b" } })).toEqual({
      method: "POST",
      path: "/a/a%20b?n=1&c=NOT_A_DOCUMENTED_VALUE&e=NOT_A_DOCUMENTED_VALUE",
      headers: { accept: "application/json", "content-type": "application/json" },
      body: '{"s":"x","i":1,"sn":2,"k":1}',
    });
    expect(sampleRequest(casesSpec, postA!, { params: { id: "1", e: "given" } }, false).path).toBe("/a/1?e=given");
    expect(positiveCases(casesSpec, [getB!], { params: { q: "v" } })).toMatchObject([
      { name: "GET /b: GET /b", kind: "positive", withoutKey: false, pathParameters: [] },
    ]);
  });

  it("sends a body given for the operation in place of its example, and breaks its rules from it", () => {
    const bodies = { postA: { s: "given", i: 7, sn: 2, k: 1 } };
    expect(sampleRequest(casesSpec, postA!, { params: { id: "1" }, bodies }).body).toBe(
      '{"s":"given","i":7,"sn":2,"k":1}',
    );
    const wrongType = negativeCases(casesSpec, [postA!], { params: { id: "1" }, bodies }).find((c) =>
      c.name.endsWith("i of the wrong type"),
    );
    expect(wrongType?.invalidBody).toEqual({ s: "given", i: "not-a-integer", sn: 2, k: 1 });
    // Another operation's body is not taken.
    expect(sampleRequest(casesSpec, postA!, { params: { id: "1" }, bodies: { other: {} } }).body).toBe(
      '{"s":"x","i":1,"sn":2,"k":1}',
    );
  });

  it("breaks one rule per case: outside an enum or const, a type not taken, a missing field, bad JSON", () => {
    const cases = negativeCases(casesSpec, [postA!], { params: { id: "1" } });
    const byName = Object.fromEntries(
      cases.map((c) => [c.name.replace("postA: ", ""), c.request.path === "/a/1" ? c.invalidBody : c.request.path]),
    );
    expect(byName).toEqual({
      "query n of the wrong type": "/a/1?n=not-a-number",
      "query c outside its enum": "/a/1?c=NOT_A_DOCUMENTED_VALUE_",
      "query e outside its enum": "/a/1?e=NOT_A_DOCUMENTED_VALUE__",
      "s of the wrong type": { s: 12345, i: 1, sn: 2, k: 1 },
      "i of the wrong type": { s: "x", i: "not-a-integer", sn: 2, k: 1 },
      "sn of the wrong type": { s: "x", i: 1, sn: { unexpected: true }, k: 1 },
      "k outside its enum": { s: "x", i: 1, sn: 2, k: "NOT_A_DOCUMENTED_VALUE" },
      "malformed JSON": undefined,
    });
    expect(cases.find((c) => c.name === "postA: malformed JSON")?.request.body).toBe('{"s":"x","i":1,"sn":2,"k":1,');
    expect(cases.every((c) => c.kind === "negative" && !c.withoutKey && c.pathParameters.join() === "id")).toBe(true);
  });
});
