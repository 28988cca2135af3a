// Servers and the header names the build reads from a document (src/openapi): server paths and base paths,
// the local server, the API key, rate-limit and signing header names. Each refusal is checked with its
// message, each reader with the values it must pick (and the ones it must not).
import { describe, expect, it } from "vitest";
import {
  apiKeyHeaderName,
  basePathOf,
  localServerUrl,
  type OpenApiDocument,
  rateLimitHeaderNames,
  serverBasePaths,
  serverPath,
  signingHeaderNames,
  webhookSignatureHeaderName,
} from "../../src/openapi/index.js";

const doc = (fields: Partial<OpenApiDocument>): OpenApiDocument => ({ openapi: "3.1.0", ...fields });

describe("servers", () => {
  it("serverPath takes a URL's path without any trailing slash, and a relative URL as it is", () => {
    expect(serverPath({ url: "http://h/v1//" })).toBe("/v1");
    expect(serverPath({ url: "/p/http://h" })).toBe("/p/http://h");
  });

  it("serverBasePaths: each distinct non-root path, with a leading /, longest first; unparsable URLs name none", () => {
    const document = doc({
      servers: [
        { url: "https://a.example.com/v1/" },
        { url: "v1" },
        {
          url: "https://{region}.example.com/{version}",
          variables: { region: { default: "eu" }, version: { default: "api/v22" } },
        },
        { url: "http://[bad/x" },
        { url: "https://root.example.com/" },
        { url: "/" },
        { url: "/ab" },
      ],
    });
    expect(serverBasePaths(document)).toEqual(["/api/v22", "/v1", "/ab"]);
    expect(serverBasePaths(doc({}))).toEqual([]);
  });

  it("basePathOf: the one path all servers share, or an error listing what they say", () => {
    expect(
      basePathOf(doc({ servers: [{ url: "https://a.example.com/v1" }, { url: "http://127.0.0.1:4010/v1/" }] })),
    ).toBe("/v1");
    expect(() => basePathOf(doc({ servers: [{ url: "https://a.example.com/v1" }, { url: "/v2" }] }))).toThrow(
      'openapi: the servers must share one base path, found ["/v1","/v2"]',
    );
    expect(() => basePathOf(doc({}))).toThrow("openapi: the servers must share one base path, found []");
  });

  it("localServerUrl: exactly one server on 127.0.0.1 or localhost (not a host that only starts like one)", () => {
    const local = "http://127.0.0.1:4010/v1";
    expect(localServerUrl(doc({ servers: [{ url: "https://api.example.com/v1" }, { url: local }] }))).toBe(local);
    expect(localServerUrl(doc({ servers: [{ url: "http://localhost/v1" }] }))).toBe("http://localhost/v1");
    for (const servers of [
      [],
      [{ url: "http://localhostile.example/v1" }, { url: "https://127.0.0.1/v1" }, { url: "x http://localhost/" }],
    ]) {
      expect(() => localServerUrl(doc({ servers }))).toThrow(
        "openapi: expected exactly one local (loopback) server, found 0",
      );
    }
    expect(() => localServerUrl(doc({ servers: [{ url: local }, { url: "http://localhost:1/v1" }] }))).toThrow(
      "openapi: expected exactly one local (loopback) server, found 2",
    );
  });
});

describe("header names", () => {
  it("apiKeyHeaderName: the one apiKey scheme in a header, lower-cased", () => {
    const schemes = (securitySchemes: Record<string, unknown>) => doc({ components: { securitySchemes } });
    expect(
      apiKeyHeaderName(
        schemes({
          bearer: { type: "http", scheme: "bearer" },
          query: { type: "apiKey", in: "query", name: "key" },
          header: { type: "apiKey", in: "header", name: "X-Api-Key" },
          odd: "not an object",
        }),
      ),
    ).toBe("x-api-key");
    expect(() => apiKeyHeaderName(doc({}))).toThrow(
      "openapi: expected exactly one apiKey header security scheme, found 0",
    );
    expect(() =>
      apiKeyHeaderName(
        schemes({ a: { type: "apiKey", in: "header", name: "A" }, b: { type: "apiKey", in: "header", name: "B" } }),
      ),
    ).toThrow("openapi: expected exactly one apiKey header security scheme, found 2");
  });

  it("rateLimitHeaderNames: one …ratelimit…-limit, -remaining and -reset header each, lower-cased", () => {
    const headers = (names: string[]) =>
      doc({ components: { headers: Object.fromEntries(names.map((n) => [n, { schema: {} }])) } });
    expect(
      rateLimitHeaderNames(
        headers([
          "X-RateLimit-Limit",
          "X-RateLimit-Remaining",
          "X-RateLimit-Reset",
          "X-Other-Limit",
          "Ratelimit-Resets",
        ]),
      ),
    ).toEqual({
      limit: "x-ratelimit-limit",
      remaining: "x-ratelimit-remaining",
      reset: "x-ratelimit-reset",
    });
    expect(() => rateLimitHeaderNames(headers(["X-RateLimit-Limit", "X-RateLimit-Reset"]))).toThrow(
      "openapi: expected one rate-limit …-remaining header in components.headers, found []",
    );
    expect(() =>
      rateLimitHeaderNames(
        headers(["X-RateLimit-Limit", "RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]),
      ),
    ).toThrow(
      "openapi: expected one rate-limit …-limit header in components.headers, found " +
        '["x-ratelimit-limit","ratelimit-limit"]',
    );
    expect(() => rateLimitHeaderNames(doc({}))).toThrow(
      "openapi: expected one rate-limit …-limit header in components.headers, found []",
    );
  });

  it("signingHeaderNames: the header parameters marked x-signing timestamp and signature, lower-cased", () => {
    const parameters = (list: Record<string, unknown>) => doc({ components: { parameters: list } });
    const ts = { in: "header", name: "X-Api-Timestamp", "x-signing": "timestamp" };
    const sig = { in: "header", name: "X-Api-Signature", "x-signing": "signature" };
    expect(
      signingHeaderNames(
        parameters({
          ts,
          sig,
          query: { in: "query", name: "q", "x-signing": "timestamp" },
          unmarked: { in: "header", name: "P" },
        }),
      ),
    ).toEqual({
      timestamp: "x-api-timestamp",
      signature: "x-api-signature",
    });
    expect(() => signingHeaderNames(parameters({ ts }))).toThrow(
      "openapi: expected one header parameter with x-signing: signature, found 0",
    );
    expect(() => signingHeaderNames(parameters({ ts, ts2: { ...ts, name: "Other" }, sig }))).toThrow(
      "openapi: expected one header parameter with x-signing: timestamp, found 2",
    );
  });

  it("webhookSignatureHeaderName: the header parameter marked x-webhook-signature: true, lower-cased", () => {
    const parameters = (list: Record<string, unknown>) => doc({ components: { parameters: list } });
    const signature = { in: "header", name: "X-Obiex-Signature", "x-webhook-signature": true };
    expect(
      webhookSignatureHeaderName(
        parameters({
          signature,
          query: { in: "query", name: "q", "x-webhook-signature": true },
          unmarked: { in: "header", name: "P" },
          notTrue: { in: "header", name: "Q", "x-webhook-signature": "yes" },
        }),
      ),
    ).toBe("x-obiex-signature");
    expect(() => webhookSignatureHeaderName(parameters({}))).toThrow(
      "openapi: expected one header parameter with x-webhook-signature: true, found 0",
    );
    expect(() => webhookSignatureHeaderName(parameters({ signature, other: { ...signature, name: "B" } }))).toThrow(
      "openapi: expected one header parameter with x-webhook-signature: true, found 2",
    );
  });
});
