// The mock says it is this package's mock: every answer of the HTTP mock (served answers, its own refusals,
// Prism's refusals, a request Node's parser refuses, a CORS preflight) and of ./msw's handlers carries
// MOCK_IDENTITY_HEADER with the package's version. It is the mock's header, not the API's: the contract
// validator accepts answers that carry it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MOCK_IDENTITY_HEADER, PACKAGE_VERSION, type StartedMock, startMock } from "../../src/mock/index.js";
import { createHandlers, MOCK_IDENTITY_HEADER as MSW_IDENTITY_HEADER } from "../../src/msw/index.js";
import { sendRaw } from "./support/raw-http.js";
import { MOCK_BASE_URL } from "../../generated/client-meta.js";
import { API_KEY_HEADER, repoRoot, sharedValidator } from "../support/spec.js";

const packageVersion = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string })
  .version;

describe("the identity header", () => {
  it("is named X-Api-Contract-Mock, valued the package's version, one name for the mock and ./msw", () => {
    expect(MOCK_IDENTITY_HEADER).toBe("x-api-contract-mock");
    expect(PACKAGE_VERSION).toBe(packageVersion);
    expect(MSW_IDENTITY_HEADER).toBe(MOCK_IDENTITY_HEADER);
  });
});

describe("every answer of the HTTP mock carries it", () => {
  let mock: StartedMock;
  beforeAll(async () => {
    mock = await startMock({ maxBodyBytes: 256 });
  });
  afterAll(() => mock?.stop());

  const keyed = { [API_KEY_HEADER]: "k" };
  const requests: Array<[string, () => Promise<Response>]> = [
    ["a documented answer", () => fetch(`${mock.baseUrl}/trades/summary/me`, { headers: keyed })],
    [
      "a preferred 429",
      () => fetch(`${mock.baseUrl}/trades/summary/me`, { headers: { ...keyed, prefer: "code=429" } }),
    ],
    ["Prism's 401 without the key", () => fetch(`${mock.baseUrl}/trades/summary/me`)],
    ["a 404 path", () => fetch(`${mock.baseUrl}/nowhere`, { headers: keyed })],
    ["a 405 method", () => fetch(`${mock.baseUrl}/trades/summary/me`, { method: "DELETE", headers: keyed })],
    [
      "a 400 body",
      () =>
        fetch(`${mock.baseUrl}/trades/quote`, {
          method: "POST",
          headers: { ...keyed, "content-type": "application/json" },
          body: "{",
        }),
    ],
    [
      "a 413 body",
      () =>
        fetch(`${mock.baseUrl}/trades/quote`, {
          method: "POST",
          headers: { ...keyed, "content-type": "application/json" },
          body: `"${"x".repeat(300)}"`,
        }),
    ],
    ["a 422 Prefer", () => fetch(`${mock.baseUrl}/trades/summary/me`, { headers: { ...keyed, prefer: "code=abc" } })],
    [
      "a CORS preflight",
      () =>
        fetch(`${mock.baseUrl}/trades/summary/me`, {
          method: "OPTIONS",
          headers: { origin: "http://127.0.0.1:9", "access-control-request-method": "GET" },
        }),
    ],
  ];
  for (const [name, send] of requests) {
    it(name, async () => {
      const response = await send();
      await response.arrayBuffer();
      expect(response.headers.get(MOCK_IDENTITY_HEADER)).toBe(packageVersion);
    });
  }

  it("a request Node's parser refuses", async () => {
    const answer = await sendRaw(
      mock.port,
      Buffer.from("GET /v1/trades/summary/me HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n"),
    );
    expect(answer?.status).toBe(400);
    expect(answer?.headers[MOCK_IDENTITY_HEADER]).toBe(packageVersion);
  });

  it("and the contract validator accepts the answer that carries it, strict mode included", async () => {
    const response = await fetch(`${mock.baseUrl}/trades/summary/me`, { headers: keyed });
    expect(response.headers.get(MOCK_IDENTITY_HEADER)).toBe(packageVersion);
    const result = sharedValidator().validateResponse(
      {
        method: "GET",
        path: "/trades/summary/me",
        status: response.status,
        headers: response.headers,
        bodyText: await response.text(),
      },
      { strict: true },
    );
    expect(result.violations).toEqual([]);
    expect(result.warnings).toEqual([]);
  });
});

describe("every answer of ./msw's handlers carries it", () => {
  const server = setupServer(...createHandlers());
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterAll(() => server.close());

  const keyed = { [API_KEY_HEADER]: "k" };
  const requests: Array<[string, RequestInit]> = [
    ["a documented answer", { headers: keyed }],
    ["a preferred 429", { headers: { ...keyed, prefer: "code=429" } }],
    ["a 401 without the key", {}],
    ["a 404 for an unknown example", { headers: { ...keyed, prefer: "example=no-such-example" } }],
    ["a 422 Prefer", { headers: { ...keyed, prefer: "code=abc" } }],
  ];
  for (const [name, init] of requests) {
    it(name, async () => {
      const response = await fetch(`${MOCK_BASE_URL}/trades/summary/me`, init);
      expect(response.headers.get(MOCK_IDENTITY_HEADER)).toBe(packageVersion);
    });
  }
});
