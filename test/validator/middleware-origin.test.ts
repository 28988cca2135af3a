// Which path the contract middleware validates a response for: the request URL's path below the client's base URL,
// else the path the call named, else the URL. A request a middleware sent to another origin is taken for the path the
// call named (a literal path of the spec wins only where the base URL's own server was asked).
import type { Middleware } from "openapi-fetch";
import { afterEach, describe, expect, it } from "vitest";
import { type ContractResult, contractMiddleware, createContractValidator } from "../../src/contract/index.js";
import { createClient } from "../../src/index.js";
import { sendJson, startServer, type TestServer } from "../client/support/server.js";
import { operationIdOf, sharedValidator } from "../support/spec.js";
import { smallSpec } from "./support/fixtures.js";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe("contractMiddleware and the request's origin", () => {
  it("a request a middleware sent to another origin is matched by the path the call named", async () => {
    // Both answer 200 with `{}`, which no operation documents: the middleware reports the operation it chose.
    const [base, elsewhere] = await Promise.all([0, 1].map(() => startServer((_req, res) => sendJson(res, 200, {}))));
    servers.push(base!, elsewhere!);
    const toElsewhere: Middleware = {
      onRequest: ({ request }) => new Request(request.url.replace(base!.origin, elsewhere!.origin), request),
    };
    const reported: ContractResult[] = [];
    const client = createClient({ baseUrl: base!.baseUrl, retry: false });
    client.use(
      toElsewhere,
      contractMiddleware(sharedValidator(), { mode: "report", onViolation: (result) => reported.push(result) }),
    );
    await client.GET("/wallets/{currencyCode}", { params: { path: { currencyCode: "USDT" } } });
    expect([base!.requests.length, elsewhere!.requests.length]).toEqual([0, 1]);
    expect(reported[0]?.operation?.operationId).toBe(operationIdOf("GET", "/wallets/{currencyCode}"));
    expect(operationIdOf("GET", "/wallets/{currencyCode}")).not.toBe(operationIdOf("GET", "/wallets/USDT"));
  });
});

describe("the middleware's path", () => {
  const validator = createContractValidator(smallSpec());
  const respond = async (url: string, schemaPath: string, baseUrl: string | undefined) => {
    const found: ContractResult[] = [];
    const { onResponse } = contractMiddleware(validator, { mode: "report", onViolation: (r) => found.push(r) });
    const response = new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
    await onResponse!({
      request: new Request(url),
      response,
      schemaPath,
      options: baseUrl === undefined ? undefined : { baseUrl },
      id: "1",
      params: {},
    } as unknown as Parameters<NonNullable<typeof onResponse>>[0]);
    return found.map((r) => r.operation?.path ?? r.violations[0]!.message);
  };

  it("is the URL's path below the client's base URL; else the call's template; else the URL", async () => {
    expect(await respond("https://small.example.com/v1/h", "/nope", "https://small.example.com/v1/")).toEqual(["/h"]);
    expect(await respond("https://small.example.com/v1/h", "/h", "https://other.example.com/v1")).toEqual(["/h"]);
    expect(await respond("https://small.example.com/v1/h", "/h", "not a url")).toEqual(["/h"]);
    expect(await respond("https://small.example.com/v1/h", "/h", undefined)).toEqual(["/h"]);
    expect(await respond("https://small.example.com/v1/h", "", undefined)).toEqual(["/h"]);
    expect(await respond("https://small.example.com/v2/h", "", "https://small.example.com/v1")).toEqual([
      "GET https://small.example.com/v2/h is not an operation of the spec",
    ]);
    expect(await respond("https://small.example.com/v1h", "", "https://small.example.com/v1")).toEqual([
      "GET https://small.example.com/v1h is not an operation of the spec",
    ]);
  });
});
