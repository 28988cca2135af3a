// The id a POST case creates stands in for the last path parameter of the cases under its path
// (src/verify/run.ts): escaped, only a string from a conforming answer, never from a GET, a given value first; on a
// deployment the case is skipped until one was created, on the mock the example stands.
import { afterEach, describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";
import { createVerifier, planVerification } from "../../src/verify/index.js";
import { closeDeployments, conforming, deployment, planned, spec, thingsSpec, validator } from "./support/things.js";

afterEach(closeDeployments);

describe("createVerifier: the id a POST created", () => {
  it("uses the id POST /things created (escaped), none before it was created, a given value first", async () => {
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
    // The id must be a string.
    expect((await verifier.run(planned(plan, "createThing: POST /things"))).outcome).toBe("failed");
    expect((await verifier.run(planned(plan, "getThing: GET /things/{id}"))).outcome).toBe("skipped");
    created = { data: { id: "x", extra: 1 }, more: true };
    expect((await verifier.run(planned(plan, "createThing: POST /things"))).outcome).toBe("passed");
    expect(await verifier.run(planned(plan, "getThing: GET /things/{id}"))).toMatchObject({
      outcome: "passed",
      status: 200,
    });
    expect(server.seen.at(-1)!.url).toBe("/v1/things/x");
  });

  /** The JSON schema of a response of the small contract, to replace. */
  const media = (document: OpenApiDocument, path: string, method: string, status: string) =>
    (
      document.paths![path] as Record<
        string,
        { responses: Record<string, { content: Record<string, { schema: object }> }> }
      >
    )[method]!.responses[status]!.content["application/json"]!;

  it("takes an id only from a conforming POST, a string, never from a GET; keeps the query after it", async () => {
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
});
