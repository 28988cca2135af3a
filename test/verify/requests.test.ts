// What verify sends (src/verify/send.ts, run.ts): the key on keyed operations only, the accept header, a signature
// on every request when given a secret (checked against the real contract's requests), and a time limit per
// request after which the case fails with the reason.
import { createHmac } from "node:crypto";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createVerifier, planVerification, verify } from "../../src/verify/index.js";
import { uniformDeployment } from "../support/deployments.js";
import { loadSpec, SIGNING_HEADERS, sharedValidator } from "../support/spec.js";
import {
  closeAfterTest,
  closeDeployments,
  conforming,
  deployment,
  KEY,
  planned,
  spec,
  validator,
} from "./support/things.js";

afterEach(closeDeployments);

describe("createVerifier: what a request carries", () => {
  it("sends the key on keyed operations only, not on a key-less case or when none; no body on GET", async () => {
    const server = await deployment((method, url) =>
      url.startsWith("/v1/things?") && !url.includes("kind=a")
        ? { status: 400, body: { message: "no" } }
        : conforming(method, url),
    );
    const plan = planVerification(spec, { target: "mock", allowSideEffects: true });
    const keyed = createVerifier(spec, validator, { baseUrl: server.baseUrl, target: "mock", apiKey: "the-key" });
    for (const name of ["listThings: GET /things", "open: GET /open", "listThings: without API key"])
      await keyed.run(planned(plan, name));
    const unkeyed = createVerifier(spec, validator, { baseUrl: server.baseUrl, target: "mock" });
    await unkeyed.run(planned(plan, "listThings: GET /things"));
    expect(server.seen.map((s) => [s.url, s.headers[KEY] ?? null])).toEqual([
      ["/v1/things?kind=a", "the-key"],
      ["/v1/open", null],
      ["/v1/things", null],
      ["/v1/things?kind=a", null],
    ]);
    expect(server.seen[0]!.headers.accept).toBe("application/json");
  });

  it("gives up on a request after timeoutMs, with the reason", async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    closeAfterTest(
      () =>
        new Promise((resolve) => {
          for (const socket of sockets) socket.destroy();
          silent.close(() => resolve());
        }),
    );
    const host = `127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
    const verifier = createVerifier(spec, validator, {
      baseUrl: `http://${host}/v1`,
      apiKey: "k",
      timeoutMs: 100,
      target: "mock",
    });
    const result = await verifier.run(planned(planVerification(spec, { target: "mock" }), "listThings: GET /things"));
    expect(result).toMatchObject({
      outcome: "failed",
      noAnswer: `${host} did not answer within 0.1 s`,
      reason: `no answer: ${host} did not answer within 0.1 s`,
      request: { method: "GET", url: `http://${host}/v1/things?kind=a` },
    });
    expect(result.status).toBeUndefined();
    expect([verifier.requests, verifier.answers]).toEqual([1, 0]);
  });

  it("signs every request when given a secret", async () => {
    const server = await uniformDeployment(401, {});
    try {
      await verify(loadSpec(), sharedValidator(), {
        baseUrl: server.baseUrl,
        apiKey: "k",
        apiSecret: "verify-secret",
        minIntervalMs: 0,
      });
      expect(server.seen.length).toBeGreaterThan(0);
      for (const seen of server.seen) {
        const timestamp = String(seen.headers[SIGNING_HEADERS.timestamp]);
        expect(seen.headers[SIGNING_HEADERS.signature], seen.url).toBe(
          createHmac("sha256", "verify-secret").update(`${seen.method}${seen.url}${timestamp}`).digest("hex"),
        );
      }
    } finally {
      await server.close();
    }
  });
});
