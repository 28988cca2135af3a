// The contract middleware (src/contract/middleware.ts) on a client: it throws by default with one line per
// violation, reports to onViolation in "report" mode, counts undocumented fields as warnings only in strict mode,
// and finds the operation below the client's base URL even when that is not the spec's base path.
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { ContractViolationError, contractMiddleware, createContractValidator } from "../../src/contract/index.js";
import { createClient } from "../../src/index.js";
import { sendJson, startServer, type TestServer } from "../client/support/server.js";
import { loadSpec, RATE_LIMIT_HEADERS, successExample } from "../support/spec.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const rates = () => successExample("getFiatRates");

describe("the contract middleware", () => {
  const spec = loadSpec();
  const validator = createContractValidator(spec);

  it("throws by default, a line per violation and the call's facts; onViolation gets result and exchange", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, { unexpected: true }));
    const api = createClient({ baseUrl: server.baseUrl });
    api.use(contractMiddleware(validator));
    const error = (await api.GET("/currencies/fiat-rates").catch((e: unknown) => e)) as ContractViolationError;
    expect(error).toBeInstanceOf(ContractViolationError);
    expect(error.name).toBe("ContractViolationError");
    expect([error.method, error.url, error.status]).toEqual(["GET", `${server.baseUrl}/currencies/fiat-rates`, 200]);
    const lines = error.message.split("\n");
    expect(lines[0]).toBe(`contract violation(s) in GET ${server.baseUrl}/currencies/fiat-rates → 200:`);
    expect(lines.slice(1)).toEqual(error.result.violations.map((v) => `  - [${v.kind}] ${v.message}`));
    expect(lines.length).toBeGreaterThan(1);

    const reports: Array<{ ok: boolean; warnings: number; status: number; method: string }> = [];
    const reporting = createClient({ baseUrl: server.baseUrl });
    reporting.use(
      contractMiddleware(validator, {
        mode: "report",
        onViolation: (result, { request, response }) =>
          reports.push({
            ok: result.ok,
            warnings: result.warnings.length,
            status: response.status,
            method: request.method,
          }),
      }),
    );
    expect((await reporting.GET("/currencies/fiat-rates")).data).toEqual({ unexpected: true });
    expect(reports).toEqual([{ ok: false, warnings: 0, status: 200, method: "GET" }]);
    const silent = createClient({ baseUrl: server.baseUrl });
    silent.use(contractMiddleware(validator, { mode: "report" }));
    expect((await silent.GET("/currencies/fiat-rates")).response.status).toBe(200);
  });

  it("strict only when asked: undocumented fields are warnings then, and nothing otherwise", async () => {
    const body = { ...rates(), extraField: 1 };
    server = await startServer((_req, res) => sendJson(res, 200, body));
    const results: number[] = [];
    for (const strict of [undefined, true]) {
      const api = createClient({ baseUrl: server.baseUrl });
      api.use(
        contractMiddleware(validator, {
          mode: "report",
          ...(strict ? { strict } : {}),
          onViolation: (r) => results.push(r.warnings.length),
        }),
      );
      await api.GET("/currencies/fiat-rates");
    }
    expect(results).toEqual([1]);
  });

  it("validates the path below the client's base URL even when it is not the spec's base path", async () => {
    const validated: Array<string | undefined> = [];
    const answering = http.createServer((_req, res) => {
      res.writeHead(200, {
        "content-type": "application/json",
        ...Object.fromEntries(Object.values(RATE_LIMIT_HEADERS).map((h) => [h, "1"])),
      });
      res.end(JSON.stringify(rates()));
    });
    await new Promise<void>((resolve) => answering.listen(0, "127.0.0.1", resolve));
    try {
      const origin = `http://127.0.0.1:${(answering.address() as { port: number }).port}`;
      for (const baseUrl of [`${origin}/gateway/v1`, `${origin}/gateway/v1//`]) {
        const api = createClient({ baseUrl: `${origin}/gateway/v1` });
        const middleware = contractMiddleware(validator, {
          mode: "report",
          onViolation: (r) => validated.push(r.operation?.path),
        });
        api.use({
          onResponse: (options) =>
            middleware.onResponse!({ ...options, options: { ...options.options, baseUrl }, schemaPath: "/nope" }),
        });
        await api.GET("/currencies/fiat-rates");
      }
    } finally {
      await new Promise((resolve) => answering.close(resolve));
    }
    expect(validated).toEqual([]); // both found /currencies/fiat-rates below the base URL, and it conforms
  });
});
