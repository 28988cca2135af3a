// Edges of the mock (src/mock) on a small contract of its own and over real sockets: which empty query values it
// refuses itself, a falsy JSON body where the body is optional, a text answer written as text, an answer with no
// body, the CORS preflight, a request target that is no URL, Prism's dynamic answers and its findings about the
// contract's own example, and the documented answers, error answers, header values and Prefer parsing it builds on.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  documentedAnswer,
  errorAnswer,
  parsePrefer,
  safeHeaderValue,
  violationsHeader,
} from "../../src/mock/answers.js";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { responseKeyFor } from "../../src/openapi/document.js";
import type { JsonObject, OpenApiDocument } from "../../src/openapi/index.js";
import { json } from "../support/media.js";
import { sendRaw } from "../mock/support/raw-http.js";

const query = (name: string, schema: object) => ({ name, in: "query", schema });

/** Query parameters whose schema refuses an empty value (the mock answers 422 itself), and ones that accept it. */
const REFUSE_EMPTY = {
  constX: { const: "x" },
  integer: { type: "integer" },
  minLength: { type: "string", minLength: 1 },
  pattern: { type: "string", pattern: "^a" },
  viaRef: { $ref: "#/components/schemas/NonEmpty" },
  enumAB: { enum: ["a", "b"] },
};
const ACCEPT_EMPTY = {
  constEmpty: { const: "" },
  nullable: { type: ["string", "null"] },
  minLength0: { type: "string", minLength: 0 },
  anything: { type: "string", pattern: ".*" },
  enumWithEmpty: { enum: ["", "a"] },
  untyped: {},
};

function smallSpec(): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "Small", version: "1.0.0" },
    servers: [{ url: "http://127.0.0.1:4010/v1" }],
    components: { schemas: { NonEmpty: { type: "string", minLength: 1 } } },
    paths: {
      "/items": {
        get: {
          operationId: "listItems",
          parameters: Object.entries({ ...REFUSE_EMPTY, ...ACCEPT_EMPTY }).map(([name, schema]) => query(name, schema)),
          responses: {
            "200": {
              description: "ok",
              ...json(
                {
                  type: "object",
                  required: ["n"],
                  properties: { n: { type: "integer", minimum: 1000, maximum: 1000000000 } },
                },
                { n: 1 },
              ),
            },
            "4XX": { description: "refused, no body" },
          },
        },
      },
      "/notes": {
        post: {
          operationId: "addNote",
          requestBody: { required: false, ...json({ type: "object" }, {}) },
          responses: {
            "201": { description: "text", content: { "text/plain": { schema: { type: "string" }, example: "hello" } } },
            "4XX": { description: "refused", ...json({ type: "object" }, { message: "no" }) },
          },
        },
      },
      "/null": {
        get: {
          operationId: "nothing",
          responses: { "200": { description: "JSON null", ...json({ type: "null" }, null) } },
        },
      },
      "/broken": {
        get: {
          operationId: "broken",
          responses: {
            "200": {
              description: "its example breaks its schema",
              ...json({ type: "object", required: ["n"], properties: { n: { type: "integer" } } }, { n: "x" }),
            },
          },
        },
      },
    },
  };
}

let mock: StartedMock;
const log: string[] = [];
beforeAll(async () => {
  mock = await startMock({ spec: smallSpec(), log: (line) => log.push(line) });
});
afterAll(() => mock?.stop());

const violations = (response: Response): Array<{ location: string[]; message: string }> =>
  JSON.parse(response.headers.get("sl-violations") ?? "[]");

describe("the mock on a small contract", () => {
  it("refuses an empty query value the parameter's schema cannot take, with 422 and the documented (empty) error answer", async () => {
    for (const name of Object.keys(REFUSE_EMPTY)) {
      const response = await fetch(`${mock.baseUrl}/items?${name}=`);
      expect(response.status, name).toBe(422);
      expect(await response.text(), name).toBe("");
      expect(response.headers.get("content-length"), name).toBe("0");
      expect(violations(response), name).toEqual([
        { location: ["request"], severity: "Error", message: `query parameter ${name} must not be empty` },
      ]);
    }
    for (const name of Object.keys(ACCEPT_EMPTY)) {
      const response = await fetch(`${mock.baseUrl}/items?${name}=`);
      expect(
        violations(response)
          .map((v) => v.message)
          .join(),
        name,
      ).not.toContain("must not be empty");
    }
    expect(log).toContain("GET /v1/items?integer= → 422 (query parameter integer must not be empty)");
  });

  it('refuses a JSON null, false, 0 or "" where the body is optional (Prism would take it for no body); answers text as text', async () => {
    for (const body of ["null", "false", "0", '""']) {
      const response = await fetch(`${mock.baseUrl}/notes`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      expect(response.status, body).toBe(422);
      expect(await response.json()).toEqual({ message: "no" });
      expect(violations(response)[0]?.message).toBe('a JSON body that is null, false, 0 or "" is not an absent body');
    }
    const created = await fetch(`${mock.baseUrl}/notes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await created.text()).toBe("hello");
    const noBody = await fetch(`${mock.baseUrl}/notes`, { method: "POST" });
    expect(noBody.status).toBe(201);
  });

  it("writes a JSON null answer as null", async () => {
    const response = await fetch(`${mock.baseUrl}/null`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe("4");
    expect(await response.text()).toBe("null");
  });

  it("answers a CORS preflight itself: 204, the origin, method and headers asked for, no body", async () => {
    const response = await fetch(`${mock.baseUrl}/notes`, {
      method: "OPTIONS",
      headers: {
        origin: "http://app.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "x-api-key",
      },
    });
    expect(response.status).toBe(204);
    const cors: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name.startsWith("access-control") || name === "vary") cors[name] = value;
    });
    expect(cors).toEqual({
      "access-control-allow-origin": "http://app.example",
      "access-control-allow-headers": "x-api-key",
      "access-control-allow-credentials": "true",
      "access-control-expose-headers": "*",
      "access-control-allow-methods": "POST",
      vary: "origin",
    });
    expect(response.headers.get("content-length")).toBe("0");
    // Not a preflight without the requested method: the path has no OPTIONS, so 405.
    expect(
      (await fetch(`${mock.baseUrl}/notes`, { method: "OPTIONS", headers: { origin: "http://app.example" } })).status,
    ).toBe(405);
  });

  it("answers 400 with the documented error answer to a request target that is not a URL", async () => {
    const answer = await sendRaw(mock.port, Buffer.from("GET // HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
    expect(answer?.status).toBe(400);
    expect(answer?.headers["sl-violations"]).toBe(
      '[{"location":["request"],"severity":"Error","message":"the request target is not a valid URL"}]',
    );
    // The first operation that documents a 400 (GET /items: a 4XX without a body) gives the answer.
    expect(answer?.headers["content-length"]).toBe("0");
    expect(answer?.body.length).toBe(0);
  });

  it("passes Prefer: dynamic and seed to Prism: a generated answer, the same for the same seed", async () => {
    const get = async (prefer?: string) => {
      const response = await fetch(`${mock.baseUrl}/items`, prefer ? { headers: { prefer } } : {});
      expect(response.status).toBe(200);
      return (await response.json()) as { n: number };
    };
    expect(await get()).toEqual({ n: 1 });
    expect(await get("dynamic=false")).toEqual({ n: 1 });
    const seeded = await get("dynamic=true, seed=one");
    expect(seeded.n).toBeGreaterThanOrEqual(1000);
    expect(await get("dynamic=true; seed=one")).toEqual(seeded);
    const unseeded = new Set<number>();
    for (let i = 0; i < 4; i++) unseeded.add((await get("dynamic=true")).n);
    expect(unseeded.size).toBeGreaterThan(1);
    const bad = await fetch(`${mock.baseUrl}/items`, { headers: { prefer: "dynamic=maybe" } });
    expect(bad.status).toBe(422);
    expect(violations(bad)[0]?.message).toBe('Prefer: dynamic must be true or false, got "maybe"');
  });

  it("reports Prism's findings about its own answer (an example that breaks the schema) in sl-violations, as the response's", async () => {
    const response = await fetch(`${mock.baseUrl}/broken`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ n: "x" });
    const found = violations(response);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((v) => v.location[0] === "response")).toBe(true);
    expect(found.map((v) => v.location.slice(1).join("/")).join()).toContain("n");
  });

  it("refuses a contract without operations; listens on IPv6 with the host in brackets", async () => {
    await expect(startMock({ spec: { ...smallSpec(), paths: {} } })).rejects.toThrow(
      /^mock: the contract has no operations$/,
    );
    const v6 = await startMock({ spec: smallSpec(), host: "::1" });
    try {
      expect(v6.origin).toBe(`http://[::1]:${v6.port}`);
      expect(v6.baseUrl).toBe(`http://[::1]:${v6.port}/v1`);
      expect((await fetch(`${v6.baseUrl}/items`)).status).toBe(200);
    } finally {
      await v6.stop();
    }
  });
});

describe("the answers the mock builds from the contract", () => {
  const spec = {
    openapi: "3.1.0",
    components: {
      headers: { Limit: { schema: { type: "integer", examples: [200, 100] } } },
      examples: { Named: { value: { from: "named" } } },
    },
  } as OpenApiDocument;
  const responses: Record<string, JsonObject> = {
    "200": {
      headers: {
        "X-Limit": { $ref: "#/components/headers/Limit" },
        "X-Own": { example: "own", schema: { example: "schema's" } },
        "X-Schema": { schema: { example: 7 } },
        "X-None": { schema: { type: "string" } },
      },
      content: {
        "application/json": {
          examples: { first: { value: { from: "first" } }, named: { $ref: "#/components/examples/Named" } },
        },
        "text/plain": { example: "second media type" },
      },
    },
    "204": { description: "no body" },
    "4xx": { content: { "application/json": { schema: { example: { from: "schema" } } } } },
    "5XX": { content: { "application/json": { schema: { type: "object" } } } },
    default: { content: { "application/problem+json": { example: { from: "default" } } } },
  };

  it("responseKeyFor: the status, its range in any case, else default", () => {
    expect(responseKeyFor(responses, 200)).toBe("200");
    expect(responseKeyFor(responses, 404)).toBe("4xx");
    expect(responseKeyFor(responses, 302)).toBe("default");
    expect(responseKeyFor({ "200": {} }, 404)).toBeUndefined();
    expect(responseKeyFor({ defaults: {}, "200": {} }, 500)).toBeUndefined();
  });

  it("documentedAnswer: the first (or the named) example of the first media type, the header examples lower-cased", () => {
    expect(documentedAnswer(spec, { responses }, 200)).toEqual({
      status: 200,
      headers: { "x-limit": "200", "x-own": "own", "x-schema": "7", "content-type": "application/json" },
      body: { from: "first" },
    });
    expect(documentedAnswer(spec, { responses }, 200, "named")?.body).toEqual({ from: "named" });
    expect(documentedAnswer(spec, { responses }, 200, "nope")).toBeUndefined();
    expect(documentedAnswer(spec, { responses }, 404, "nope")).toBeUndefined(); // not the schema's example instead
    expect(documentedAnswer(spec, { responses }, 204)).toEqual({ status: 204, headers: {}, body: undefined });
    expect(documentedAnswer(spec, { responses }, 418)).toEqual({
      status: 418,
      headers: { "content-type": "application/json" },
      body: { from: "schema" },
    });
    expect(documentedAnswer(spec, { responses }, 503)).toBeUndefined(); // no example anywhere
    expect(documentedAnswer(spec, { responses: { "200": {} } }, 404)).toBeUndefined();
  });

  it("errorAnswer: the operation's own, else the first operation's that documents the status, else a problem of the mock's own", () => {
    const withErrors = {
      openapi: "3.1.0",
      paths: {
        "/a": { get: { responses: { "200": { description: "ok" } } } },
        "/b": { get: { responses: { "4XX": { content: { "application/json": { example: { shared: true } } } } } } },
      },
    } as OpenApiDocument;
    expect(errorAnswer(withErrors, { responses }, 404).body).toEqual({ from: "schema" });
    expect(errorAnswer(withErrors, { responses: {} }, 404)).toEqual({
      status: 404,
      headers: { "content-type": "application/json" },
      body: { shared: true },
    });
    expect(errorAnswer(withErrors, undefined, 400).body).toEqual({ shared: true });
    expect(errorAnswer(withErrors, undefined, 500)).toEqual({
      status: 500,
      headers: { "content-type": "application/problem+json" },
      body: { title: "The contract documents no error response", status: 500 },
    });
  });

  it("safeHeaderValue writes what a header cannot carry as \\uXXXX; violationsHeader stays under 8 KiB", () => {
    expect(safeHeaderValue("a\u0000b\tc é\u007f\u0100\u2028😀~")).toBe(
      "a\\u0000b\tc é\\u007f\\u0100\\u2028\\ud83d\\ude00~",
    );
    expect(violationsHeader([{ message: "é\n" }])).toBe('[{"message":"é\\n"}]');
    const long = violationsHeader([{ message: "x".repeat(9000) }]);
    expect(long.startsWith('Too many violations! [{"message":"xxx')).toBe(true);
    expect(long).toHaveLength("Too many violations! ".length + 8 * 1024 - 100);
    const exact = "y".repeat(8 * 1024 - 100 - '[{"m":""}]'.length);
    expect(violationsHeader([{ m: exact }])).toBe(`[{"m":"${exact}"}]`);
  });

  it("parsePrefer: code, example, dynamic and seed (names in any case, quoted values), and what is wrong with them", () => {
    expect(parsePrefer(undefined)).toEqual({});
    expect(parsePrefer("")).toEqual({});
    expect(
      parsePrefer(' Code = 429 ; example="an \\"odd\\" one", Dynamic=true, seed=abc, respond-async, wait=5, =x'),
    ).toEqual({
      code: 429,
      example: 'an \\"odd\\" one',
      dynamic: true,
      seed: "abc",
    });
    expect(parsePrefer("dynamic=false")).toEqual({ dynamic: false });
    expect(parsePrefer("example=")).toEqual({ example: "" });
    expect(parsePrefer("code=42")).toEqual({ error: 'Prefer: code must be a three-digit status, got "42"' });
    expect(parsePrefer("code=4000")).toEqual({ error: 'Prefer: code must be a three-digit status, got "4000"' });
    expect(parsePrefer("code")).toEqual({ error: 'Prefer: code must be a three-digit status, got ""' });
    expect(parsePrefer("dynamic=TRUE")).toEqual({ error: 'Prefer: dynamic must be true or false, got "TRUE"' });
    expect(parsePrefer("dynamic")).toEqual({ error: 'Prefer: dynamic must be true or false, got ""' });
    // A preference is the whole part: one with text before or after it is not understood, so ignored.
    expect(parsePrefer("1code=429, code=429 junk; x code=500")).toEqual({});
  });
});
