// Edges of the verify cases (src/verify) from mutation run 4, on a fixture contract: which parameters a sample
// request carries, the exact negative cases and their bodies (types, enums split by allOf, required fields the
// example lacks, a closed object, operations without a body example), the creator of a path parameter, and a
// quota that names another operation; and a verifier's signing, timing, wording, strictness and skipped results.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGNING_HEADERS } from "../../generated/client-meta.js";
import { createContractValidator } from "../../src/contract/index.js";
import { listOperations, type OpenApiDocument } from "../../src/openapi/index.js";
import { hasOwnQuota, negativeCases, sampleRequest } from "../../src/verify/cases.js";
import { createVerifier, creatorPath, planVerification } from "../../src/verify/index.js";

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

  it("breaks each body property by its type or enum, drops each required one the example has, adds an unknown field to a closed object", () => {
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

  it("makes no body case for an operation whose body has no example", () => {
    const { cases } = built();
    expect(cases.filter((c) => c.operation.key === "POST /drafts")).toEqual([]);
  });
});

describe("creatorPath and hasOwnQuota", () => {
  const ops = (paths: Record<string, Record<string, unknown>>) =>
    listOperations({ openapi: "3.1.0", paths } as OpenApiDocument);

  it("the creator is the POST of the path without its last parameter, and only when the path ends in one", () => {
    const withPost = ops({
      "/x": { post: ok },
      "/x/{id}": { get: ok },
      "/x/y": { post: ok },
      "/x/{id}/y": { get: ok },
    });
    expect(creatorPath(withPost, withPost.find((o) => o.path === "/x/{id}")!)).toBe("/x");
    expect(creatorPath(withPost, withPost.find((o) => o.path === "/x/{id}/y")!)).toBeUndefined();
    const withGet = ops({ "/x": { get: ok }, "/x/{id}": { get: ok } });
    expect(creatorPath(withGet, withGet.find((o) => o.path === "/x/{id}")!)).toBeUndefined();
  });

  it("a quota naming another operation is not this one's", () => {
    const [own, other] = ops({
      "/a": { post: { ...ok, "x-rate-limits": [{ appliesTo: "post /a" }] } },
      "/b": { post: { ...ok, "x-rate-limits": [{ appliesTo: "POST /a" }] } },
    });
    expect(hasOwnQuota(own!)).toBe(true);
    expect(hasOwnQuota(other!)).toBe(false);
  });
});

describe("createVerifier on a deployment of its own", () => {
  const small: OpenApiDocument = {
    openapi: "3.1.0",
    paths: {
      "/one": {
        get: {
          operationId: "one",
          responses: {
            "200": {
              description: "ok",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["n"],
                    properties: { n: { type: "integer" }, m: { type: "integer" } },
                  },
                  example: { n: 1 },
                },
              },
            },
          },
        },
      },
    },
  };
  let body: unknown = { n: 1 };
  let seen: http.IncomingHttpHeaders[] = [];
  /** The time of a fake clock a test may give the verifier: each answer takes 37.4 ms of it. */
  let fakeTime = 0;
  let server: http.Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.headers);
      fakeTime += 37.4;
      req.resume();
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const planned = (kind: "positive" | "negative") => ({
    ...planVerification(small, { target: "deployment" }).find((c) => c.kind === "positive")!,
    kind,
  });
  const verifier = (options: Partial<Parameters<typeof createVerifier>[2]> = {}) =>
    createVerifier(small, createContractValidator(small), { baseUrl, minIntervalMs: 0, ...options });

  it("signs each request when given a secret, and not otherwise", async () => {
    seen = [];
    body = { n: 1 };
    await verifier({ apiSecret: "s" }).run(planned("positive"));
    await verifier().run(planned("positive"));
    expect(seen[0]![SIGNING_HEADERS.signature]).toMatch(/^[0-9a-f]{64}$/);
    expect(seen[0]![SIGNING_HEADERS.timestamp]).toMatch(/^\d+$/);
    expect(seen[1]![SIGNING_HEADERS.signature]).toBeUndefined();
  });

  it("reports how long the answer took, and its violations counted in words", async () => {
    body = { n: "x" };
    // A clock of the verifier's that the server moves on by 37.4 ms while it answers.
    const clock = { now: () => fakeTime, sleep: async () => {} };
    const result = await verifier({ clock }).run(planned("positive"));
    expect(result.durationMs).toBe(37);
    expect(result.reason).toMatch(/: 1 violation$/);
    body = { n: "x", m: "y" };
    expect((await verifier().run(planned("positive"))).reason).toMatch(/: 2 violations$/);
  });

  it("warns of undocumented fields on a live positive case only", async () => {
    body = { n: 1, extra: true };
    expect((await verifier().run(planned("positive"))).warnings).not.toEqual([]);
    expect((await verifier({ target: "mock" }).run(planned("positive"))).warnings).toEqual([]);
    expect((await verifier().run(planned("negative"))).warnings).toEqual([]);
  });

  it("a skipped case has no violations or warnings", async () => {
    const result = await verifier().run({ ...planned("positive"), skip: "not here" });
    expect(result).toMatchObject({ outcome: "skipped", violations: [], warnings: [] });
  });
});
