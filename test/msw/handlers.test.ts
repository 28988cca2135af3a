// The ./msw entry: handlers for every operation, used as a consumer's unit tests would (msw/node's
// setupServer intercepting this package's own client), each answer checked by the contract validator.
import { getResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { contractMiddleware } from "../../src/contract/index.js";
import { ApiError, createClient, MOCK_BASE_URL, unwrap } from "../../src/index.js";
import { quoteExpiry } from "../../src/pipeline/quote-expiry.js";
import { createHandlers, createHttp } from "../../src/msw/index.js";
import {
  API_KEY_HEADER,
  buildSampleRequest,
  listSpecOperations,
  loadSpec,
  sharedValidator,
  successExample,
} from "../support/spec.js";

const spec = loadSpec();
const quotes = quoteExpiry(spec);
const operations = listSpecOperations(spec);
const server = setupServer(...createHandlers());
/** A multipart body's fields as FormData, one part each. */
const toFormData = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
};

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe("msw handlers", () => {
  it("has one handler per operation", () => {
    expect(createHandlers()).toHaveLength(operations.length);
  });

  it.for(operations.map((op) => [op.key, op] as const))(
    "answers %s with its documented success example and headers, meeting the contract",
    async ([, op]) => {
      const client = createClient({ baseUrl: MOCK_BASE_URL, apiKey: "k", retry: false });
      client.use(contractMiddleware(sharedValidator()));
      const call = client.request as unknown as (
        method: string,
        path: string,
        init: unknown,
      ) => Promise<{ data?: unknown; response: Response }>;
      const sample = buildSampleRequest(spec, op);
      const pathParams = Object.fromEntries(
        op.parameters
          .filter((p) => p.in === "path")
          .map((p) => [
            p.name,
            decodeURIComponent(sample.path.split("/")[op.path.split("/").indexOf(`{${String(p.name)}}`)]!),
          ]),
      );
      const result = await call(op.method.toLowerCase(), op.path, {
        params: { path: pathParams, query: Object.fromEntries(new URL(sample.path, "http://x.invalid").searchParams) },
        body: sample.body === undefined ? undefined : sample.bodyValue,
        // multipart/form-data (Upload Invoice Document): each field of the example is one part.
        ...(sample.multipart ? { bodySerializer: toFormData } : {}),
      });
      expect(result.response.status, op.operationId).toBe(200);
      // a quote expires a while after its answer (quote-expiry.test.ts): compare both with the same expiry
      const sameExpiry = (body: unknown) => quotes.refresh(op, 200, body, 0);
      expect(sameExpiry(result.data), op.operationId).toEqual(sameExpiry(successExample(op.operationId)));
      expect(client.rateLimit, op.operationId).toMatchObject({ limit: expect.any(Number) });
    },
  );

  it("refuses a keyed operation without the key with its documented 401, and honours Prefer", async () => {
    const keyed = operations.find((op) => op.security === "required" && op.method === "GET" && !op.path.includes("{"))!;
    const anonymous = createClient({ baseUrl: MOCK_BASE_URL, retry: false });
    const refused = await unwrap((anonymous.request as any)("get", keyed.path)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(401);
    const client = createClient({ baseUrl: MOCK_BASE_URL, apiKey: "k", retry: false });
    // A client of its own: after a 429 (Remaining 0) a client waits for the reset before its next request.
    const limitedClient = createClient({ baseUrl: MOCK_BASE_URL, apiKey: "k", retry: false });
    const limited = await (limitedClient.request as any)("get", keyed.path, { headers: { prefer: "code=429" } });
    expect(limited.response.status).toBe(429);
    const unknown = await (client.request as any)("get", keyed.path, {
      headers: { prefer: "example=no-such-example" },
    });
    expect(unknown.response.status).toBe(404);
    // A Prefer the mock cannot read: the documented 4XX with status 422, as the mock answers it.
    const malformed = await (client.request as any)("get", keyed.path, { headers: { prefer: "code=abc" } });
    expect(malformed.response.status).toBe(422);
  });

  it("lets a test override one operation with the typed http", async () => {
    const http = createHttp();
    server.use(
      http.get("/trades/summary/me", ({ response }) =>
        response(200).json({ message: "overridden", data: { totalDollarVolume: 42 } }),
      ),
    );
    const client = createClient({ baseUrl: MOCK_BASE_URL, apiKey: "k" });
    const summary = await unwrap(client.GET("/trades/summary/me"));
    expect(summary.data.totalDollarVolume).toBe(42);
  });

  it("serves under another base URL when asked", async () => {
    const other = setupServer();
    server.close();
    other.use(...createHandlers({ baseUrl: "https://staging.example.test/v1" }));
    other.listen({ onUnhandledRequest: "error" });
    try {
      const client = createClient({ baseUrl: "https://staging.example.test/v1", retry: false });
      const rates = await unwrap(client.GET("/currencies/fiat-rates"));
      expect(rates).toEqual(successExample("getFiatRates"));
    } finally {
      other.close();
      server.listen({ onUnhandledRequest: "error" });
    }
  });

  it("answers a GET that says its absent body is JSON (a client's default Content-Type) as one without", async () => {
    const request = new Request(`${MOCK_BASE_URL}/currencies/fiat-rates`, {
      headers: { "content-type": "application/json", [API_KEY_HEADER]: "k" },
    });
    const response = await getResponse(createHandlers(), request);
    expect(response?.status).toBe(200);
    expect(await response!.json()).toEqual(successExample("getFiatRates"));
  });

  it("checks the parameters under a base path of its own too: a wrong query parameter is refused 422", async () => {
    const summary = operations.find((op) => op.parameters.some((p) => p.in === "query" && p.name === "page"))!;
    const request = new Request(`https://api.example.test/api${summary.path}?page=abc`, {
      method: summary.method,
      headers: { [API_KEY_HEADER]: "k" },
    });
    const response = await getResponse(createHandlers({ baseUrl: "https://api.example.test/api" }), request);
    expect(response?.status).toBe(422);
    const { errors } = (await response!.json()) as { errors: Array<{ property?: string }> };
    expect(errors.map((finding) => finding.property)).toEqual(["page"]);
  });

  it("serves at the root of a base URL without a path", async () => {
    const request = new Request("https://api.example.test/currencies/fiat-rates");
    const response = await getResponse(createHandlers({ baseUrl: "https://api.example.test" }), request);
    expect(response?.status).toBe(200);
    expect(await response!.json()).toEqual(successExample("getFiatRates"));
  });

  it.for(["https://api.example.test/v1/", "https://api.example.test/"])(
    "serves under a base URL written with a trailing slash (%s) as under the same URL without it",
    async (baseUrl) => {
      const request = new Request(`${baseUrl}currencies/fiat-rates`);
      const response = await getResponse(createHandlers({ baseUrl }), request);
      expect(response?.status).toBe(200);
      expect(await response!.json()).toEqual(successExample("getFiatRates"));
    },
  );
});
