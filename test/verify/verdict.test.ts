import { afterEach, describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";
import { planVerification, verify } from "../../src/verify/index.js";
import { json } from "../support/media.js";
import { closedPort } from "../support/deployments.js";
import { closeDeployments, conforming, deployment, KEY, spec, thingsSpec, validator } from "./support/things.js";

afterEach(closeDeployments);

describe("verify: the report", () => {
  it("no answer to the first request: nothing more sent, skip reasons kept, onCase sees every case", async () => {
    const port = await closedPort();
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
      "the API key was refused: all 5 positive cases that send it were answered 401/403; check CONTRACT_API_KEY " +
        "(or --api-key), and whether the service wants signed requests (CONTRACT_API_SECRET)",
    );
    const signed = await verify(spec, validator, { ...options, apiKey: "k", apiSecret: "s" });
    expect(signed.cause).toBe(
      "the API key was refused: all 5 positive cases that send it were answered 401/403; check CONTRACT_API_KEY " +
        "(or --api-key) and CONTRACT_API_SECRET",
    );
    const keyless = await verify(spec, validator, options);
    expect(keyless.cause).toBe(
      "no API key was given, and all 5 positive cases that need one were answered 401/403; set CONTRACT_API_KEY " +
        "(or --api-key)",
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

  it("a request unanswered after others were answered fails that case alone: the target was checked", async () => {
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

  it("the key-refused cause counts positive cases, statuses in order; one 404 among others is none", async () => {
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
