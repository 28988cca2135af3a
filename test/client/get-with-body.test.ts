// A GET with a body (the types forbid it; a cast or plain JavaScript can still send one) is refused at once with
// a TypeError, whether or not a middleware is registered: fetch cannot send it, and it must not be taken for a
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

describe("a GET with a body", () => {
  it.each([
    ["without middleware", false],
    ["with a middleware", true],
  ])("is refused with a TypeError before anything is sent, %s", async (_, withMiddleware) => {
    server = await startServer((_req, res) => sendJson(res, 200, successExample("getFiatRates")));
    const retried: unknown[] = [];
    const client = createClient({
      baseUrl: server.baseUrl,
      retry: { retries: 2, baseDelayMs: 0 },
      hooks: { onRetry: (event) => retried.push(event) },
    });
    if (withMiddleware) client.use({ onRequest: () => undefined });
    const withBody = { body: { any: "thing" } } as unknown as Record<string, never>;
    const error = await client.GET("/currencies/fiat-rates", withBody).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/GET/);
    expect(retried).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });
});
