// The wire requests observed from a real client (issue "What real clients send"), replayed byte for byte
// with node:http against the mock that `npm start` serves: each gets 200 with a body that meets the
// contract. The same answers with one timestamp turned into `2025-05-17T10:39:37+01:00` fail it.
import { createHmac } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { escapePointerToken } from "../../src/openapi/index.js";
import { setAtPointer } from "../support/json-pointer.js";
import { API_KEY_HEADER, sharedValidator } from "../support/spec.js";
import { SIGNING_HEADERS } from "../support/spec.js";

const validator = sharedValidator();
const SECRET = "observed-client-secret";
const DRIFTED = "2025-05-17T10:39:37+01:00";

interface WireRequest {
  name: string;
  method: string;
  /** Path and query as the real client sends them, base path included. */
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** The headers every observed request carries: the key, and the signature of METHOD + PATH + TIMESTAMP. */
function signed(method: string, path: string, extra: Record<string, string> = {}): Record<string, string> {
  const timestamp = String(Date.now());
  return {
    [API_KEY_HEADER]: "observed-client-key",
    [SIGNING_HEADERS.timestamp]: timestamp,
    [SIGNING_HEADERS.signature]: createHmac("sha256", SECRET).update(`${method}${path}${timestamp}`).digest("hex"),
    ...extra,
  };
}

function wireRequests(basePath: string): WireRequest[] {
  const request = (name: string, method: string, path: string, extra: Record<string, string> = {}): WireRequest => ({
    name,
    method,
    path: `${basePath}${path}`,
    headers: signed(method, `${basePath}${path}`, extra),
    body: "",
  });
  return [
    // (1) Accept Quote with no body: content-length 0 and the HTTP library's default content type.
    request("(1) Accept Quote without a body", "POST", "/trades/quote/qt_7KfR2xLm9QpZ4vNc", {
      "content-type": "application/x-www-form-urlencoded",
      "content-length": "0",
    }),
    // (2) A signed request, the description's example path.
    request("(2) a signed GET", "GET", "/currencies/fiat-rates"),
    // (3) Get User Transactions with its query parameters.
    request(
      "(3) Get User Transactions with page, pageSize and category",
      "GET",
      "/transactions/me?page=1&pageSize=30&category=DEPOSIT",
    ),
    // (4) The wallet of another currency code.
    request("(4) the NGNX wallet", "GET", "/wallets/NGNX"),
  ];
}

/** Sends exactly these headers and body (no header added but Host and Connection). */
function send(
  origin: string,
  wire: WireRequest,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; bodyText: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(wire.path, origin);
    const req = http.request(
      { host: target.hostname, port: target.port, method: wire.method, path: wire.path, headers: wire.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            bodyText: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(wire.body);
  });
}

/** JSON pointers of every string in `value` that is a timestamp of the description's form. */
function timestampPointers(value: unknown, pointer = ""): string[] {
  if (typeof value === "string") return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(value) ? [pointer] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => timestampPointers(item, `${pointer}/${i}`));
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) =>
      timestampPointers(item, `${pointer}/${escapePointerToken(key)}`),
    );
  return [];
}

/** A copy of `value` with `replacement` at `pointer`. */
function setAt(value: unknown, pointer: string, replacement: unknown): unknown {
  const copy = structuredClone(value);
  setAtPointer(copy, pointer, replacement);
  return copy;
}

let mock: StartedMock;
let requests: WireRequest[];
beforeAll(async () => {
  mock = await startMock();
  requests = wireRequests(new URL(mock.baseUrl).pathname);
});
afterAll(async () => {
  await mock?.stop();
});

describe("observed wire requests against the mock", () => {
  it.each([0, 1, 2, 3])("request %i gets 200 with a body that meets the contract", async (index) => {
    const wire = requests[index]!;
    const response = await send(mock.origin, wire);
    expect(response.status, `${wire.name}: ${response.bodyText.slice(0, 200)}`).toBe(200);
    const result = validator.validateResponse({
      method: wire.method,
      path: wire.path,
      status: response.status,
      headers: response.headers,
      bodyText: response.bodyText,
    });
    expect(result.violations, wire.name).toEqual([]);

    // The same answer with a drifted timestamp: every timestamp field, one at a time, must be caught there.
    const body = JSON.parse(response.bodyText) as unknown;
    for (const pointer of timestampPointers(body)) {
      const drifted = validator.validateResponse({
        method: wire.method,
        path: wire.path,
        status: response.status,
        headers: response.headers,
        bodyText: JSON.stringify(setAt(body, pointer, DRIFTED)),
      });
      expect(drifted.ok, `${wire.name}: ${pointer} = ${DRIFTED}`).toBe(false);
      expect(
        drifted.violations.map((v) => v.pointer),
        `${wire.name}: ${pointer}`,
      ).toContain(pointer);
    }
  });

  it("has timestamps to drift in the answers to (1), (3) and (4)", async () => {
    for (const index of [0, 2, 3]) {
      const response = await send(mock.origin, requests[index]!);
      expect(timestampPointers(JSON.parse(response.bodyText)).length, requests[index]!.name).toBeGreaterThan(0);
    }
  });

  it("sends Accept Quote exactly as observed: no body, content-length 0, a form content type", () => {
    const wire = requests[0]!;
    expect(wire.body).toBe("");
    expect(wire.headers["content-length"]).toBe("0");
    expect(wire.headers["content-type"]).toBe("application/x-www-form-urlencoded");
  });
});
