// The sandbox's last check of its answers (conformance.ts): what it finds and how it words it. An answer to no
// operation is checked as the error answer the operations share, a status nobody documents is let through, a JSON
// answer's value is what is checked (not its text), a failing body stays failing, and a body text that passed is
// taken as checked only under the same content type, whatever value it was written from.
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../src/contract/bundled.js";
import type { PipelineAnswer } from "../../src/pipeline/pipeline.js";
import { createAnswerCheck } from "../../src/sandbox/conformance.js";
import { listOperations } from "../../src/openapi/document.js";
import { BASE_PATH } from "../support/spec.js";

const RATES = `${BASE_PATH}/currencies/fiat-rates`;
const operation = listOperations(openApiDocument).find((candidate) => candidate.operationId === "getFiatRates")!;
const ratesRequest = { operation, method: "GET", path: RATES };
/** A request to a path the contract does not have: its answer answers no operation. */
const nowhere = { operation: undefined, method: "GET", path: `${BASE_PATH}/nowhere` };
const HEADERS = {
  "content-type": "application/json",
  "x-ratelimit-limit": "200",
  "x-ratelimit-remaining": "199",
  "x-ratelimit-reset": "1795896407",
};
const RATES_BODY =
  '{"message":"Request successful","data":[{"currency":"GHS","base":"USDT","buyRate":2,"sellRate":1}]}';
const good: PipelineAnswer = { status: 200, headers: HEADERS, body: RATES_BODY };
/** The same text, written from a value that is not the documented envelope. */
const wrongValue = { ...good, value: { message: 5 } } as PipelineAnswer;
const WRONG_VALUE_FINDINGS =
  "the sandbox's answer (200) breaks the contract: /data GET /currencies/fiat-rates 200: /data is required but " +
  "missing; /message GET /currencies/fiat-rates 200: /message must be string";

describe("the answer check", () => {
  it("checks an answer to no operation as the shared error answer of its status, and logs the bug", () => {
    const logged: string[] = [];
    const check = createAnswerCheck(openApiDocument, (line) => logged.push(line));
    const why = check({ status: 404, headers: HEADERS, body: '{"errors":5}' }, nowhere);
    const expected =
      "the sandbox's answer (404) breaks the contract: /message GET /currencies 404: /message is required but " +
      "missing; /errors GET /currencies 404: /errors must be array";
    expect(why).toBe(expected);
    expect(logged).toEqual([`sandbox bug: GET ${BASE_PATH}/nowhere: ${expected}`]);
  });

  it("lets through an answer to no operation with a status no operation documents", () => {
    const check = createAnswerCheck(openApiDocument, undefined);
    expect(check({ status: 302, headers: {}, body: "" }, nowhere)).toBe(undefined);
  });

  it("words a finding about the whole answer without a pointer in front", () => {
    const check = createAnswerCheck(openApiDocument, undefined);
    expect(check(good, { ...ratesRequest, path: nowhere.path })).toBe(
      `the sandbox's answer (200) breaks the contract: GET ${BASE_PATH}/nowhere is not an operation of the spec`,
    );
  });

  it("checks a JSON answer's value, not its text", () => {
    const check = createAnswerCheck(openApiDocument, undefined);
    expect(check(wrongValue, ratesRequest)).toBe(WRONG_VALUE_FINDINGS);
  });

  it("finds a failing body again the second time", () => {
    const check = createAnswerCheck(openApiDocument, undefined);
    const failing = { ...good, body: '{"message":"Request successful"}' };
    const why =
      "the sandbox's answer (200) breaks the contract: /data GET /currencies/fiat-rates 200: " +
      "/data is required but missing";
    expect([check(failing, ratesRequest), check(failing, ratesRequest)]).toEqual([why, why]);
  });

  it("takes a text that passed as checked under its content type only", () => {
    const check = createAnswerCheck(openApiDocument, undefined);
    expect(check(good, ratesRequest)).toBe(undefined);
    // Check once, send many: the same text again has only its headers checked, whatever value it came from.
    expect(check(wrongValue, ratesRequest)).toBe(undefined);
    const otherType = { ...wrongValue, headers: { ...HEADERS, "content-type": "application/json; charset=utf-8" } };
    expect(check(otherType, ratesRequest)).toBe(WRONG_VALUE_FINDINGS);
  });
});
