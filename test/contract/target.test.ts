// The contract suite's sender: paces requests and, with a secret (CONTRACT_API_SECRET), signs each one.
import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createSender, type Target } from "./helpers/target.js";
import { sendJson, startServer, type TestServer } from "../client/support/server.js";
import { signingHeaders } from "../client/support/spec.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const target = (baseUrl: string, apiSecret: string | undefined): Target => ({
  kind: "live",
  baseUrl,
  apiKey: "key",
  apiSecret,
  allowSideEffects: false,
  minIntervalMs: 0,
  stop: async () => {},
});

describe("contract sender", () => {
  it("signs every request when the target has a secret, and none without", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, {}));
    const signedSender = createSender(target(server.baseUrl, "contract-secret"));
    await signedSender.send({ method: "GET", url: `${server.baseUrl}/transactions/me?page=1`, headers: {}, body: undefined });
    await signedSender.send({ method: "POST", url: `${server.baseUrl}/trades/quote`, headers: { "content-type": "application/json" }, body: "{}" });
    await createSender(target(server.baseUrl, undefined)).send({
      method: "GET",
      url: `${server.baseUrl}/currencies/fiat-rates`,
      headers: {},
      body: undefined,
    });
    const [first, second, unsigned] = server.requests;
    for (const seen of [first!, second!]) {
      const timestamp = String(seen.headers[signingHeaders.timestamp]);
      expect(seen.headers[signingHeaders.signature]).toBe(
        createHmac("sha256", "contract-secret").update(`${seen.method}${seen.url}${timestamp}`).digest("hex"),
      );
    }
    expect(unsigned!.headers[signingHeaders.timestamp]).toBeUndefined();
    expect(unsigned!.headers[signingHeaders.signature]).toBeUndefined();
  });
});
