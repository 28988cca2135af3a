// Every error the mock answers has the error body the service's Errors page publishes (the contract's
// ErrorBody: a message, and errors with message and property): its message says what went wrong, and each
// finding of its sl-violations header is one item, with `property` where the finding has a place (a parameter
// or header name, a JSON pointer into the body). One request per refusal (test/support/error-body.ts), then a
// property over invalid requests generated from the contract with fast-check (a fresh seed each run, printed;
// ERROR_BODIES_SEED reproduces one). On a real socket.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { errorCases, expectErrorBody, expectErrorCase } from "../support/error-body.js";
import { API_KEY_HEADER, listSpecOperations, loadSpec, sharedValidator } from "../support/spec.js";
import { type FuzzRequest, requestsFor } from "./support/arbitraries.js";

const spec = loadSpec();
const validator = sharedValidator();
const MAX_BODY_BYTES = 4096;
const seed = Number(process.env.ERROR_BODIES_SEED ?? Date.now() % 2 ** 31);

let mock: StartedMock;
beforeAll(async () => {
  console.log(`error bodies: seed ${seed} (ERROR_BODIES_SEED=${seed})`);
  mock = await startMock({ maxBodyBytes: MAX_BODY_BYTES });
});
afterAll(() => mock?.stop());

describe("each refusal of the mock has the published error body, naming its cause", () => {
  it.each(errorCases(API_KEY_HEADER, MAX_BODY_BYTES).map((c) => [c.name, c] as const))("%s", async (_, errorCase) => {
    const response = await fetch(`${mock.baseUrl}${errorCase.path}`, {
      method: errorCase.method,
      headers: errorCase.headers,
      body: errorCase.body,
    });
    await expectErrorCase(response, errorCase);
  });

  it("puts a body finding's property at its JSON pointer", async () => {
    const [bodyCase] = errorCases(API_KEY_HEADER, MAX_BODY_BYTES).filter((c) => c.name.includes("field its schema"));
    const response = await fetch(`${mock.baseUrl}${bodyCase!.path}`, {
      method: bodyCase!.method,
      headers: bodyCase!.headers,
      body: bodyCase!.body,
    });
    const body = await expectErrorCase(response, bodyCase!);
    expect(body.errors.map((finding) => finding.property)).toContain("/unknownField");
  });
});

/** What the message of a generated invalid request's answer begins with, by why it is invalid. */
function causeOf(request: FuzzRequest): RegExp {
  if (request.why === "no API key") return new RegExp(`^the operation requires the ${API_KEY_HEADER} header$`);
  const query = /^query (\S+) outside its enum$/.exec(request.why);
  if (query) return new RegExp(`^query parameter ${query[1]} must be one of `);
  if (request.why === "malformed JSON") return /^(the body is not valid JSON \(.+\)|the JSON body is only whitespace)$/;
  if (request.why === "required body missing") return /^request body is required$/;
  if (request.why.startsWith("body: ")) return /^(request body|a JSON body that is null)/;
  throw new Error(`no cause known for ${request.why}`);
}

describe("every invalid request the contract's schemas generate", () => {
  const bodyIsValid = (op: ReturnType<typeof listSpecOperations>[number], body: unknown) =>
    validator.validateRequestBody(op.method, op.path, body).length === 0;

  // The operations a request can break (a key, an enum query, a body): the others have no invalid request.
  const breakable = listSpecOperations(spec).filter((op) =>
    fc.sample(requestsFor(spec, op, API_KEY_HEADER, bodyIsValid), { numRuns: 50, seed }).some((r) => !r.valid),
  );

  it("has operations to break", () => {
    expect(breakable.length).toBeGreaterThan(0);
  });

  it.for(breakable.map((op) => [op.key, op] as const))("%s", async ([, op]) => {
    const invalid = requestsFor(spec, op, API_KEY_HEADER, bodyIsValid).filter((request) => !request.valid);
    await fc.assert(
      fc.asyncProperty(invalid, async (request) => {
        const response = await fetch(`${mock.baseUrl}${request.path}`, {
          method: request.method,
          headers: request.headers,
          body: request.body,
        });
        const where = `${request.method} ${request.path} (${request.why}), seed ${seed}`;
        expect(response.status, where).toBeGreaterThanOrEqual(400);
        expect(response.status, where).toBeLessThan(500);
        const body = expectErrorBody(
          await response.json(),
          response.status,
          causeOf(request),
          response.headers.get("sl-violations"),
        );
        if (request.why.startsWith("query "))
          expect(
            body.errors.every((finding) => finding.property === request.why.split(" ")[1]),
            where,
          ).toBe(true);
      }),
      { numRuns: 10, seed, endOnFailure: true },
    );
  });
});
