// The request pipeline's options for a stateful source (the sandbox's): an admission step that may refuse a
// request and gives headers to each of its answers (refusals included), quotes left as the source wrote them,
// and a last check of every answer that turns a wrong one into a 500. Without them the pipeline is the mock's
// (test/mock/pipeline.test.ts and the ./msw tests hold that).
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../src/contract/bundled.js";
import { createDocumentedSource } from "../../src/pipeline/documented-source.js";
import { type AdmissionRequest, createRequestPipeline } from "../../src/pipeline/pipeline.js";
import { BASE_PATH, RATE_LIMIT_HEADERS, successExample, API_KEY_HEADER } from "../support/spec.js";

const source = createDocumentedSource(openApiDocument);
const request = (method: string, path: string, body = "") => ({
  method,
  url: `${BASE_PATH}${path}`,
  headers: { [API_KEY_HEADER]: "k", ...(body ? { "content-type": "application/json" } : {}) },
  body,
});
const QUOTE_BODY = JSON.stringify({ sourceId: "USDT", targetId: "NGNX", amount: 1, side: "SELL" });

describe("request pipeline options", () => {
  it("runs the admission step first (operation, target as sent) and puts its headers on every answer", async () => {
    const seen: AdmissionRequest[] = [];
    const pipeline = createRequestPipeline({
      spec: openApiDocument,
      source,
      basePaths: [BASE_PATH],
      admit: (admission) => {
        seen.push(admission);
        return { headers: { [RATE_LIMIT_HEADERS.remaining]: "7" } };
      },
    });
    const ok = await pipeline.handle(request("GET", "/transactions/me?page=2"));
    const notFound = await pipeline.handle(request("GET", "/nowhere"));
    const invalid = await pipeline.handle(request("GET", "/transactions/me?page=x"));
    expect([ok.status, notFound.status, invalid.status]).toEqual([200, 404, 422]);
    for (const answer of [ok, notFound, invalid]) expect(answer.headers[RATE_LIMIT_HEADERS.remaining]).toBe("7");
    expect(seen.map((admission) => [admission.method, admission.target, admission.operation?.operationId])).toEqual([
      ["GET", `${BASE_PATH}/transactions/me?page=2`, "getUserTransactions"],
      ["GET", `${BASE_PATH}/nowhere`, undefined],
      ["GET", `${BASE_PATH}/transactions/me?page=x`, "getUserTransactions"],
    ]);
  });

  it("answers an admission's refusal with the published error body, before any check of the request", async () => {
    const pipeline = createRequestPipeline({
      spec: openApiDocument,
      source,
      basePaths: [BASE_PATH],
      admit: () => ({ refusal: { status: 429, why: "spent" }, headers: { [RATE_LIMIT_HEADERS.remaining]: "0" } }),
    });
    const answer = await pipeline.handle(request("GET", "/transactions/me?page=x"));
    expect(answer.status).toBe(429);
    expect(JSON.parse(answer.body)).toEqual({ message: "spent", errors: [{ message: "spent" }] });
    expect(answer.headers[RATE_LIMIT_HEADERS.remaining]).toBe("0");
  });

  it("leaves a source's quotes as written with refreshQuotes false, and refreshes them by default", async () => {
    const at = Date.UTC(2030, 0, 1);
    const make = (refreshQuotes?: boolean) =>
      createRequestPipeline({ spec: openApiDocument, source, basePaths: [BASE_PATH], now: () => at, refreshQuotes });
    const kept = JSON.parse((await make(false).handle(request("POST", "/trades/quote", QUOTE_BODY))).body);
    const refreshed = JSON.parse((await make().handle(request("POST", "/trades/quote", QUOTE_BODY))).body);
    expect(refreshed.data.expiryDate).toBe(new Date(at + refreshed.data.expiresIn * 1000).toISOString());
    expect(kept.data.expiryDate).toBe((successExample("createQuote").data as { expiryDate: string }).expiryDate);
  });

  it("turns an answer the last check finds wrong into a 500 saying why, keeping the admission's headers", async () => {
    const pipeline = createRequestPipeline({
      spec: openApiDocument,
      source,
      basePaths: [BASE_PATH],
      admit: () => ({ headers: { [RATE_LIMIT_HEADERS.remaining]: "3" } }),
      checkAnswer: (answer, answered) =>
        answer.status === 200 ? `not this one (${answered.method} ${answered.path})` : undefined,
    });
    const answer = await pipeline.handle(request("GET", "/wallets/me"));
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body).message).toBe("not this one (GET /v1/wallets/me)");
    expect(answer.headers[RATE_LIMIT_HEADERS.remaining]).toBe("3");
  });
});
