// CORS on the mock, over real sockets: a preflight answered by the mock itself (204, what it asked for), a
// GET that carries preflight headers answered as a GET (prism-answers.test.ts), and every answer's CORS headers
// for any origin, or the request's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { smallSpec } from "./support/small-spec.js";

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMock({ spec: smallSpec() });
});
afterAll(() => mock?.stop());

describe("CORS", () => {
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

  it("answers a request without Origin with CORS headers for any origin", async () => {
    const response = await fetch(`${mock.baseUrl}/nowhere`);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-headers")).toBe("*");
    const withOrigin = await fetch(`${mock.baseUrl}/nowhere`, {
      headers: { origin: "http://127.0.0.1:9", "access-control-request-headers": "x-a" },
    });
    expect(withOrigin.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:9");
    expect(withOrigin.headers.get("access-control-allow-headers")).toBe("x-a");
  });
});
