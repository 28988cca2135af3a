// A literal path of the spec wins over a template that also matches it (`/wallets/USDT` and `/wallets/me` over
// the observed `/wallets/{currencyCode}`, `/transactions/me` over `/transactions/{transactionId}`, `/invoices/me`
// over `/invoices/{invoiceId}`), in the validator, the contract middleware, the client and the mock.
// The pairs are found in the spec; the docs check the same in test/docs/docs.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { contractMiddleware, type ContractResult } from "../../src/contract/index.js";
import { ApiError, createClient, type RequestEvent, unwrap } from "../../src/index.js";
import { sendJson, startServer } from "../client/support/server.js";
import {
  API_KEY_HEADER,
  buildSampleRequest,
  jsonMedia,
  listSpecOperations,
  loadSpec,
  mediaExamples,
  sharedValidator,
  successKey,
  type SpecOperation,
} from "../support/spec.js";

const spec = loadSpec();
const operations = listSpecOperations(spec);
const validator = sharedValidator();

const templateRegExp = (template: string) =>
  new RegExp(
    `^${template
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("[^/]+")}$`,
  );

/** [template, literal] pairs where the template matches the literal path. */
const pairs: Array<[SpecOperation, SpecOperation]> = operations.flatMap((template) =>
  template.path.includes("{")
    ? operations
        .filter(
          (literal) =>
            literal !== template &&
            literal.method === template.method &&
            !literal.path.includes("{") &&
            templateRegExp(template.path).test(literal.path),
        )
        .map((literal) => [template, literal] as [SpecOperation, SpecOperation])
    : [],
);
/** Values of the template's path parameters that make it the literal path. */
function literalParams(template: SpecOperation, literal: SpecOperation): Record<string, string> {
  const names = [...template.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const values = literal.path.split("/");
  const segments = template.path.split("/");
  return Object.fromEntries(names.map((name) => [name, values[segments.indexOf(`{${name}}`)]!]));
}
const firstExample = (op: SpecOperation) => mediaExamples(spec, jsonMedia(op.responses[successKey(op)]))[0]!.value;

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock?.stop();
});

describe("a literal path wins over a matching template", () => {
  it("finds such pairs in the spec (/wallets/USDT and /wallets/me, /transactions/me over their templates)", () => {
    expect(pairs.map(([t, l]) => `${t.method} ${l.path} < ${t.path}`)).toEqual(
      expect.arrayContaining([
        "GET /wallets/USDT < /wallets/{currencyCode}",
        "GET /wallets/me < /wallets/{currencyCode}",
        "GET /transactions/me < /transactions/{transactionId}",
      ]),
    );
  });

  it("finds GET /invoices/me over the observed GET /invoices/{invoiceId}", () => {
    expect(pairs.map(([t, l]) => `${t.method} ${l.path} < ${t.path}`)).toContain(
      "GET /invoices/me < /invoices/{invoiceId}",
    );
  });

  it.each(pairs.map(([t, l]) => [`${l.path} over ${t.path}`, t, l] as const))(
    "in the validator: %s",
    (_, template, literal) => {
      for (const candidate of [
        literal.path,
        `${mock.baseUrl}${literal.path}`,
        new URL(`${mock.baseUrl}${literal.path}`).pathname,
      ]) {
        expect(validator.findOperation(literal.method, candidate)?.operationId, candidate).toBe(literal.operationId);
      }
      const other = buildSampleRequest(spec, template).path;
      expect(other).not.toBe(literal.path);
      expect(validator.findOperation(template.method, other)?.operationId).toBe(template.operationId);
    },
  );

  it.each(pairs.map(([t, l]) => [`${l.path} over ${t.path}`, t, l] as const))(
    "in the client and its contract middleware: %s",
    async (_, template, literal) => {
      // The server answers 200 with an empty object, which no operation documents: the middleware reports
      // the operation it chose.
      const server = await startServer((_req, res) => sendJson(res, 200, {}));
      try {
        const events: RequestEvent[] = [];
        const reported: ContractResult[] = [];
        const client = createClient({
          baseUrl: server.baseUrl,
          retry: false,
          hooks: { onRequest: (e) => events.push(e) },
        });
        client.use(contractMiddleware(validator, { mode: "report", onViolation: (result) => reported.push(result) }));
        const call = client.request as unknown as (m: string, p: string, i: unknown) => Promise<unknown>;
        await call(template.method.toLowerCase(), template.path, {
          params: { path: literalParams(template, literal) },
        });
        expect(server.requests[0]!.url).toBe(`${new URL(server.baseUrl).pathname}${literal.path}`);
        expect(events[0]).toMatchObject({ operationId: literal.operationId, path: literal.path });
        expect(reported[0]?.operation?.operationId).toBe(literal.operationId);
      } finally {
        await server.close();
      }
    },
  );

  it.each(pairs.map(([t, l]) => [`${l.path} over ${t.path}`, t, l] as const))(
    "in the client's errors: %s",
    async (_, template, literal) => {
      const server = await startServer((_req, res) => sendJson(res, 404, { message: "not found" }));
      try {
        const client = createClient({ baseUrl: server.baseUrl, retry: false });
        const call = client.request as unknown as (m: string, p: string, i: unknown) => Promise<never>;
        const failed = unwrap(
          call(template.method.toLowerCase(), template.path, { params: { path: literalParams(template, literal) } }),
        );
        await expect(failed).rejects.toBeInstanceOf(ApiError);
        await expect(failed).rejects.toMatchObject({ status: 404, operationId: literal.operationId });
      } finally {
        await server.close();
      }
    },
  );

  it.each(pairs.map(([t, l]) => [`${l.path} over ${t.path}`, t, l] as const))(
    "in the mock: %s",
    async (_, template, literal) => {
      const headers = { [API_KEY_HEADER]: "any-key" };
      const literalAnswer = await fetch(`${mock.baseUrl}${literal.path}`, { method: literal.method, headers });
      expect(await literalAnswer.json()).toEqual(firstExample(literal));
      const templateAnswer = await fetch(`${mock.baseUrl}${buildSampleRequest(spec, template).path}`, {
        method: template.method,
        headers,
      });
      expect(await templateAnswer.json()).toEqual(firstExample(template));
      expect(firstExample(template)).not.toEqual(firstExample(literal));
    },
  );
});
