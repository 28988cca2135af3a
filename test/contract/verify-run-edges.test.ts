// src/verify/run.ts on a small contract of its own (things to list, create, get and delete; an open operation; one
// with its own quota) against scripted servers on 127.0.0.1: the skip reasons of each rule, the id a POST creates
// standing in for a path parameter, which requests carry the key, every reason a case fails for (exact), the
// mock target's stricter refusals, pacing, and the report's verdict and its one-line causes.
import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import { listOperations, type OpenApiDocument, successKeys } from "../../src/openapi/index.js";
import { documentedValues, hasOwnQuota, negativeCases, positiveCases, sampleRequest } from "../../src/verify/cases.js";
import {
  creatorPath,
  createVerifier,
  type PlannedCase,
  planVerification,
  verify,
} from "../../src/verify/index.js";
import { listenLocally } from "../support/local-server.js";
import { json } from "../support/media.js";

const KEY = "x-api-key";
const refusal = {
  description: "refused",
  ...json({ type: "object", required: ["message"], properties: { message: { type: "string" } } }, { message: "no" }),
};
const thing = { type: "object", required: ["id"], properties: { id: { type: "string" } } };
const idParameter = { name: "id", in: "path", required: true, schema: { type: "string" }, example: "t-0" };

/** The small contract: keyed by default; /open needs no key; POST /quota has a quota of its own. */
function thingsSpec(): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "Things", version: "1.0.0" },
    servers: [{ url: "https://things.example.com/v1" }],
    security: [{ key: [] }],
    components: { securitySchemes: { key: { type: "apiKey", in: "header", name: KEY } } },
    paths: {
      "/things": {
        get: {
          operationId: "listThings",
          parameters: [{ name: "kind", in: "query", schema: { type: "string", enum: ["a", "b"] }, example: "a" }],
          responses: {
            "200": {
              description: "ok",
              ...json({ type: "object", required: ["data"], properties: { data: { type: "array" } } }, { data: [] }),
            },
            "4XX": refusal,
          },
        },
        post: {
          operationId: "createThing",
          requestBody: {
            required: true,
            ...json({ type: "object", required: ["name"], properties: { name: { type: "string" } } }, { name: "n" }),
          },
          responses: {
            "201": {
              description: "created",
              ...json({ type: "object", required: ["data"], properties: { data: thing } }, { data: { id: "t-1" } }),
            },
            "4XX": refusal,
          },
        },
      },
      "/things/{id}": {
        get: {
          operationId: "getThing",
          parameters: [idParameter],
          responses: {
            "200": {
              description: "ok",
              ...json({ type: "object", properties: { data: thing } }, { data: { id: "t-0" } }),
            },
            "401": refusal,
            "4XX": refusal,
          },
        },
        delete: {
          operationId: "deleteThing",
          parameters: [idParameter],
          responses: { "204": { description: "gone" }, "4XX": refusal },
        },
      },
      "/groups/{group}/items/{item}": {
        get: {
          operationId: "getItem",
          parameters: [
            { name: "group", in: "path", required: true, schema: { type: "string" }, example: "g" },
            { name: "item", in: "path", required: true, schema: { type: "string" }, example: "i" },
          ],
          responses: { "200": { description: "ok" }, "201": { description: "also ok" } },
        },
      },
      "/ranged": {
        get: { operationId: "ranged", responses: { "2XX": { description: "any success" }, "4XX": refusal } },
      },
      "/open": {
        get: {
          operationId: "open",
          security: [],
          responses: { default: { description: "anything", ...json({ type: "object" }, {}) } },
        },
      },
      "/quota": {
        post: {
          operationId: "spendQuota",
          "x-rate-limits": [{ appliesTo: "post /quota", limit: 1 }],
          requestBody: {
            required: true,
            ...json({ type: "object", properties: { n: { type: "integer" } } }, { n: 1 }),
          },
          responses: { "200": { description: "ok", ...json({ type: "object" }, {}) }, "4XX": refusal },
        },
      },
    },
  } as OpenApiDocument;
}

const spec = thingsSpec();
const validator = createContractValidator(spec);
const operations = listOperations(spec);
const operation = (id: string) => operations.find((o) => o.operationId === id)!;

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  at: number;
  /** The time of the fake clock in use when it arrived, if one is. */
  clockAt?: number;
}
type Answer = { status: number; body?: unknown };

/** A fake clock for the verifier: time moves only when it sleeps or a test advances it; records the pauses asked for. */
function fakeClock({ shortBy = 0 } = {}) {
  let time = 0;
  const pauses: number[] = [];
  const clock = {
    pauses,
    now: () => time,
    advance: (ms: number) => {
      time += ms;
    },
    // A sleep that ends `shortBy` ms early (as setTimeout may), at most once per pause asked for.
    sleep: async (ms: number) => {
      pauses.push(ms);
      time += ms > shortBy ? ms - shortBy : ms;
    },
  };
  activeClock = clock;
  return clock;
}
let activeClock: { now(): number } | undefined;

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  activeClock = undefined;
  for (const close of closers.splice(0)) await close();
});

/** A deployment on 127.0.0.1 answering `answer(method, url)` (JSON; undefined: never), recording what it was sent. */
async function deployment(
  answer: (method: string, url: string, headers: http.IncomingHttpHeaders) => Answer | undefined | Promise<Answer>,
): Promise<{ baseUrl: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", async () => {
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        at: performance.now(),
        clockAt: activeClock?.now(),
      });
      const answered = await answer(req.method ?? "", req.url ?? "", req.headers);
      if (answered === undefined) return;
      const { status, body } = answered;
      if (body === undefined) res.writeHead(status).end();
      else res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  });
  const { origin, close } = await listenLocally(server);
  closers.push(close);
  return { baseUrl: `${origin}/v1`, seen };
}

/** Answers every request as the contract documents its success; refuses what has no success to give. */
const conforming = (method: string, url: string): Answer => {
  const path = url.replace(/^\/v1/, "").replace(/\?.*$/, "");
  if (method === "POST" && path === "/things") return { status: 201, body: { data: { id: "new/1" } } };
  if (method === "DELETE") return { status: 204 };
  if (path === "/things") return { status: 200, body: { data: [] } };
  if (path.startsWith("/things/")) return { status: 200, body: { data: { id: decodeURIComponent(path.slice(8)) } } };
  return { status: 200, body: {} };
};

const planned = (plan: PlannedCase[], name: string): PlannedCase => {
  const found = plan.find((c) => c.name === name);
  if (!found) throw new Error(`no case ${name} in ${plan.map((c) => c.name).join(", ")}`);
  return found;
};

describe("planVerification: why a case does not run on a deployment", () => {
  it("skips what needs a real path value, what changes state and what spends an own quota twice; never on the mock", () => {
    const skips = (options: Parameters<typeof planVerification>[1]) =>
      Object.fromEntries(planVerification(spec, options).map((c) => [c.name, c.skip ?? "runs"]));
    expect(skips({})).toEqual({
      "listThings: GET /things": "runs",
      "createThing: POST /things": "POST changes state on the target (allow side effects to run it)",
      "getThing: GET /things/{id}": "runs", // its id comes from what POST /things creates
      "deleteThing: DELETE /things/{id}": "DELETE changes state on the target (allow side effects to run it)",
      "getItem: GET /groups/{group}/items/{item}":
        "needs a real value for {group}, {item} (the spec's example need not exist on the target): pass --param group=… --param item=…",
      "ranged: GET /ranged": "runs",
      "open: GET /open": "runs",
      "spendQuota: POST /quota": "runs",
      "listThings: without API key": "runs",
      "listThings: query kind outside its enum": "runs",
      "createThing: without API key": "POST changes state on the target (allow side effects to run it)",
      "createThing: name of the wrong type": "POST changes state on the target (allow side effects to run it)",
      "createThing: required name missing": "POST changes state on the target (allow side effects to run it)",
      "createThing: malformed JSON": "POST changes state on the target (allow side effects to run it)",
      "getThing: without API key":
        "needs a real value for {id} (the spec's example need not exist on the target): pass --param id=…",
      "deleteThing: without API key":
        "needs a real value for {id} (the spec's example need not exist on the target): pass --param id=…",
      "getItem: without API key":
        "needs a real value for {group}, {item} (the spec's example need not exist on the target): pass --param group=… --param item=…",
      "ranged: without API key": "runs",
      "spendQuota: without API key":
        "each call may count against this operation's own quota; only one call is spent (allow side effects to run it)",
      "spendQuota: n of the wrong type":
        "each call may count against this operation's own quota; only one call is spent (allow side effects to run it)",
      "spendQuota: malformed JSON":
        "each call may count against this operation's own quota; only one call is spent (allow side effects to run it)",
    });
    const allowed = skips({ allowSideEffects: true, params: { group: "g1" } });
    expect(Object.entries(allowed).filter(([, why]) => why !== "runs")).toEqual([
      [
        "getItem: GET /groups/{group}/items/{item}",
        "needs a real value for {item} (the spec's example need not exist on the target): pass --param item=…",
      ],
      [
        "getThing: without API key",
        "needs a real value for {id} (the spec's example need not exist on the target): pass --param id=…",
      ],
      [
        "deleteThing: without API key",
        "needs a real value for {id} (the spec's example need not exist on the target): pass --param id=…",
      ],
      [
        "getItem: without API key",
        "needs a real value for {item} (the spec's example need not exist on the target): pass --param item=…",
      ],
    ]);
    expect(Object.values(skips({ target: "mock" })).every((why) => why === "runs")).toBe(true);
    expect(
      Object.values(
        skips({ target: "deployment", allowSideEffects: true, params: { id: "1", group: "g", item: "i" } }),
      ).every((why) => why === "runs"),
    ).toBe(true);
  });

  it("creatorPath: the POST of the parent path, if there is one; documentedSuccess: the 2xx keys", () => {
    expect(creatorPath(operations, operation("getThing"))).toBe("/things");
    expect(creatorPath(operations, operation("deleteThing"))).toBe("/things");
    expect(creatorPath(operations, operation("listThings"))).toBeUndefined();
    expect(creatorPath(operations, operation("getItem"))).toBeUndefined(); // no POST /groups/{group}/items
    // Only the last path parameter can come from the POST of the parent path: {x} of /a/{x}/b/{y} still needs a value.
    const xy = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" }, example: name });
    const nested = {
      openapi: "3.1.0",
      info: { title: "Nested", version: "1.0.0" },
      paths: {
        "/a/{x}/b": { post: { parameters: [xy("x")], responses: { "201": { description: "created" } } } },
        "/a/{x}/b/{y}": { get: { parameters: [xy("x"), xy("y")], responses: { "200": { description: "ok" } } } },
      },
    } as OpenApiDocument;
    expect(
      planned(planVerification(nested, { allowSideEffects: true }), "GET /a/{x}/b/{y}: GET /a/{x}/b/{y}").skip,
    ).toBe("needs a real value for {x} (the spec's example need not exist on the target): pass --param x=…");
    expect(successKeys(operation("getItem"))).toEqual(["200", "201"]);
    expect(successKeys(operation("open"))).toEqual([]);
    expect(
      successKeys({
        ...operation("open"),
        responses: { "2XX": {}, "2xx": {}, "200": {}, "20": {}, "2000": {}, "300": {}, x200: {} },
      }),
    ).toEqual(["200", "2XX", "2xx"]);
  });
});

describe("createVerifier: sending a case and judging its answer", () => {
  it("uses the id POST /things created for GET /things/{id} (escaped), skips it before one was created, and prefers a given value", async () => {
    const server = await deployment(conforming);
    const plan = planVerification(spec, { allowSideEffects: true });
    const fresh = createVerifier(spec, validator, {
      baseUrl: server.baseUrl,
      apiKey: "k",
      minIntervalMs: 0,
      allowSideEffects: true,
    });
    expect(await fresh.run(planned(plan, "getThing: GET /things/{id}"))).toMatchObject({
      outcome: "skipped",
      reason: "needs the id POST /things creates, which this run did not get",
    });
    expect(fresh.requests).toBe(0);
    expect(await fresh.run(planned(plan, "createThing: POST /things"))).toMatchObject({
      outcome: "passed",
      status: 201,
    });
    const got = await fresh.run(planned(plan, "getThing: GET /things/{id}"));
    expect(got).toMatchObject({
      outcome: "passed",
      request: { method: "GET", url: `${server.baseUrl}/things/new%2F1` },
    });
    expect(await fresh.run(planned(plan, "deleteThing: DELETE /things/{id}"))).toMatchObject({
      outcome: "passed",
      status: 204,
    });
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      "POST /v1/things",
      "GET /v1/things/new%2F1",
      "DELETE /v1/things/new%2F1",
    ]);

    const given = planVerification(spec, { params: { id: "mine" } });
    const withParam = createVerifier(spec, validator, {
      baseUrl: `${server.baseUrl}//`,
      minIntervalMs: 0,
      params: { id: "mine" },
    });
    expect(await withParam.run(planned(given, "getThing: GET /things/{id}"))).toMatchObject({ outcome: "passed" });
    expect(server.seen.at(-1)!.url).toBe("/v1/things/mine");
    // A negative case sends the value given, never waits for an id a POST creates.
    expect(await withParam.run(planned(given, "getThing: without API key"))).toMatchObject({
      status: 200,
      request: { url: `${server.baseUrl}/things/mine` },
    });
    // On the mock, the example stands: no id is needed from a POST.
    const onMock = createVerifier(spec, validator, { baseUrl: server.baseUrl, target: "mock" });
    expect(
      await onMock.run(planned(planVerification(spec, { target: "mock" }), "getThing: GET /things/{id}")),
    ).toMatchObject({ outcome: "passed" });
    expect(server.seen.at(-1)!.url).toBe("/v1/things/t-0");
  });

  it("remembers only an id that is a string in a conforming answer", async () => {
    let created: unknown = { data: { id: 7 } };
    const server = await deployment((method, url) =>
      method === "POST" ? { status: 201, body: created } : conforming(method, url),
    );
    const plan = planVerification(spec, { allowSideEffects: true });
    const verifier = createVerifier(spec, validator, {
      baseUrl: server.baseUrl,
      minIntervalMs: 0,
      allowSideEffects: true,
    });
    expect((await verifier.run(planned(plan, "createThing: POST /things"))).outcome).toBe("failed"); // id must be a string
    expect((await verifier.run(planned(plan, "getThing: GET /things/{id}"))).outcome).toBe("skipped");
    created = { data: { id: "x", extra: 1 }, more: true };
    expect((await verifier.run(planned(plan, "createThing: POST /things"))).outcome).toBe("passed");
    expect(await verifier.run(planned(plan, "getThing: GET /things/{id}"))).toMatchObject({
      outcome: "passed",
      status: 200,
    });
    expect(server.seen.at(-1)!.url).toBe("/v1/things/x");
  });

  it("sends the key on keyed operations only, never on a case without the key or when none is given; no body on GET", async () => {
    const server = await deployment((method, url) =>
      url.startsWith("/v1/things?") && !url.includes("kind=a")
        ? { status: 400, body: { message: "no" } }
        : conforming(method, url),
    );
    const plan = planVerification(spec, { target: "mock", allowSideEffects: true });
    const keyed = createVerifier(spec, validator, { baseUrl: server.baseUrl, target: "mock", apiKey: "the-key" });
    for (const name of ["listThings: GET /things", "open: GET /open", "listThings: without API key"])
      await keyed.run(planned(plan, name));
    const unkeyed = createVerifier(spec, validator, { baseUrl: server.baseUrl, target: "mock" });
    await unkeyed.run(planned(plan, "listThings: GET /things"));
    expect(server.seen.map((s) => [s.url, s.headers[KEY] ?? null])).toEqual([
      ["/v1/things?kind=a", "the-key"],
      ["/v1/open", null],
      ["/v1/things", null],
      ["/v1/things?kind=a", null],
    ]);
    expect(server.seen[0]!.headers.accept).toBe("application/json");
  });

  it("fails a positive case for the status it got (with a hint for 404) or for its violations, counted", async () => {
    const answers: Record<string, Answer> = {
      "GET /v1/things?kind=a": { status: 404, body: { message: "no" } },
      "GET /v1/open": { status: 200, body: {} },
      "GET /v1/groups/g/items/i": { status: 202 },
      "GET /v1/things/t-0": { status: 200, body: { data: { id: 1 } } },
      "DELETE /v1/things/t-0": { status: 200, body: { data: 1, x: 2 } },
    };
    const server = await deployment((method, url) => answers[`${method} ${url}`] ?? { status: 500 });
    const plan = planVerification(spec, { target: "mock" });
    const verifier = createVerifier(spec, validator, { baseUrl: server.baseUrl, target: "mock", apiKey: "k" });
    const run = (name: string) => verifier.run(planned(plan, name));

    const notFound = await run("listThings: GET /things");
    expect(notFound).toMatchObject({
      outcome: "failed",
      status: 404,
      reason: "answered 404, not its documented success 200 (not found: is the operation deployed at this base URL?)",
    });
    expect(notFound.violations.map((v) => v.kind)).toEqual(["unexpected-status"]);
    // Only `default` documents /open: any 2xx conforms, none is its documented success.
    const open = await run("open: GET /open");
    expect(open).toMatchObject({
      outcome: "failed",
      reason: "answered 200, not its documented success (none documented)",
    });
    expect(open.violations).toEqual([
      {
        kind: "unexpected-status",
        location: "status",
        pointer: "",
        message: "GET /open: expected a documented 2xx, got 200",
      },
    ]);
    const item = await run("getItem: GET /groups/{group}/items/{item}");
    expect(item.reason).toBe("answered 202, not its documented success 200 or 201");
    expect(item.violations.map((v) => [v.kind, v.message])).toEqual([
      ["undocumented-status", "GET /groups/{group}/items/{item}: status 202 is not documented"],
    ]);
    expect((await run("getThing: GET /things/{id}")).reason).toBe("answered 200, breaking the contract: 1 violation");
    expect((await run("deleteThing: DELETE /things/{id}")).reason).toBe("answered 200, not its documented success 204");
    expect(verifier.requests).toBe(5);
    expect(verifier.answers).toBe(5);
  });

  it("passes any 2xx where the success is documented as 2XX, and nothing else", async () => {
    let status = 200;
    const server = await deployment(() => ({ status }));
    const verifier = createVerifier(spec, validator, { baseUrl: server.baseUrl, target: "mock", apiKey: "k" });
    const ranged = planned(planVerification(spec, { target: "mock" }), "ranged: GET /ranged");
    const outcome = async (answer: number) => {
      status = answer;
      const r = await verifier.run(ranged);
      return r.outcome === "passed" ? "passed" : r.reason;
    };
    expect(await outcome(200)).toBe("passed");
    expect(await outcome(299)).toBe("passed");
    expect(await outcome(204)).toBe("passed");
    expect(await outcome(300)).toBe(
      "answered 300, not its documented success 2XX (a redirect: verify does not follow redirects)",
    );
    expect(await outcome(500)).toBe("answered 500, not its documented success 2XX");
  });

  it("judges a refusal: a 4xx that conforms passes; a success, a 5xx, a 404 or 405, or a refusal that breaks the contract fails", async () => {
    let answer: Answer = { status: 400, body: { message: "no" } };
    const server = await deployment(() => answer);
    const plan = planVerification(spec, {});
    const verifier = createVerifier(spec, validator, { baseUrl: server.baseUrl, minIntervalMs: 0, apiKey: "k" });
    const negative = planned(plan, "listThings: query kind outside its enum");
    const outcome = async (a: Answer) => {
      answer = a;
      const r = await verifier.run(negative);
      return r.outcome === "passed" ? "passed" : r.reason;
    };
    expect(await outcome({ status: 400, body: { message: "no" } })).toBe("passed");
    expect(await outcome({ status: 409, body: { message: "no" } })).toBe("passed"); // any refusal, on a deployment
    expect(await outcome({ status: 499, body: { message: "no" } })).toBe("passed");
    expect(await outcome({ status: 200, body: { data: [] } })).toBe("expected a 4xx refusal, got 200");
    expect(await outcome({ status: 399, body: {} })).toBe(
      "expected a 4xx refusal, got 399 (a redirect: verify does not follow redirects)",
    );
    expect(await outcome({ status: 500, body: {} })).toBe("expected a 4xx refusal, got 500");
    expect(await outcome({ status: 404, body: { message: "no" } })).toBe(
      "answered 404: the operation is not there (expected a refusal of this request, not 404)",
    );
    expect(await outcome({ status: 405, body: { message: "no" } })).toBe(
      "answered 405: the operation is not there (expected a refusal of this request, not 405)",
    );
    expect(await outcome({ status: 400, body: { nope: 1 } })).toBe("the 400 refusal breaks the contract: 1 violation");
    expect(await outcome({ status: 400, body: [1] })).toBe("the 400 refusal breaks the contract: 1 violation");
    expect(await outcome({ status: 422 })).toBe("the 422 refusal breaks the contract: 1 violation");
    answer = { status: 400, body: { message: 5, extra: true } };
    const twice = await verifier.run(planned(plan, "listThings: without API key"));
    expect(twice.reason).toBe("the 400 refusal breaks the contract: 1 violation");
  });

  it("on the mock, a refusal must be the one the case is about: 401 without the key (when documented), else 400 or 422", async () => {
    let answer: Answer = { status: 401, body: { message: "no" } };
    const server = await deployment(() => answer);
    const plan = planVerification(spec, { target: "mock" });
    const verifier = createVerifier(spec, validator, { baseUrl: server.baseUrl, target: "mock", apiKey: "k" });
    const reason = async (name: string, a: Answer) => {
      answer = a;
      const r = await verifier.run(planned(plan, name));
      return r.outcome === "passed" ? "passed" : r.reason;
    };
    expect(await reason("getThing: without API key", { status: 401, body: { message: "no" } })).toBe("passed");
    expect(await reason("getThing: without API key", { status: 403, body: { message: "no" } })).toBe(
      "expected 401, got 403",
    );
    // listThings documents no 401 of its own: any refusal will do.
    expect(await reason("listThings: without API key", { status: 403, body: { message: "no" } })).toBe("passed");
    expect(await reason("listThings: query kind outside its enum", { status: 400, body: { message: "no" } })).toBe(
      "passed",
    );
    expect(await reason("listThings: query kind outside its enum", { status: 422, body: { message: "no" } })).toBe(
      "passed",
    );
    expect(await reason("listThings: query kind outside its enum", { status: 409, body: { message: "no" } })).toBe(
      "expected 400 or 422, got 409",
    );
    expect(await reason("listThings: query kind outside its enum", { status: 401, body: { message: "no" } })).toBe(
      "expected 400 or 422, got 401",
    );
  });

  it("paces requests: asks its clock for minIntervalMs before each request but the first, 1000 ms by default on a deployment, none on the mock", async () => {
    const server = await deployment(conforming);
    const list = planned(planVerification(spec, { target: "mock" }), "listThings: GET /things");
    const pausesOf = async (options: Partial<Parameters<typeof createVerifier>[2]>) => {
      const clock = fakeClock();
      const verifier = createVerifier(spec, validator, { baseUrl: server.baseUrl, apiKey: "k", clock, ...options });
      for (let i = 0; i < 3; i++) await verifier.run(list);
      return clock.pauses;
    };
    expect(await pausesOf({})).toEqual([1000, 1000]);
    expect(await pausesOf({ minIntervalMs: 150 })).toEqual([150, 150]);
    expect(await pausesOf({ target: "mock" })).toEqual([]);
    expect(await pausesOf({ target: "mock", minIntervalMs: 40 })).toEqual([40, 40]);
    expect(server.seen).toHaveLength(12);
  });

  it("paces from the end of one exchange to the start of the next: a slow answer does not shorten the pause", async () => {
    const clock = fakeClock();
    const server = await deployment((method, url) => {
      clock.advance(300); // the answer takes 300 ms of the verifier's time
      return conforming(method, url);
    });
    const list = planned(planVerification(spec, { target: "mock" }), "listThings: GET /things");
    const verifier = createVerifier(spec, validator, {
      baseUrl: server.baseUrl,
      apiKey: "k",
      minIntervalMs: 200,
      clock,
    });
    await verifier.run(list);
    await verifier.run(list);
    expect(clock.pauses).toEqual([200]);
    expect(server.seen.map((s) => s.clockAt)).toEqual([0, 500]);
  });

  it("checks the pause again after a sleep that ends early, and sleeps what is left", async () => {
    const clock = fakeClock({ shortBy: 30 });
    const server = await deployment(conforming);
    const list = planned(planVerification(spec, { target: "mock" }), "listThings: GET /things");
    const verifier = createVerifier(spec, validator, {
      baseUrl: server.baseUrl,
      apiKey: "k",
      minIntervalMs: 100,
      clock,
    });
    await verifier.run(list);
    await verifier.run(list);
    expect(clock.pauses).toEqual([100, 30]);
    expect(server.seen).toHaveLength(2);
  });

  it("sleeps for real with no clock given: arrivals at least minIntervalMs apart", async () => {
    const server = await deployment(conforming);
    const list = planned(planVerification(spec, { target: "mock" }), "listThings: GET /things");
    const verifier = createVerifier(spec, validator, { baseUrl: server.baseUrl, apiKey: "k", minIntervalMs: 150 });
    await verifier.run(list);
    await verifier.run(list);
    // The pause runs from the end of one exchange (after this server saw the request), re-checked after each sleep.
    expect(server.seen[1]!.at - server.seen[0]!.at).toBeGreaterThanOrEqual(150);
  });

  it("gives up on a request after timeoutMs, with the reason", async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    closers.push(
      () =>
        new Promise((resolve) => {
          for (const socket of sockets) socket.destroy();
          silent.close(() => resolve());
        }),
    );
    const host = `127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
    const verifier = createVerifier(spec, validator, {
      baseUrl: `http://${host}/v1`,
      apiKey: "k",
      timeoutMs: 100,
      target: "mock",
    });
    const result = await verifier.run(planned(planVerification(spec, { target: "mock" }), "listThings: GET /things"));
    expect(result).toMatchObject({
      outcome: "failed",
      noAnswer: `${host} did not answer within 0.1 s`,
      reason: `no answer: ${host} did not answer within 0.1 s`,
      request: { method: "GET", url: `http://${host}/v1/things?kind=a` },
    });
    expect(result.status).toBeUndefined();
    expect([verifier.requests, verifier.answers]).toEqual([1, 0]);
  });
});

describe("verify: the report", () => {
  it("stops sending once the first request got no answer; the skipped-by-plan cases keep their reason; onCase sees every case in order", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const seen: Array<[string, number, number]> = [];
    const report = await verify(spec, validator, {
      baseUrl: `http://127.0.0.1:${port}/v1`,
      minIntervalMs: 0,
      onCase: (r, position, total) => seen.push([r.outcome, position, total]),
    });
    const plan = planVerification(spec, {});
    expect(seen.map(([, position, total]) => [position, total])).toEqual(plan.map((_, i) => [i + 1, plan.length]));
    expect(report.unchecked).toBe(
      `cannot connect to 127.0.0.1:${port}: connection refused (ECONNREFUSED); is the service running there?`,
    );
    expect(report).toMatchObject({
      ok: false,
      requests: 1,
      target: "deployment",
      baseUrl: `http://127.0.0.1:${port}/v1`,
    });
    expect(report.cause).toBeUndefined();
    expect(report.counts).toEqual({ passed: 0, failed: 1, skipped: plan.length - 1 });
    const byName = new Map(report.results.map((r) => [r.case, r]));
    expect(byName.get("listThings: GET /things")?.noAnswer).toBe(report.unchecked);
    expect(byName.get("open: GET /open")).toEqual({
      case: "open: GET /open",
      operationId: "open",
      kind: "positive",
      outcome: "skipped",
      reason: "not sent: the target could not be checked",
      violations: [],
      warnings: [],
    });
    expect(byName.get("createThing: POST /things")?.reason).toBe(
      "POST changes state on the target (allow side effects to run it)",
    );
    expect(Date.parse(report.finishedAt)).toBeGreaterThanOrEqual(Date.parse(report.startedAt));
  });

  it("is ok only when nothing failed and a positive case passed", async () => {
    // GET /things/{id} alone: a positive case and its key-less refusal.
    const onlyItem = {
      ...thingsSpec(),
      paths: { "/things/{id}": { get: (spec.paths!["/things/{id}"] as Record<string, unknown>).get } },
    } as OpenApiDocument;
    const itemValidator = createContractValidator(onlyItem);
    const keyAware = await deployment((method, url, headers) =>
      headers[KEY] ? conforming(method, url) : { status: 401, body: { message: "no" } },
    );
    const options = { baseUrl: keyAware.baseUrl, minIntervalMs: 0, apiKey: "k" };
    const good = await verify(onlyItem, itemValidator, { ...options, params: { id: "1" } });
    expect(good).toMatchObject({ ok: true, requests: 2, counts: { passed: 2, failed: 0, skipped: 0 } });
    expect(good.cause).toBeUndefined();
    expect(good.unchecked).toBeUndefined();
    expect(Object.keys(good)).not.toContain("cause");
    // Nothing sent: nothing failed, and nothing was shown to work.
    const allSkipped = await verify(onlyItem, itemValidator, options);
    expect(allSkipped).toMatchObject({ ok: false, requests: 0, counts: { passed: 0, failed: 0, skipped: 2 } });
    // The positive case passes, the refusal does not.
    const open = await deployment(conforming);
    const letThrough = await verify(onlyItem, itemValidator, {
      ...options,
      baseUrl: open.baseUrl,
      params: { id: "1" },
    });
    expect(letThrough.results.map((r) => [r.kind, r.outcome])).toEqual([
      ["positive", "passed"],
      ["negative", "failed"],
    ]);
    expect(letThrough.ok).toBe(false);
    expect(letThrough.cause).toBeUndefined();
  });

  it("names one cause: the key refused (with or without a secret), no key given, or every answer a 404", async () => {
    const refusing = await deployment((_method, url) =>
      url === "/v1/open"
        ? { status: 200, body: {} }
        : { status: url.includes("kind") ? 401 : 403, body: { message: "no" } },
    );
    const options = { baseUrl: refusing.baseUrl, minIntervalMs: 0, params: { id: "1", group: "g", item: "i" } };
    const keyed = await verify(spec, validator, { ...options, apiKey: "k" });
    expect(keyed.cause).toBe(
      "the API key was refused: all 5 positive cases that send it were answered 401/403; check CONTRACT_API_KEY (or --api-key), and whether the service wants signed requests (CONTRACT_API_SECRET)",
    );
    const signed = await verify(spec, validator, { ...options, apiKey: "k", apiSecret: "s" });
    expect(signed.cause).toBe(
      "the API key was refused: all 5 positive cases that send it were answered 401/403; check CONTRACT_API_KEY (or --api-key) and CONTRACT_API_SECRET",
    );
    const keyless = await verify(spec, validator, options);
    expect(keyless.cause).toBe(
      "no API key was given, and all 5 positive cases that need one were answered 401/403; set CONTRACT_API_KEY (or --api-key)",
    );

    const nothing = await deployment(() => ({ status: 404, body: { message: "no" } }));
    const lost = await verify(spec, validator, { baseUrl: nothing.baseUrl, minIntervalMs: 0, apiKey: "k" });
    expect(lost.cause).toBe(`every request was answered 404: is the base URL right (${nothing.baseUrl})?`);
    // One request answered 404 proves nothing about the base URL.
    const single = { ...thingsSpec(), paths: { "/open": spec.paths!["/open"]! } } as OpenApiDocument;
    const one = await verify(single, createContractValidator(single), { baseUrl: nothing.baseUrl, minIntervalMs: 0 });
    expect(one.requests).toBe(1);
    expect(one.cause).toBeUndefined();
    // Some keyed positive case was let through: no cause.
    const mixed = await deployment((method, url) =>
      url.includes("kind") ? { status: 401, body: { message: "no" } } : conforming(method, url),
    );
    expect((await verify(spec, validator, { ...options, baseUrl: mixed.baseUrl, apiKey: "k" })).cause).toBeUndefined();
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

  it("documentedValues: the strings of every enum and const, not examples; a path example that is one needs no real value", () => {
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

  it("documentedValues: an enum inside an array (parameters, allOf) counts; enum or const inside an example does not", () => {
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

  it("sampleRequest needs a value for every path parameter, required query and required body, naming the one missing", () => {
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
    expect(sampleRequest(casesSpec, getB!, { q: "given" }).path).toBe("/b?q=given");
    expect(sampleRequest(casesSpec, postA!, { id: "a b" })).toEqual({
      method: "POST",
      path: "/a/a%20b?n=1&c=NOT_A_DOCUMENTED_VALUE&e=NOT_A_DOCUMENTED_VALUE",
      headers: { accept: "application/json", "content-type": "application/json" },
      body: '{"s":"x","i":1,"sn":2,"k":1}',
    });
    expect(sampleRequest(casesSpec, postA!, { id: "1", e: "given" }, false).path).toBe("/a/1?e=given");
    expect(positiveCases(casesSpec, [getB!], { q: "v" })).toMatchObject([
      { name: "GET /b: GET /b", kind: "positive", withoutKey: false, pathParameters: [] },
    ]);
  });

  it("breaks one rule per case: values outside an enum or const, of a type the schema does not take, a missing field, malformed JSON", () => {
    const cases = negativeCases(casesSpec, [postA!], { id: "1" });
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

describe("what a created id, a positive case's status violation and the report's verdict depend on", () => {
  /** The JSON schema of a response of the small contract, to replace. */
  const media = (document: OpenApiDocument, path: string, method: string, status: string) =>
    (
      document.paths![path] as Record<
        string,
        { responses: Record<string, { content: Record<string, { schema: object }> }> }
      >
    )[method]!.responses[status]!.content["application/json"]!;

  it("takes an id only from a conforming POST answer, only a string, never from a GET of the same path; keeps the query after it", async () => {
    const document = thingsSpec();
    media(document, "/things", "get", "200").schema = { type: "object" };
    media(document, "/things", "post", "201").schema = {
      type: "object",
      required: ["data"],
      properties: {
        data: { type: "object", properties: { id: { type: ["string", "integer"] } } },
        n: { type: "integer" },
      },
    };
    const getThing = (document.paths!["/things/{id}"] as Record<string, { parameters: object[] }>).get!;
    getThing.parameters = [
      ...getThing.parameters,
      { name: "view", in: "query", required: true, schema: { type: "string" }, example: "full" },
    ];
    let created: unknown = { data: { id: 7 } };
    const server = await deployment((method, url) =>
      method === "POST"
        ? { status: 201, body: created }
        : url.startsWith("/v1/things?")
          ? { status: 200, body: { data: { id: "listed" } } }
          : conforming(method, url),
    );
    const plan = planVerification(document, { allowSideEffects: true });
    const verifier = createVerifier(document, createContractValidator(document), {
      baseUrl: server.baseUrl,
      minIntervalMs: 0,
      allowSideEffects: true,
    });
    const run = (name: string) => verifier.run(planned(plan, name));
    const skipped = { outcome: "skipped", reason: "needs the id POST /things creates, which this run did not get" };

    expect((await run("createThing: POST /things")).outcome).toBe("passed"); // its id, 7, conforms but is no string
    expect((await run("listThings: GET /things")).outcome).toBe("passed"); // a GET's data.id is no created id
    expect(await run("getThing: GET /things/{id}")).toMatchObject(skipped);
    created = { data: { id: "broken" }, n: "not an integer" };
    expect((await run("createThing: POST /things")).outcome).toBe("failed");
    expect(await run("getThing: GET /things/{id}")).toMatchObject(skipped);
    created = { data: { id: "made" } };
    expect((await run("createThing: POST /things")).outcome).toBe("passed");
    expect((await run("listThings: GET /things")).outcome).toBe("passed");
    expect((await run("getThing: GET /things/{id}")).outcome).toBe("passed");
    expect(server.seen.at(-1)!.url).toBe("/v1/things/made?view=full");
  });

  it("a positive case answered outside its successes: the validator's 2xx violation for a refusal, its own (listing the successes) before the rest for another 2xx", async () => {
    const document = thingsSpec();
    const anything = json({ type: "object" }, {});
    (document.paths!["/open"] as Record<string, { responses: object }>).get!.responses = {
      "200": { description: "ok", ...anything },
      "201": { description: "made", ...anything },
      default: { description: "anything", ...anything },
    };
    const server = await deployment((_method, url) =>
      url === "/v1/open" ? { status: 202, body: [] } : { status: 401, body: { message: "no" } },
    );
    const plan = planVerification(document, { target: "mock" });
    const verifier = createVerifier(document, createContractValidator(document), {
      baseUrl: server.baseUrl,
      target: "mock",
      apiKey: "k",
    });

    const open = await verifier.run(planned(plan, "open: GET /open"));
    expect(open.reason).toBe("answered 202, not its documented success 200 or 201");
    expect(open.violations[0]).toEqual({
      kind: "unexpected-status",
      location: "status",
      pointer: "",
      message: "GET /open: expected 200 or 201, got 202",
    });
    expect(open.violations.slice(1).map((v) => v.location)).toEqual(["body"]);
    const refused = await verifier.run(planned(plan, "getThing: GET /things/{id}"));
    expect(refused.violations).toEqual([
      {
        kind: "unexpected-status",
        location: "status",
        pointer: "",
        message: "GET /things/{id}: expected a 2xx status, got 401",
      },
    ]);
  });

  it("a request left unanswered after the target answered others fails that case alone: the target was checked", async () => {
    const server = await deployment((method, url) => (url === "/v1/open" ? undefined : conforming(method, url)));
    const report = await verify(spec, validator, {
      baseUrl: server.baseUrl,
      apiKey: "k",
      minIntervalMs: 0,
      timeoutMs: 1000,
    }); // room for a loaded machine: only /open must time out
    expect(Object.hasOwn(report, "unchecked")).toBe(false);
    const host = new URL(server.baseUrl).host;
    expect(report.results.find((r) => r.case === "open: GET /open")).toMatchObject({
      outcome: "failed",
      noAnswer: `${host} did not answer within 1 s`,
    });
    expect(report.results.filter((r) => r.reason === "not sent: the target could not be checked")).toEqual([]);
    expect(report.requests).toBe(report.results.filter((r) => r.outcome !== "skipped").length);
    // Cases after the unanswered one were sent.
    expect(server.seen.at(-1)!.url).not.toBe("/v1/open");
  });

  it("is ok for a contract whose one operation has no negative case, when its positive case passes", async () => {
    const lone = {
      ...thingsSpec(),
      security: [],
      paths: {
        "/lone": {
          get: { operationId: "lone", responses: { "200": { description: "ok", ...json({ type: "object" }, {}) } } },
        },
      },
    } as OpenApiDocument;
    const server = await deployment(conforming);
    const report = await verify(lone, createContractValidator(lone), { baseUrl: server.baseUrl, minIntervalMs: 0 });
    expect(report.results.map((r) => [r.kind, r.outcome])).toEqual([["positive", "passed"]]);
    expect(report.ok).toBe(true);
  });

  it("the key-refused cause counts positive cases only, lists their statuses in order; one 404 among other answers is no cause", async () => {
    const options = {
      minIntervalMs: 0,
      apiKey: "k",
      allowSideEffects: true,
      params: { id: "1", group: "g", item: "i" },
    };
    // The first keyed case is answered 403, the rest 401; the negative cases outnumber the 7 positive ones.
    const refusing = await deployment((_method, url) =>
      url === "/v1/open"
        ? { status: 200, body: {} }
        : { status: url.startsWith("/v1/things?") ? 403 : 401, body: { message: "no" } },
    );
    const refused = await verify(spec, validator, { ...options, baseUrl: refusing.baseUrl });
    expect(refused.results.filter((r) => r.kind === "negative" && r.outcome !== "skipped").length).toBeGreaterThan(7);
    expect(refused.cause).toMatch(
      /^the API key was refused: all 7 positive cases that send it were answered 401\/403; /,
    );
    const partly = await deployment((method, url) =>
      url.startsWith("/v1/ranged") ? { status: 404, body: { message: "no" } } : conforming(method, url),
    );
    const lost = await verify(spec, validator, { ...options, baseUrl: partly.baseUrl });
    expect(lost.results.find((r) => r.case === "ranged: GET /ranged")?.status).toBe(404);
    expect(lost.ok).toBe(false);
    expect(lost.cause).toBeUndefined();
  });
});
