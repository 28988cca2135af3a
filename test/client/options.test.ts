// createClient's and a call's option checks: each refusal is a TypeError that says what is wrong (the base URL,
// the credentials, the timeout, the size limit, fetch) and never echoes a credential.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient } from "../../src/index.js";
import { successExample } from "../support/spec.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";

let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

describe("createClient's checks: each refusal names what is wrong", () => {
  const BASE_EXAMPLE = 'Example: "https://api.example.com/v1"';
  const rates = () => successExample("getFiatRates");

  it("a blank, non-http, credentialed or unanchored base URL", () => {
    const refusal = (baseUrl: unknown) => {
      try {
        createClient({ baseUrl } as never);
      } catch (error) {
        return (error as Error).message;
      }
      return "accepted";
    };
    expect(refusal("")).toBe(
      `createClient: baseUrl is required and must be a non-empty string; got "". ${BASE_EXAMPLE}`,
    );
    expect(refusal("   ")).toBe(
      `createClient: baseUrl is required and must be a non-empty string; got string. ${BASE_EXAMPLE}`,
    );
    expect(refusal(undefined)).toBe(
      `createClient: baseUrl is required and must be a non-empty string; got undefined. ${BASE_EXAMPLE}`,
    );
    expect(refusal("xhttp://api.example.com/v1")).toBe(
      'createClient: baseUrl must be an absolute http:// or https:// URL; got "xhttp://api.example.com/v1". ' +
        BASE_EXAMPLE,
    );
    expect(refusal("https://user@api.example.com/v1")).toBe(
      `createClient: baseUrl must not contain credentials (pass the key as apiKey). ${BASE_EXAMPLE}`,
    );
    expect(refusal("https://:pw@api.example.com/v1")).toBe(
      `createClient: baseUrl must not contain credentials (pass the key as apiKey). ${BASE_EXAMPLE}`,
    );
    expect(refusal("https://api.example.com/v1/")).toBe("accepted");
  });

  it("an API key or secret that is not a string; a timeout that is not a number; a size limit per call", async () => {
    const base = "https://api.example.com/v1";
    expect(() => createClient({ baseUrl: base, apiKey: 12345 as never })).toThrow(
      "createClient: apiKey must be printable ASCII (no line breaks, control characters or surrounding spaces)",
    );
    expect(() => createClient({ baseUrl: base, apiKey: "k", apiSecret: 12345 as never })).toThrow(
      "createClient: apiSecret must be a non-empty string (no line breaks, control characters or surrounding spaces)",
    );
    expect(() => createClient({ baseUrl: base, timeoutMs: "100" as never })).toThrow(
      "createClient: timeoutMs must be a positive number of milliseconds up to 2147483647, " +
        "or Infinity to disable it; got 100",
    );
    server = await startServer((_req, res) => sendJson(res, 200, rates()));
    const api = createClient({ baseUrl: server.baseUrl });
    await expect(api.GET("/currencies/fiat-rates", { maxResponseBytes: 1.5 })).rejects.toThrow(
      new TypeError("maxResponseBytes must be a positive integer (bytes), or Infinity to disable it; got 1.5"),
    );
  });

  it("names what is wrong: no options, a fetch that is not a function", () => {
    expect(() => createClient(null as never)).toThrow(new TypeError("createClient: options are required"));
    expect(() => createClient("https://api.example.com/v1" as never)).toThrow(
      new TypeError("createClient: options are required"),
    );
    expect(() => createClient({ baseUrl: "https://api.example.com/v1", fetch: "fetch" as never })).toThrow(
      new TypeError("createClient: fetch must be a function"),
    );
  });
});
