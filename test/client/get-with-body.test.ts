// A GET or HEAD with a body (the types forbid it; a cast or plain JavaScript can still send one) is refused at once
// with a TypeError, whether or not a middleware is registered: fetch cannot send it, and it must not be taken for a
// network failure and retried.
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/index.js";
import { successExample } from "../support/spec.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("a GET or HEAD with a body", () => {
  it.each([
    ["GET", "without middleware", false],
    ["GET", "with a middleware", true],
    ["HEAD", "without middleware", false],
    ["HEAD", "with a middleware", true],
  ] as const)("%s is refused with a TypeError before anything is sent, %s", async (method, _, withMiddleware) => {
    server = await startServer((_req, res) => sendJson(res, 200, successExample("getFiatRates")));
    const retried: unknown[] = [];
    const client = createClient({
      baseUrl: server.baseUrl,
      retry: { retries: 2, baseDelayMs: 0 },
      hooks: { onRetry: (event) => retried.push(event) },
    });
    if (withMiddleware) client.use({ onRequest: () => undefined });
    // The types refuse a body here (no operation is HEAD): the call is made as plain JavaScript would make it.
    const send = client[method] as unknown as (path: string, init: unknown) => Promise<unknown>;
    const error = await send("/currencies/fiat-rates", { body: { any: "thing" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(`${method} /currencies/fiat-rates: a ${method} request has no body`);
    expect(retried).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });
});
