// The ./msw handlers and the HTTP mock share one request pipeline (src/pipeline/pipeline.ts), so they answer the
// same request alike: the same requests, valid and invalid (generated with fast-check from the contract: a
// missing API key, a body that breaks its schema, malformed JSON, a required body left out, a query value outside
// its enum), are sent to the mock over a real socket and to the handlers through msw's getResponse, both on one
// fixed clock, and get the same status, the same body and the same headers but the transport's (connection, date,
// CORS, length) and sl-violations (Prism's findings about a valid request are the mock's alone). A fresh seed each
// run, printed; HANDLERS_MATCH_SEED / HANDLERS_MATCH_RUNS reproduce or enlarge a run.
import fc from "fast-check";
import { getResponse } from "msw";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../src/mock/server.js";
import { deriveMockSpec } from "../../src/mock/spec.js";
import { createHandlers } from "../../src/msw/index.js";
import { type FuzzRequest, requestsFor } from "../mock/support/arbitraries.js";
import { API_KEY_HEADER, BASE_PATH, listSpecOperations, loadSpec, sharedValidator } from "../support/spec.js";

const spec = loadSpec();
const validator = sharedValidator();
const operations = listSpecOperations(spec);
const runs = Number(process.env.HANDLERS_MATCH_RUNS ?? 25);
const seed = Number(process.env.HANDLERS_MATCH_SEED ?? Date.now() % 2 ** 31);
/** Both fronts' clock: quote expiry and rate-limit headers are then the same. */
const NOW = Date.parse("2030-01-01T00:00:30.000Z");
const HANDLERS_BASE_URL = `http://handlers.test${BASE_PATH}`;
const handlers = createHandlers({ baseUrl: HANDLERS_BASE_URL, now: () => NOW });

/** Headers of the transport (Node's http, CORS), and Prism's findings: not the answer's. */
const TRANSPORT = /^(connection|date|keep-alive|content-length|transfer-encoding|access-control-.*|sl-violations)$/;

let mock: MockServer;
beforeAll(async () => {
  console.log(`handlers match mock: seed ${seed}, ${runs} runs per operation (HANDLERS_MATCH_SEED=${seed})`);
  mock = await startMockServer({ spec: deriveMockSpec(spec).spec, host: "127.0.0.1", port: 0, now: () => NOW });
});
afterAll(() => mock?.close());

interface Written {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function written(response: Response): Promise<Written> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!TRANSPORT.test(name)) headers[name] = value;
  });
  return { status: response.status, headers, body: await response.text() };
}

function requestTo(baseUrl: string, request: FuzzRequest): Request {
  return new Request(`${baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
}

const bodyIsValid = (op: (typeof operations)[number], body: unknown) =>
  validator.validateRequestBody(op.method, op.path, body).length === 0;

describe("the handlers answer as the mock does", () => {
  it.for(operations.map((op) => [op.key, op] as const))("%s, valid and invalid requests", async ([, op]) => {
    const requests = requestsFor(spec, op, API_KEY_HEADER, bodyIsValid);
    // One valid request always among them: drawn at random, the kinds are even, and 25 draws from five kinds
    // held no valid one about once in 250 operations.
    const [validOne] = fc.sample(
      requests.filter((request) => request.valid),
      { numRuns: 1, seed },
    );
    const kinds = new Set<string>();
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        kinds.add(request.valid ? "valid" : request.why.replace(/:.*/, ""));
        const fromMock = await written(await fetch(requestTo(`http://127.0.0.1:${mock.port}${BASE_PATH}`, request)));
        const fromHandlers = await getResponse(handlers, requestTo(HANDLERS_BASE_URL, request));
        expect(fromHandlers, `${request.why}: no handler answered`).toBeDefined();
        expect(await written(fromHandlers!), `${request.method} ${request.path} (${request.why})`).toEqual(fromMock);
      }),
      { numRuns: runs, seed, endOnFailure: true, examples: [[validOne!]] },
    );
    expect(kinds.has("valid"), [...kinds].join()).toBe(true);
  });
});
