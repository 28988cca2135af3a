// A header parameter sent with an empty value is malformed when its schema refuses "": the mock answers 422,
// as it does for any other malformed value (`x-api-signature: not-hex`), naming the header in sl-violations.
// Checked on every operation for both signing headers (the header parameters whose schemas refuse ""),
// each with an empty value and with only whitespace (which HTTP strips to empty). On a real socket.
// ./msw does not validate request headers (only the key's presence and Prefer), so it has nothing to refuse.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { API_KEY_HEADER, buildSampleRequest, listSpecOperations, loadSpec, SIGNING_HEADERS } from "../support/spec.js";

const spec = loadSpec();
const operations = listSpecOperations(spec);
const SIGNATURE = "a".repeat(64);
const TIMESTAMP = "1700000000000";

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock?.stop());

const send = (operationIndex: number, headers: Record<string, string>) => {
  const sample = buildSampleRequest(spec, operations[operationIndex]!);
  return fetch(`${mock.baseUrl}${sample.path}`, {
    method: sample.method,
    headers: { ...sample.headers, [API_KEY_HEADER]: "k", ...headers },
    body: sample.body,
  });
};
const violations = async (response: Response) => {
  await response.arrayBuffer();
  return JSON.parse(response.headers.get("sl-violations") ?? "[]") as Array<{ message: string }>;
};

describe("an empty signing header", () => {
  it("is accepted when well-formed (the baseline): every operation answers 200", async () => {
    for (const [index, op] of operations.entries()) {
      const response = await send(index, {
        [SIGNING_HEADERS.signature]: SIGNATURE,
        [SIGNING_HEADERS.timestamp]: TIMESTAMP,
      });
      await response.arrayBuffer();
      expect(response.status, op.operationId).toBe(200);
    }
  });

  for (const name of Object.values(SIGNING_HEADERS)) {
    for (const [what, value] of [
      ["empty", ""],
      ["only whitespace", "  "],
    ] as const) {
      it(`${name} ${what}: 422 on every operation, like a malformed value, naming the header`, async () => {
        for (const [index, op] of operations.entries()) {
          const other: Record<string, string> =
            name === SIGNING_HEADERS.signature
              ? { [SIGNING_HEADERS.timestamp]: TIMESTAMP }
              : { [SIGNING_HEADERS.signature]: SIGNATURE };
          const empty = await send(index, { ...other, [name]: value });
          expect(empty.status, op.operationId).toBe(422);
          const [finding, ...more] = await violations(empty);
          expect(more, op.operationId).toEqual([]);
          expect(finding, op.operationId).toMatchObject({ location: ["request", "header", name], severity: "Error" });
          expect((finding as { message: string }).message, op.operationId).toMatch(
            new RegExp(`^header parameter ${name} must match pattern`),
          );
          const malformed = await send(index, { ...other, [name]: "not-valid!" });
          await malformed.arrayBuffer();
          expect(malformed.status, op.operationId).toBe(422);
        }
      });
    }
  }
});
