// The contract middleware reads the operation from the request's path only when the request went below the client's
// base URL: one a middleware sent to another origin is taken for the path the call named (a literal path of the spec
// wins only where the base URL's own server was asked).
import { afterEach, describe, expect, it } from "vitest";
import type { Middleware } from "openapi-fetch";
import { contractMiddleware, type ContractResult } from "../../src/contract/index.js";
import { createClient } from "../../src/index.js";
import { sendJson, startServer, type TestServer } from "../client/support/server.js";
import { operationIdOf, sharedValidator } from "../support/spec.js";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe("contractMiddleware and the request's origin", () => {
  it("a request a middleware sent to another origin is matched by the path the call named, not by its own path", async () => {
    // Both answer 200 with an empty object, which no operation documents: the middleware reports the operation it chose.
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
