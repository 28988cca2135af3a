// verify judges each answer as the target sent it: a redirect is not followed (a 3xx is named, with where it
// points), the body's bytes are decoded keeping a byte-order mark (Response.text() would strip it), and the
// validator's header rules (a remaining count above its limit) reach the case's result. On a one-operation
// contract of its own, against a scripted server on 127.0.0.1.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";
import { createVerifier, planVerification, verify } from "../../src/verify/index.js";
import { json } from "../support/media.js";

const count = { schema: { type: "integer", minimum: 0 } };
const lone: OpenApiDocument = {
  openapi: "3.1.0",
  paths: {
    "/lone": {
      get: {
        operationId: "lone",
        responses: {
          "200": {
            description: "ok",
            headers: { "X-RateLimit-Limit": count, "X-RateLimit-Remaining": count },
            ...json({ type: "object", required: ["n"], properties: { n: { type: "integer" } } }, { n: 1 }),
          },
        },
      },
    },
  },
};
const validator = createContractValidator(lone);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}
const conforming = (): Answer => ({
  status: 200,
  headers: { "content-type": "application/json", "x-ratelimit-limit": "200", "x-ratelimit-remaining": "199" },
  body: Buffer.from('{"n":1}'),
});

let answer: Answer = conforming();
let seen: string[] = [];
let server: http.Server;
let baseUrl: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    // Any other path (where a redirect points) answers as the contract says: following one would pass.
    const { status, headers, body } = req.url === "/v1/lone" ? answer : conforming();
    res.writeHead(status, headers).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  answer = conforming();
  seen = [];
});

const positive = () => planVerification(lone, { target: "mock" }).find((c) => c.kind === "positive")!;
const runPositive = () => createVerifier(lone, validator, { baseUrl, target: "mock" }).run(positive());

describe("verify does not follow a redirect", () => {
  it("fails a 301, naming the status and where it points; the other path is never requested", async () => {
    answer = { status: 301, headers: { location: "/elsewhere" }, body: Buffer.alloc(0) };
    const result = await runPositive();
    expect(result).toMatchObject({
      outcome: "failed",
      status: 301,
      reason:
        "answered 301, not its documented success 200 (a redirect to /elsewhere: verify does not follow redirects)",
    });
    expect(result.violations.map((v) => v.kind)).toEqual(["unexpected-status", "undocumented-status"]);
    expect(seen).toEqual(["GET /v1/lone"]);
  });

  it("names a redirect among the refusals too: a negative case answered 302 fails", async () => {
    const negative = planVerification(lone, { target: "mock" }).find((c) => c.kind === "negative");
    // The lone operation has no negative case: make one from its positive case.
    const planned = negative ?? { ...positive(), kind: "negative" as const };
    answer = { status: 302, headers: { location: `${baseUrl}/login` }, body: Buffer.alloc(0) };
    const result = await createVerifier(lone, validator, { baseUrl, target: "mock" }).run(planned);
    expect(result.reason).toBe(
      `expected a 4xx refusal, got 302 (a redirect to ${baseUrl}/login: verify does not follow redirects)`,
    );
    expect(seen).toEqual(["GET /v1/lone"]);
  });

  it("does not meet the contract when every GET is redirected", async () => {
    answer = { status: 301, headers: { location: "/v2/lone" }, body: Buffer.alloc(0) };
    const report = await verify(lone, validator, { baseUrl, minIntervalMs: 0 });
    expect(report).toMatchObject({ ok: false, counts: { passed: 0, failed: 1 } });
  });
});

describe("verify reads the body's bytes", () => {
  it("fails an answer whose body begins with a byte-order mark", async () => {
    answer = { ...conforming(), body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"n":1}')]) };
    const result = await runPositive();
    expect(result.outcome).toBe("failed");
    expect(result.violations).toEqual([
      {
        kind: "invalid-json",
        location: "body",
        pointer: "",
        message: "GET /lone 200: body begins with a byte-order mark (U+FEFF), which RFC 8259 forbids a sender to add",
      },
    ]);
  });

  it("passes the same body without one", async () => {
    expect((await runPositive()).outcome).toBe("passed");
  });
});

describe("verify applies the validator's header rules", () => {
  it("fails an answer whose X-RateLimit-Remaining exceeds its X-RateLimit-Limit", async () => {
    answer = { ...conforming(), headers: { ...conforming().headers, "x-ratelimit-remaining": "201" } };
    const result = await runPositive();
    expect(result.outcome).toBe("failed");
    expect(result.violations.map((v) => [v.kind, v.pointer, v.message])).toEqual([
      [
        "invalid-header",
        "/x-ratelimit-remaining",
        "GET /lone 200: header x-ratelimit-remaining (201) exceeds x-ratelimit-limit (200)",
      ],
    ]);
  });
});
