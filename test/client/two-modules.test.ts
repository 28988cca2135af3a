// The package ships an ESM and a CJS build, each with its own copy of every module. A result made by one copy
// must be unwrapped by the other with the same facts and the same redaction: nothing may depend on module state.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { bundleClient, type BundledClient, type ClientModule } from "./support/bundle.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";
import { operationIdOf } from "../support/spec.js";

const KEY = "sk_live_two_modules_KEY";
const SECRET = "whsec_two_modules_SECRET";

let bundled: BundledClient;
let esm: ClientModule;
let cjs: ClientModule;
let server: TestServer | undefined;
beforeAll(async () => {
  bundled = await bundleClient();
  esm = await bundled.loadEsm();
  cjs = bundled.loadCjs();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(async () => {
  await bundled?.remove();
});

describe("a result unwrapped by the other module format", () => {
  it("the two copies are distinct (their classes differ)", () => {
    expect(esm.ApiError).not.toBe(cjs.ApiError);
    expect(esm.unwrap).not.toBe(cjs.unwrap);
  });

  it.each([
    ["ESM client, CJS unwrap", () => ({ maker: esm, unwrapper: cjs })],
    ["CJS client, ESM unwrap", () => ({ maker: cjs, unwrapper: esm })],
  ] as const)("%s: ApiError with the call's facts and the credentials redacted", async (_, pick) => {
    const { maker, unwrapper } = pick();
    server = await startServer((_req, res) => sendJson(res, 401, { message: `bad key ${KEY}`, secret: SECRET }));
    const client = maker.createClient({ baseUrl: server.baseUrl, apiKey: KEY, apiSecret: SECRET });
    const result = await client.GET("/trades/summary/me");
    const error = await unwrapper.unwrap(result).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(unwrapper.ApiError);
    expect(error).toMatchObject({
      status: 401,
      method: "GET",
      path: "/trades/summary/me",
      operationId: operationIdOf("GET", "/trades/summary/me"),
      url: `${server.baseUrl}/trades/summary/me`,
      body: { message: "bad key [REDACTED]", secret: "[REDACTED]" },
    });
    expect(JSON.stringify(error)).not.toContain(KEY);
    expect(JSON.stringify(error)).not.toContain(SECRET);
    // What travels with the result stays out of its JSON and its keys.
    expect(Object.keys(result).sort()).toEqual(["error", "response"]);
  });
});
