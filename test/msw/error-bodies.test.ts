// Every error the ./msw handlers answer has the error body the service's Errors page publishes, as the mock's:
// its message says what went wrong, each finding of sl-violations is one item, with `property` where it has a
// place. The refusals both fronts share (test/support/error-body.ts), asked through msw's getResponse; and the
// package's typed client, intercepted by msw/node, reads the body as the contract's ErrorBody.
import { getResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, createClient, MOCK_BASE_URL, unwrap } from "../../src/index.js";
import { createHandlers } from "../../src/msw/index.js";
import { errorCases, expectErrorBody, expectErrorCase } from "../support/error-body.js";
import { API_KEY_HEADER } from "../support/spec.js";

const handlers = createHandlers();
const cases = errorCases(API_KEY_HEADER, 0).filter((errorCase) => errorCase.fronts === "both");

describe("each refusal of the handlers has the published error body, naming its cause", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", async (_, errorCase) => {
    const request = new Request(`${MOCK_BASE_URL}${errorCase.path}`, {
      method: errorCase.method,
      headers: errorCase.headers,
      body: errorCase.body,
    });
    const response = await getResponse(handlers, request);
    expect(response, "a handler answered").toBeDefined();
    await expectErrorCase(response!, errorCase);
  });
});

describe("the typed client on the handlers", () => {
  const server = setupServer(...handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterAll(() => server.close());

  it("reads a refusal's body as the contract's ErrorBody: message and findings", async () => {
    const [noKey] = cases.filter((errorCase) => errorCase.status === 401);
    const client = createClient({ baseUrl: MOCK_BASE_URL, retry: false });
    // Typed as one keyed GET without parameters: every operation's error is the contract's ErrorBody.
    const { error, response } = await client.GET(noKey!.path as "/trades/summary/me");
    expect(response.status).toBe(401);
    // An object error body is typed as published (another JSON type also passes the contract).
    const published = typeof error === "object" && error !== null && !Array.isArray(error) ? error : undefined;
    const message: string | undefined = published?.message;
    expect(message).toMatch(noKey!.cause);
    const thrown = await unwrap(client.GET(noKey!.path as "/trades/summary/me")).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ApiError);
    expectErrorBody((thrown as ApiError).body, 401, noKey!.cause);
  });
});
