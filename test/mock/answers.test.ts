// The mock's answers on the real contract: served under the base path, every documented example and status
// of every operation selectable with Prefer headers, each response conforming to the contract, every error
// answered with the published error body naming its cause and the rate-limit headers, and stopping when stopped.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { quoteExpiry } from "../../src/pipeline/quote-expiry.js";
import { expectErrorBody } from "../support/error-body.js";
import {
  API_KEY_HEADER,
  BASE_PATH,
  buildSampleRequest,
  deref,
  jsonMedia,
  listSpecOperations,
  loadSpec,
  mediaExamples,
  RATE_LIMIT_HEADERS,
  sharedValidator,
  successExample,
  successKey,
} from "../support/spec.js";

const spec = loadSpec();
const quotes = quoteExpiry(spec);
const validator = sharedValidator();
const operations = listSpecOperations(spec);
const keyHeader = API_KEY_HEADER;
const basePath = BASE_PATH;

describe("the Prism mock", () => {
  let mock: StartedMock;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(async () => {
    await mock?.stop();
  });

  async function call(op: (typeof operations)[number], extraHeaders: Record<string, string> = {}) {
    const sample = buildSampleRequest(spec, op);
    const response = await fetch(`${mock.baseUrl}${sample.path}`, {
      method: op.method,
      headers: { ...sample.headers, [keyHeader]: "any-value", ...extraHeaders },
      body: sample.body,
    });
    const bodyText = await response.text();
    return {
      response,
      bodyText,
      result: validator.validateResponse({
        method: op.method,
        path: op.path,
        status: response.status,
        headers: response.headers,
        bodyText,
      }),
    };
  }

  it("serves under the base path of the local server and nowhere else", async () => {
    expect(basePath).not.toBe("");
    expect(mock.baseUrl).toBe(`${mock.origin}${basePath}`);
    expect(mock.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const op = operations.find((o) => o.method === "GET" && !o.path.includes("{"))!;
    expect((await fetch(`${mock.baseUrl}${op.path}`, { headers: { [keyHeader]: "k" } })).status).toBe(
      Number(successKey(op)),
    );
    const withoutBase = await fetch(`${mock.origin}${op.path}`, { headers: { [keyHeader]: "k" } });
    await withoutBase.arrayBuffer();
    expect(withoutBase.status).toBe(404);
  });

  const namedExamples = (op: (typeof operations)[number]) =>
    mediaExamples(spec, jsonMedia(op.responses[successKey(op)]));

  it("has more named examples to ask for than operations", () => {
    expect(operations.reduce((count, op) => count + namedExamples(op).length, 0)).toBeGreaterThan(operations.length);
  });

  it.for(operations.map((op) => [op.key, op] as const))(
    "answers every named example of %s when asked with Prefer: example=…",
    async ([, op]) => {
      const success = successKey(op);
      for (const example of namedExamples(op)) {
        const { response, bodyText, result } = await call(op, { prefer: `example=${example.name}` });
        expect(response.status, `${op.operationId} ${example.name}`).toBe(Number(success));
        // a quote expires a while after its answer (quote-expiry.test.ts): compare both with the same expiry
        const sameExpiry = (body: unknown) => quotes.refresh(op, Number(success), body, 0);
        expect(sameExpiry(JSON.parse(bodyText))).toEqual(sameExpiry(example.value));
        expect(result.violations).toEqual([]);
      }
    },
  );

  it.for(operations.map((op) => [op.key, op] as const))(
    "answers every documented status of %s when asked with Prefer: code=…, with a conforming response",
    async ([, op]) => {
      for (const key of Object.keys(op.responses)) {
        const code = /^\d{3}$/.test(key) ? Number(key) : /^[1-5]XX$/i.test(key) ? Number(`${key[0]}18`) : undefined;
        if (code === undefined) continue;
        const { response, result } = await call(op, { prefer: `code=${code}` });
        expect(response.status, `${op.operationId} Prefer: code=${code}`).toBe(code);
        expect(result.violations, `${op.operationId} ${code}`).toEqual([]);
      }
    },
  );

  describe("answers every error with the published error body naming its cause, and the rate-limit headers", () => {
    const keyed = () =>
      operations.find((o) => o.security === "required" && o.method === "GET" && !o.path.includes("{"))!;
    const withBody = () => operations.find((o) => o.requestBody?.required === true)!;
    async function expectDocumented(response: Response, status: number, cause: RegExp) {
      expect(response.status).toBe(status);
      for (const header of Object.values(RATE_LIMIT_HEADERS))
        expect(response.headers.get(header), header).not.toBeNull();
      expect(response.headers.get("content-type")).toMatch(/json/);
      return expectErrorBody(await response.json(), status, cause, response.headers.get("sl-violations"));
    }

    it("a whitespace-only JSON body: 400", async () => {
      const op = withBody();
      await expectDocumented(
        await fetch(`${mock.baseUrl}${op.path}`, {
          method: op.method,
          headers: { [keyHeader]: "k", "content-type": "application/json" },
          body: "  \n ",
        }),
        400,
        /^the JSON body is only whitespace$/,
      );
    });

    it("an empty value for a query parameter whose schema refuses it (?status=): 422", async () => {
      const op = operations.find((o) =>
        o.parameters.some((p) => p.in === "query" && (deref(spec, p.schema) as { enum?: unknown })?.enum),
      )!;
      const name = String(op.parameters.find((p) => p.in === "query")!.name);
      const response = await fetch(`${mock.baseUrl}${op.path}?${name}=`, { headers: { [keyHeader]: "k" } });
      const body = await expectDocumented(response, 422, new RegExp(`^query parameter ${name} must be one of `));
      expect(body.errors.map((finding) => finding.property)).toEqual([name]);
    });

    it("a method the path does not have: 405 with Allow", async () => {
      const op = keyed();
      const response = await fetch(`${mock.baseUrl}${op.path}`, { method: "DELETE", headers: { [keyHeader]: "k" } });
      expect(response.headers.get("allow")).toBe(op.method);
      await expectDocumented(response, 405, new RegExp(`^DELETE is not an operation of ${basePath}${op.path}$`));
    });

    it("Prefer: example=<a name the operation lacks>: Prism's 404, with the documented body and headers", async () => {
      const response = await fetch(`${mock.baseUrl}${keyed().path}`, {
        headers: { [keyHeader]: "k", prefer: "example=no-such-example" },
      });
      expect(response.headers.get("sl-violations")).toContain("NOT_FOUND");
      await expectDocumented(response, 404, /^Prism refused the request: .*NOT_FOUND/);
    });

    it("a keyed operation without its key: 401, the finding at the key's header", async () => {
      const response = await fetch(`${mock.baseUrl}${keyed().path}`);
      const body = await expectDocumented(
        response,
        401,
        new RegExp(`^the operation requires the ${keyHeader} header$`),
      );
      expect(body.errors.map((finding) => finding.property)).toEqual([keyHeader]);
    });

    it("a body that breaks its schema: 422, one finding per violation at its JSON pointer", async () => {
      const op = withBody();
      const response = await fetch(`${mock.baseUrl}${op.path}`, {
        method: op.method,
        headers: { [keyHeader]: "k", "content-type": "application/json" },
        body: JSON.stringify({ unknownField: 1 }),
      });
      const body = await expectDocumented(response, 422, /^request body: /);
      expect(body.errors.map((finding) => finding.property)).toContain("/unknownField");
    });

    it("a body of a media type the operation does not take: 415, its finding in the body", async () => {
      const op = withBody();
      const response = await fetch(`${mock.baseUrl}${op.path}`, {
        method: op.method,
        headers: { [keyHeader]: "k", "content-type": "text/plain" },
        body: "text",
      });
      await expectDocumented(response, 415, /content type/i);
    });

    it("a path no operation has: 404", async () => {
      const response = await fetch(`${mock.baseUrl}/no/such/path`);
      await expectDocumented(
        response,
        404,
        new RegExp(`^no operation of the contract has the path ${basePath}/no/such/path$`),
      );
    });
  });

  it("stops listening when stopped", async () => {
    const own = await startMock();
    const op = operations.find((o) => o.method === "GET" && !o.path.includes("{"))!;
    expect((await fetch(`${own.baseUrl}${op.path}`, { headers: { [keyHeader]: "k" } })).status).toBe(
      Number(successKey(op)),
    );
    await own.stop();
    await expect(fetch(`${own.baseUrl}${op.path}`)).rejects.toThrow();
  });

  it("answers with the documented example, not one Prism makes up, from a mock started just now", async () => {
    const own = await startMock();
    try {
      const response = await fetch(`${own.baseUrl}/currencies/fiat-rates`, { headers: { [keyHeader]: "k" } });
      expect(await response.json()).toEqual(successExample("getFiatRates"));
    } finally {
      await own.stop();
    }
  });
});
