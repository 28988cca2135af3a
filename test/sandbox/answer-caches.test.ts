// pins: rates.update
// Check once, send many, and still follow every change: Get Fiat Rates keeps its answer written as JSON until the
// rates change (operations/catalogue.ts), and the answer check (conformance.ts) checks only the headers of a body
// byte-identical to one of the same operation, status and content type that passed. Neither may hide a change: a
// rate change shows in the very next answer (in-process and over HTTP), and a wrong header or a wrong body next to a
// known body still fails the check. The pipeline makes the safe form of a frozen headers object once; one that is
// not frozen may change between answers, and each answer shows it. A source's bodyText is sent only when the body
// goes out unchanged.
import { afterEach, describe, expect, it } from "vitest";
import { openApiDocument } from "../../src/contract/bundled.js";
import { createRequestPipeline, type PipelineAnswer, type SourceAnswer } from "../../src/pipeline/pipeline.js";
import { createAnswerCheck } from "../../src/sandbox/conformance.js";
import { createSandbox } from "../../src/sandbox/index.js";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";
import { listOperations } from "../../src/openapi/document.js";
import { BASE_PATH, loadSpec, RATE_LIMIT_HEADERS } from "../support/spec.js";

/** The documented GHS rate (Get Fiat Rates' example): a change of the NGNX rate keeps it. */
const GHS_DOCUMENTED = { currency: "GHS", base: "USDT", buyRate: 15.86, sellRate: 15.21 };

const started: StartedSandbox[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()));
});

const RATES = `${BASE_PATH}/currencies/fiat-rates`;
const ngnx = (buyRate: number) => ({ fiat: [{ currency: "NGNX", buyRate, sellRate: buyRate - 10 }] });

type Fetcher = (path: string) => Promise<Response>;

/** Reads the rates three times around two rate changes (setRates, then the control API). */
async function ratesAcrossChanges(fetcher: Fetcher, put: (rates: unknown) => Promise<void>) {
  const read = async () => ((await (await fetcher(RATES)).json()) as { data: Array<{ buyRate: number }> }).data;
  const first = await read();
  const again = await read();
  await put(ngnx(2000));
  const afterChange = await read();
  await put(ngnx(2100));
  return { first, again, afterChange, afterSecond: await read() };
}

describe("Get Fiat Rates between rate changes", () => {
  it("in-process: the next answer after setRates or PUT /_sandbox/rates shows the new rates", async () => {
    const sandbox = createSandbox();
    const fetcher: Fetcher = (path) => sandbox.fetch(new Request(`http://sandbox.test${path}`));
    let puts = 0;
    const put = async (rates: unknown) => {
      if (puts++ === 0) sandbox.setRates(rates as Parameters<typeof sandbox.setRates>[0]);
      else {
        const init = { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(rates) };
        expect((await sandbox.fetch(new Request("http://sandbox.test/_sandbox/rates", init))).status).toBe(200);
      }
    };
    const seen = await ratesAcrossChanges(fetcher, put);
    expect(seen.again).toEqual(seen.first);
    expect(seen.afterChange).toEqual([
      { currency: "NGNX", base: "USDT", buyRate: 2000, sellRate: 1990 },
      GHS_DOCUMENTED,
    ]);
    expect(seen.afterSecond).toEqual([
      { currency: "NGNX", base: "USDT", buyRate: 2100, sellRate: 2090 },
      GHS_DOCUMENTED,
    ]);
  });

  it("over HTTP: the next answer after PUT /_sandbox/rates shows the new rates, a restore's rates too", async () => {
    const server = await startSandbox({ port: 0, quiet: true });
    started.push(server);
    const fetcher: Fetcher = (path) => fetch(`${server.origin}${path}`);
    const put = async (rates: unknown) => {
      const init = { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(rates) };
      expect((await fetch(`${server.origin}/_sandbox/rates`, init)).status).toBe(200);
    };
    const saved = server.sandbox.snapshot();
    const seen = await ratesAcrossChanges(fetcher, put);
    expect(seen.afterChange[0]!.buyRate).toBe(2000);
    expect(seen.afterSecond[0]!.buyRate).toBe(2100);
    server.sandbox.restore(saved);
    expect(((await (await fetcher(RATES)).json()) as { data: unknown }).data).toEqual(seen.first);
  });
});

describe("the answer check of a known body", () => {
  const operation = listOperations(openApiDocument).find((candidate) => candidate.operationId === "getFiatRates")!;
  const request = { operation, method: "GET", path: RATES };

  async function goodAnswer(): Promise<PipelineAnswer> {
    const response = await createSandbox().fetch(new Request(`http://sandbox.test${RATES}`));
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return { status: 200, headers, body: await response.text() };
  }

  it("still checks the headers of a body it has seen pass, and any other body whole", async () => {
    const check = createAnswerCheck(openApiDocument, undefined);
    const good = await goodAnswer();
    expect(check(good, request)).toBeUndefined();
    expect(check({ ...good }, request)).toBeUndefined();
    const badHeader = { ...good, headers: { ...good.headers, [RATE_LIMIT_HEADERS.remaining]: "many" } };
    expect(check(badHeader, request)).toMatch(/x-ratelimit-remaining/i);
    const badBody = { ...good, body: good.body.replace('"buyRate":', '"buyRate":"x","was":') };
    expect(check(badBody, request)).toMatch(/breaks the contract/);
    expect(check(good, request)).toBeUndefined();
  });

  it("does not take a known body as checked under another content type", async () => {
    const check = createAnswerCheck(openApiDocument, undefined);
    const good = await goodAnswer();
    expect(check(good, request)).toBeUndefined();
    const otherType = { ...good, headers: { ...good.headers, "content-type": "text/plain" } };
    expect(check(otherType, request)).toMatch(/content type/);
    expect(check(good, request)).toBeUndefined();
  });
});

describe("the pipeline's safe headers and a source's bodyText", () => {
  const spec = loadSpec();
  const request = { method: "GET", url: `http://any.test${RATES}`, headers: {}, body: "" };
  const pipelineAnswering = (answer: () => SourceAnswer) =>
    createRequestPipeline({ spec, source: { answer: async () => answer() }, basePaths: [BASE_PATH] });

  it("escapes a frozen headers object's values in each answer, shows each change of one not frozen", async () => {
    const frozen = Object.freeze({ "content-type": "application/json", "x-note": "caf\u00e9\n" });
    const fromFrozen = pipelineAnswering(() => ({ kind: "answer", status: 200, headers: frozen, body: {} }));
    for (let round = 0; round < 2; round++)
      expect((await fromFrozen.handle(request)).headers["x-note"]).toBe("caf\u00e9\\u000a");
    const changing: Record<string, unknown> = { "content-type": "application/json", "x-note": "one" };
    const fromChanging = pipelineAnswering(() => ({ kind: "answer", status: 200, headers: changing, body: {} }));
    expect((await fromChanging.handle(request)).headers["x-note"]).toBe("one");
    changing["x-note"] = "two";
    expect((await fromChanging.handle(request)).headers["x-note"]).toBe("two");
  });

  it("sends bodyText for an unchanged JSON body, and writes the body when a finding rewrites it", async () => {
    const headers = { "content-type": "application/json" };
    const written = { message: "m", data: [] };
    const same = pipelineAnswering(() => ({ kind: "answer", status: 200, headers, body: written, bodyText: "{ }" }));
    expect((await same.handle(request)).body).toBe("{ }");
    const finding = { location: ["request", "query"], severity: "Error", message: "wrong" };
    const rewritten = pipelineAnswering(() => ({
      kind: "answer",
      status: 422,
      headers,
      body: written,
      bodyText: "{ }",
      violations: [finding],
    }));
    expect((await rewritten.handle(request)).body).not.toBe("{ }");
  });
});
