// How verify judges an answer (src/verify/run.ts): a positive case passes only with its documented success status
// (2XX standing for any 2xx) and a conforming answer, failing with the status it got or its violations counted; a
// negative case only with a 4xx refusal that conforms, not a 404 or 405, and on the mock only the refusal the case
// is about. On the small contract of ./support/things.ts, and on a one-operation one: durations, strictness.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";
import { createVerifier, planVerification } from "../../src/verify/index.js";
import { json } from "../support/media.js";
import { SIGNING_HEADERS } from "../support/spec.js";
import { type Answer, closeDeployments, deployment, planned, spec, thingsSpec, validator } from "./support/things.js";

afterEach(closeDeployments);

describe("createVerifier: judging an answer", () => {
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

  it("a conforming 4xx refusal passes; a success, a 5xx, a 404 or 405, a nonconforming refusal fail", async () => {
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

  it("on the mock, the refusal the case is about: 401 without the key (if documented), else 400 or 422", async () => {
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

  it("another 2xx: its own violation, listing the successes, first; a refusal: the validator's", async () => {
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
