// Path parameters that would send a request to another endpoint ("." and ".." are dot segments that URL
// normalisation removes, "" leaves an empty segment), and a missing one, are refused before anything is sent.
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/index.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";
import { BASE_PATH, successExample } from "../support/spec.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("path parameters", () => {
  it.each([".", "..", ""])(
    "Accept Quote with quoteId %j is refused with a TypeError naming it, and nothing is sent",
    async (quoteId) => {
      server = await startServer((_req, res) => sendJson(res, 200, successExample("acceptQuote")));
      const client = createClient({ baseUrl: server.baseUrl, apiKey: "k" });
      const error = await client
        .POST("/trades/quote/{quoteId}", { params: { path: { quoteId } }, body: {} })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      const message = (error as Error).message;
      expect(message).toContain('path parameter "quoteId"');
      expect(message).toContain(JSON.stringify(quoteId));
      expect(message).toMatch(/another path/);
      expect(message).toContain("POST /trades/quote/{quoteId}");
      expect(server.requests).toHaveLength(0);
    },
  );

  it('a currency id ".." never reaches another operation (GET /networks)', async () => {
    server = await startServer((_req, res) => sendJson(res, 200, successExample("getWithdrawalCurrencyNetworks")));
    const client = createClient({ baseUrl: server.baseUrl });
    await expect(client.GET("/currencies/{id}/networks", { params: { path: { id: ".." } } })).rejects.toThrow(
      /path parameter "id" is "\.\."/,
    );
    await expect(
      client.GET("/trades/pairs/{sourceCode}/{targetCode}", {
        params: { path: { sourceCode: "USDT", targetCode: "." } },
      }),
    ).rejects.toThrow(/path parameter "targetCode" is "\."/);
    expect(server.requests).toHaveLength(0);
  });

  it("values that only contain dots, or reserved characters, are sent encoded in their own segment", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, successExample("getWithdrawalCurrencyNetworks")));
    const client = createClient({ baseUrl: server.baseUrl });
    for (const id of ["...", "a.b", ".hidden", "a/..", "%2e%2e"]) {
      const { response } = await client.GET("/currencies/{id}/networks", { params: { path: { id } } });
      expect(response.status, id).toBe(200);
    }
    expect(server.requests.map((r) => r.url)).toEqual(
      ["...", "a.b", ".hidden", "a%2F..", "%252e%252e"].map((segment) => `${BASE_PATH}/currencies/${segment}/networks`),
    );
  });

  it("a call that gives no params at all is refused the same way, naming the parameter", async () => {
    const client = createClient({ baseUrl: "http://127.0.0.1:1/v1" });
    const get = client.GET as unknown as (path: string) => Promise<unknown>;
    await expect(get("/collections/customers/{id}")).rejects.toThrow(
      new TypeError(
        'GET /collections/customers/{id}: path parameter "id" is undefined, which sends the request to another path',
      ),
    );
  });
});

describe("a missing path parameter", () => {
  it("refuses a call whose path parameter is missing, naming it, and sends nothing", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, {}));
    const api = createClient({ baseUrl: server.baseUrl, apiKey: "k" });
    await expect(api.POST("/trades/quote/{quoteId}", { params: {} as never, body: {} })).rejects.toThrow(
      new TypeError(
        'POST /trades/quote/{quoteId}: path parameter "quoteId" is undefined, which sends the request to another path',
      ),
    );
    await expect(
      api.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: null as never } }, body: {} }),
    ).rejects.toThrow('path parameter "quoteId" is null');
    expect(server.requests).toEqual([]);
  });
});
