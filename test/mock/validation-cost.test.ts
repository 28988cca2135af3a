// The work one request body can cost the mock is bounded: Prism collects every violation of a body (about
// 3 s of the event loop for a 1 MiB body of 500,000 of them, during which nothing else is answered). A
// body over FULL_REPORT_MAX_BYTES is checked first by a validator that stops at its first violation, and an
// invalid one is refused 422 with that violation only; a smaller body gets Prism's violations, at most
// MAX_VIOLATIONS of them. What is asserted is what is reported, not how long it took.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_MAX_BODY_BYTES,
  FULL_REPORT_MAX_BYTES,
  MAX_VIOLATIONS,
  type StartedMock,
  startMock,
} from "../../src/mock/index.js";
import { expectErrorBody } from "../support/error-body.js";
import { API_KEY_HEADER, listSpecOperations, loadSpec, requestExample } from "../support/spec.js";

const spec = loadSpec();
const resend = listSpecOperations(spec).find((op) => op.operationId === "resendWebhooks")!;
const example = requestExample<Record<string, unknown>>("resendWebhooks");
/** The documented example's array field: strings, so every number put in it is one violation. */
const field = Object.keys(example).find((key) => Array.isArray(example[key]))!;

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock?.stop());

/** The example with `count` numbers in its array (2 bytes each). */
const withNumbers = (count: number) => JSON.stringify({ ...example, [field]: new Array(count).fill(0) });
const post = (text: string) =>
  fetch(`${mock.baseUrl}${resend.path}`, {
    method: "POST",
    headers: { [API_KEY_HEADER]: "k", "content-type": "application/json" },
    body: text,
  });
const violations = async (response: Response) => {
  await response.arrayBuffer();
  return JSON.parse(response.headers.get("sl-violations") ?? "[]") as Array<{ location: string[]; message: string }>;
};

describe("a large invalid body", () => {
  it("just under the body limit, with a violation per item: 422 with its first violation only", async () => {
    const text = withNumbers(Math.floor((DEFAULT_MAX_BODY_BYTES - 100) / 2));
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(DEFAULT_MAX_BODY_BYTES);
    const response = await post(text);
    expect(response.status).toBe(422);
    expect(await violations(response)).toEqual([
      {
        location: ["request"],
        severity: "Error",
        message:
          `Request body property ${field}.0 must be string ` +
          `(the body is over ${FULL_REPORT_MAX_BYTES} bytes: its first violation only)`,
      },
    ]);
  });

  it("one byte over FULL_REPORT_MAX_BYTES is checked first; at the bound, Prism reports", async () => {
    const atBound = (extra: number) => {
      const base = withNumbers(1000);
      return base.replace("[", `${" ".repeat(FULL_REPORT_MAX_BYTES - Buffer.byteLength(base) + extra)}[`);
    };
    expect(Buffer.byteLength(atBound(0))).toBe(FULL_REPORT_MAX_BYTES);
    const first = await violations(await post(atBound(1)));
    expect(first).toHaveLength(1);
    expect(first[0]!.message).toMatch(/its first violation only\)$/);
    const prisms = await violations(await post(atBound(0)));
    expect(prisms.length).toBeGreaterThan(1);
    expect(prisms[0]!.location).toEqual(["request", "body", field, "0"]);
  });

  it("a large valid body still goes to Prism and is answered", async () => {
    const text = JSON.stringify({ ...example, [field]: new Array(FULL_REPORT_MAX_BYTES / 4).fill("id") });
    const response = await post(text);
    await response.arrayBuffer();
    expect(response.status).toBe(200);
  });

  it("is refused with the published error body: its first violation, saying only the first is reported", async () => {
    const response = await post(withNumbers(FULL_REPORT_MAX_BYTES));
    expect(response.status).toBe(422);
    const cause = new RegExp(
      `^Request body property ${field}\\.0 .*\\(the body is over ${FULL_REPORT_MAX_BYTES} bytes`,
    );
    expectErrorBody(await response.json(), 422, cause, response.headers.get("sl-violations"));
  });
});

describe("a small invalid body", () => {
  it(`gets Prism's violations, at most MAX_VIOLATIONS (${MAX_VIOLATIONS})`, async () => {
    const few = await violations(await post(withNumbers(3)));
    expect(few.map((v) => v.location)).toEqual([0, 1, 2].map((i) => ["request", "body", field, String(i)]));
    const many = await violations(await post(withNumbers(MAX_VIOLATIONS * 3)));
    expect(many).toHaveLength(MAX_VIOLATIONS);
    expect(many.map((v) => v.location.at(-1))).toEqual(Array.from({ length: MAX_VIOLATIONS }, (_, i) => String(i)));
  });
});
