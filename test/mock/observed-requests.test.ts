// Every request of §1 and §2 of the shared facts (test/spec/observed-requests.ts, written from the facts' tables),
// sent to the mock `npm start` serves as the official client sends it: the API key, signed (x-api-timestamp and
// x-api-signature by the package's signer), its query and its body. Each must get a 2xx whose answer passes the
// contract validator, so the official client's calls succeed against the mock (all but its old wallet call,
// which reads an array where the described answer is one object: that one is not in the facts' tables).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSigner } from "../../src/index.js";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { flattenSchema } from "../../src/openapi/index.js";
import { type ObservedRequest, SECTION_1, SECTION_2 } from "../spec/observed-requests.js";
import { API_KEY_HEADER, loadSpec, SIGNING_HEADERS, sharedValidator } from "../support/spec.js";

const spec = loadSpec();
const validator = sharedValidator();
// A fixed clock: the mock does not judge a signature's age.
const sign = createSigner("observed-client-secret", () => 1_700_000_000_000);

/** The first value the contract documents for the status of `schema` (its enum or x-known-values). */
function documentedStatus(schema: string): string {
  const values = flattenSchema(spec, spec.components?.schemas?.[schema]).flatMap((part) => [
    ...((part.enum as unknown[] | undefined) ?? []),
    ...((part["x-known-values"] as unknown[] | undefined) ?? []),
  ]);
  if (!values.length) throw new Error(`${schema}: no documented values`);
  return String(values[0]);
}

// No source shows the values the status filters take: a status the contract documents for such records.
const STATUSES = {
  deposit: documentedStatus("DepositStatus"),
  payout: documentedStatus("PayoutStatus"),
  invoice: documentedStatus("InvoiceStatus"),
};

const REQUESTS: ObservedRequest[] = [
  ...SECTION_1,
  ...SECTION_2.map((request) => ({ ...request, path: request.path(STATUSES) })),
];

/** The body and its content type as the client sends them (multipart built by the platform's FormData). */
async function encodeBody(body: ObservedRequest["body"]): Promise<{ bytes?: BodyInit; type?: string }> {
  if (!body) return {};
  if ("json" in body) return { bytes: JSON.stringify(body.json), type: "application/json" };
  const form = new FormData();
  form.append("file", new Blob([body.file.bytes], { type: body.file.type }), body.file.name);
  const encoded = new Response(form);
  return { bytes: await encoded.arrayBuffer(), type: encoded.headers.get("content-type") ?? undefined };
}

async function send(mock: StartedMock, request: ObservedRequest) {
  const url = `${mock.baseUrl}${request.path}`;
  const signature = await sign(request.method, url);
  const { bytes, type } = await encodeBody(request.body);
  const headers: Record<string, string> = {
    [API_KEY_HEADER]: "observed-client-key",
    [SIGNING_HEADERS.timestamp]: signature.timestamp,
    [SIGNING_HEADERS.signature]: signature.signature,
  };
  if (type) headers["content-type"] = type;
  const response = await fetch(url, { method: request.method, headers, body: bytes });
  return { response, bodyText: await response.text(), url: new URL(url) };
}

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock?.stop();
});

describe("the official client's requests of the shared facts, against the mock", () => {
  it.each(REQUESTS.map((request) => [`${request.name} (${request.sources.join(", ")})`, request] as const))(
    "%s: a 2xx that passes the contract",
    async (_name, request) => {
      const { response, bodyText, url } = await send(mock, request);
      expect(
        response.status,
        `${bodyText.slice(0, 300)} ${response.headers.get("sl-violations") ?? ""}`,
      ).toBeGreaterThanOrEqual(200);
      expect(response.status, bodyText.slice(0, 300)).toBeLessThan(300);
      const result = validator.validateResponse({
        method: request.method,
        path: url.pathname + url.search,
        status: response.status,
        headers: response.headers,
        bodyText,
      });
      expect(result.violations).toEqual([]);
    },
  );

  // documentedStatus throws when the contract documents no status: nothing to assert about STATUSES here.
  it("sends each request of the tables once", () => {
    const keys = REQUESTS.map((request) => `${request.method} ${request.path} ${JSON.stringify(request.body ?? null)}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
