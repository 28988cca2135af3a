// pins: answers.checked
// Every answer the sandbox sends passes the contract validator: each operation of the contract called as its
// examples describe it (modelled or not), with and without a key, and the pipeline's own refusals. An answer that
// would break the contract is a sandbox bug: answered 500 with the violation in the published error body, logged.
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../src/contract/bundled.js";
import { createRequestPipeline } from "../../src/pipeline/pipeline.js";
import { createAnswerCheck } from "../../src/sandbox/conformance.js";
import {
  API_KEY_HEADER,
  BASE_PATH,
  buildSampleRequest,
  listSpecOperations,
  loadSpec,
  RATE_LIMIT_HEADERS,
  sharedValidator,
  successExample,
} from "../support/spec.js";
import { newSandbox, ORIGIN } from "./support/sandbox.js";

const spec = loadSpec();
const operations = listSpecOperations(spec);

/** Sends an operation's sample request (its examples) with or without a key; answers the validator's verdict. */
async function sendSample(sandbox: ReturnType<typeof newSandbox>, operationId: string, key: string | null) {
  const operation = operations.find((candidate) => candidate.operationId === operationId)!;
  const sample = buildSampleRequest(spec, operation, { includeOptionalQuery: true });
  const headers = { ...sample.headers, ...(key === null ? {} : { [API_KEY_HEADER]: key }) };
  const url = `${ORIGIN}${BASE_PATH}${sample.path}`;
  const response = await sandbox.fetch(new Request(url, { method: sample.method, headers, body: sample.body }));
  const bodyText = await response.text();
  const result = sharedValidator().validateResponse({
    method: sample.method,
    path: `${BASE_PATH}${sample.path}`,
    status: response.status,
    headers: response.headers,
    bodyText,
  });
  return { status: response.status, violations: result.violations, bodyText };
}

describe("answers conform to the contract", () => {
  it.each(operations.map((operation) => operation.operationId))(
    "%s: answers its sample requests with and without a key, every answer passing the validator",
    async (operationId) => {
      const sandbox = newSandbox({ accounts: { business: { business: true } } });
      for (const key of ["business", "plain", null]) {
        const answer = await sendSample(sandbox, operationId, key);
        expect({ key, status: answer.status, violations: answer.violations }).toEqual({
          key,
          status: answer.status,
          violations: [],
        });
        expect(answer.status).not.toBe(500);
      }
      expect(sandbox.bugs).toEqual([]);
    },
  );

  it("answers a path no operation has, a method a path lacks, and malformed JSON within the contract", async () => {
    const sandbox = newSandbox();
    const send = (method: string, path: string, body?: string) =>
      sandbox.fetch(
        new Request(`${ORIGIN}${BASE_PATH}${path}`, {
          method,
          headers: { [API_KEY_HEADER]: "k", "content-type": "application/json" },
          body,
        }),
      );
    const answers = [
      await send("GET", "/no/such/path"),
      await send("DELETE", "/wallets/me"),
      await send("POST", "/trades/quote", "{"),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([404, 405, 400]);
    for (const answer of answers) expect((await answer.json()).message).toEqual(expect.any(String));
    expect(sandbox.bugs).toEqual([]);
  });

  /** The rate-limit headers an answer carries (the pipeline writes their values of the moment). */
  const limitHeaders = Object.fromEntries(Object.values(RATE_LIMIT_HEADERS).map((name) => [name, "1"]));

  /** Trades Summary answered with `data` by a checked pipeline, and what its check logged. */
  async function summaryAnswering(data: unknown) {
    const logged: string[] = [];
    const pipeline = createRequestPipeline({
      spec: openApiDocument,
      basePaths: [BASE_PATH],
      source: {
        answer: async () => ({
          kind: "answer",
          status: 200,
          headers: { "content-type": "application/json", ...limitHeaders },
          body: { message: "ok", data },
        }),
      },
      checkAnswer: createAnswerCheck(openApiDocument, (line) => logged.push(line)),
    });
    const request = { method: "GET", url: `${BASE_PATH}/trades/summary/me`, headers: { [API_KEY_HEADER]: "k" } };
    return { answer: await pipeline.handle({ ...request, body: "" }), logged };
  }

  it("checks a number that is no JSON number (JSON.stringify writes null) as the wrong type", async () => {
    const data = successExample("getTradesSummary").data as Record<string, unknown>;
    expect((await summaryAnswering(data)).answer.status).toBe(200);
    for (const notANumber of [Number.NaN, Number.POSITIVE_INFINITY]) {
      const { answer, logged } = await summaryAnswering({ ...data, totalDollarVolume: notANumber });
      expect(answer.status).toBe(500);
      expect(JSON.parse(answer.body).message).toMatch(/totalDollarVolume/);
      expect(logged).toHaveLength(1);
    }
  });

  it("answers 500 with the violation, and logs it, when an answer would break the contract", async () => {
    const { answer, logged } = await summaryAnswering({ totalDollarVolume: "a lot" });
    expect(answer.status).toBe(500);
    const body = JSON.parse(answer.body);
    expect(body.message).toMatch(/totalDollarVolume/);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/sandbox bug: GET \/v1\/trades\/summary\/me/);
    const check = sharedValidator().validateResponse({
      method: "GET",
      path: "/trades/summary/me",
      status: answer.status,
      headers: answer.headers,
      bodyText: answer.body,
    });
    expect(check.violations).toEqual([]);
  });
});
