// The request pipeline (src/pipeline/pipeline.ts) alone, without a server or Prism: what it hands its answer source
// (operation, decoded path parameters, query, parsed body, preferences), what it refuses before the source
// (the API key before the body, the body against the contract, malformed JSON), what it makes of the source's
// refusals and answers, and its clock: a quote's expiry and the rate-limit reset are those of `now()`.
import { describe, expect, it, vi } from "vitest";
import { createDocumentedSource } from "../../src/pipeline/documented-source.js";
import { FULL_REPORT_MAX_BYTES } from "../../src/pipeline/body-check.js";
import { MOCK_IDENTITY_HEADER } from "../../src/pipeline/identity.js";
import {
  type AnswerSource,
  createRequestPipeline,
  MAX_VIOLATIONS,
  type SourceAnswer,
  type SourceRequest,
} from "../../src/pipeline/pipeline.js";
import {
  API_KEY_HEADER,
  BASE_PATH,
  buildSampleRequest,
  listSpecOperations,
  loadSpec,
  RATE_LIMIT_HEADERS,
  requestExample,
} from "../support/spec.js";

const spec = loadSpec();
const operations = listSpecOperations(spec);
const NOW = Date.parse("2030-01-01T00:00:30.000Z");
const byId = (operationId: string) => operations.find((op) => op.operationId === operationId)!;

/** A source that answers `answer` and keeps every request it was handed. */
function recordingSource(answer: SourceAnswer): AnswerSource & { requests: SourceRequest[] } {
  const requests: SourceRequest[] = [];
  return {
    requests,
    answer: async (request) => {
      requests.push(request);
      return answer;
    },
  };
}

const pipelineOf = (source: AnswerSource) =>
  createRequestPipeline({ spec, source, basePaths: [BASE_PATH], now: () => NOW });
const ok: SourceAnswer = { kind: "answer", status: 200, headers: {}, body: { ok: true } };
const findings = (headers: Record<string, string | string[]>) => JSON.parse(String(headers["sl-violations"]));

describe("what the source is handed", () => {
  it("the operation, its path parameters decoded, the query, the parsed body and the preferences", async () => {
    const source = recordingSource(ok);
    const answer = await pipelineOf(source).handle({
      method: "get",
      url: `http://any.test${BASE_PATH}/currencies/a%20b/networks?x=1&x=2&y=3`,
      headers: { prefer: "code=200, example=first" },
      body: "",
    });
    expect(answer.status).toBe(200);
    const [request] = source.requests;
    expect(request?.operation.key).toBe("GET /currencies/{id}/networks");
    expect(request?.params).toEqual({ id: "a b" });
    expect(request?.method).toBe("GET");
    expect(request?.path).toBe(`${BASE_PATH}/currencies/a%20b/networks`);
    expect(request?.query).toEqual({ x: ["1", "2"], y: "3" });
    expect(request?.body).toBeUndefined();
    expect(request?.preferences).toEqual({ code: 200, example: "first" });
  });
});

describe("what is refused before the source", () => {
  const createQuote = byId("createQuote");
  const post = (headers: Record<string, string>, body: string) => ({
    method: "POST",
    url: `${BASE_PATH}${createQuote.path}`,
    headers: { "content-type": "application/json", ...headers },
    body,
  });

  it("a keyed operation without its key: 401, even with an invalid body; the error body names the header", async () => {
    const source = recordingSource(ok);
    const answer = await pipelineOf(source).handle(post({}, '{"nope":1}'));
    expect(answer.status).toBe(401);
    const message = `the operation requires the ${API_KEY_HEADER} header`;
    expect(findings(answer.headers)).toEqual([
      { location: ["request", "header", API_KEY_HEADER], severity: "Error", code: 401, message },
    ]);
    expect(JSON.parse(answer.body)).toEqual({ message, errors: [{ message, property: API_KEY_HEADER }] });
    expect(source.requests).toEqual([]);
  });

  it("a body that breaks its schema: 422 with the validator's findings at the body's pointers", async () => {
    const source = recordingSource(ok);
    const answer = await pipelineOf(source).handle(post({ [API_KEY_HEADER]: "k" }, "[1]"));
    expect(answer.status).toBe(422);
    const found = findings(answer.headers) as Array<{ location: string[]; severity: string }>;
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((finding) => finding.location[0] === "request" && finding.location[1] === "body")).toBe(true);
    expect(answer.why).toMatch(/^request body: /);
    expect(source.requests).toEqual([]);
  });

  it("a body over FULL_REPORT_MAX_BYTES: 422 with its first violation only, in Prism's words", async () => {
    const resend = byId("resendWebhooks");
    /** `body` as JSON padded with spaces to over FULL_REPORT_MAX_BYTES. */
    const large = (body: unknown) => `${" ".repeat(FULL_REPORT_MAX_BYTES)}${JSON.stringify(body)}`;
    const send = (source: AnswerSource, body: unknown) =>
      pipelineOf(source).handle({
        method: "POST",
        url: `${BASE_PATH}${resend.path}`,
        headers: { "content-type": "application/json", [API_KEY_HEADER]: "k" },
        body: large(body),
      });
    const only = `(the body is over ${FULL_REPORT_MAX_BYTES} bytes: its first violation only)`;
    for (const [body, first] of [
      [{ ids: [1, 2] }, "Request body property ids.0 must be string"],
      [{ ids: ["a"], extra: 1 }, "Request body must NOT have additional properties; found 'extra'"],
    ] as const) {
      const source = recordingSource(ok);
      const answer = await send(source, body);
      expect(answer.status, first).toBe(422);
      expect(findings(answer.headers)).toEqual([
        { location: ["request"], severity: "Error", message: `${first} ${only}` },
      ]);
      expect(source.requests).toEqual([]);
    }
    // A large JSON string is judged by the full check (its findings at the body's pointers), not the first one.
    const judged = await send(recordingSource(ok), "x");
    expect(judged.status).toBe(422);
    expect(judged.why).not.toContain(only);
    const valid = recordingSource(ok);
    expect((await send(valid, { ids: ["a"] })).status).toBe(200);
    expect(valid.requests).toHaveLength(1);
  });

  it("FULL_REPORT_MAX_BYTES counts a body's UTF-8 bytes, not its characters", async () => {
    const resend = byId("resendWebhooks");
    /** An invalid body (ids.0 a number) whose text holds `count` two-byte characters (é). */
    const bodyWith = (count: number) => JSON.stringify({ ids: [1, "é".repeat(count)] });
    const whyOf = async (text: string) =>
      (
        await pipelineOf(recordingSource(ok)).handle({
          method: "POST",
          url: `${BASE_PATH}${resend.path}`,
          headers: { "content-type": "application/json", [API_KEY_HEADER]: "k" },
          body: text,
        })
      ).why;
    const over = bodyWith(FULL_REPORT_MAX_BYTES / 2 + 100);
    const under = bodyWith(FULL_REPORT_MAX_BYTES / 2 - 100);
    expect(over.length).toBeLessThanOrEqual(FULL_REPORT_MAX_BYTES);
    expect(Buffer.byteLength(over)).toBeGreaterThan(FULL_REPORT_MAX_BYTES);
    expect(Buffer.byteLength(under)).toBeLessThanOrEqual(FULL_REPORT_MAX_BYTES);
    expect(await whyOf(over)).toContain(`(the body is over ${FULL_REPORT_MAX_BYTES} bytes: its first violation only)`);
    expect(await whyOf(under)).toMatch(/^request body: /);
  });

  it("a body over FULL_REPORT_MAX_BYTES is checked against its own operation's schema, in one pipeline", async () => {
    const pipeline = pipelineOf(recordingSource(ok));
    const large = `${" ".repeat(FULL_REPORT_MAX_BYTES)}${JSON.stringify({ ids: [1] })}`;
    const whys: Record<string, string | undefined> = {};
    for (const operation of [byId("resendWebhooks"), createQuote, byId("getFiatRates")]) {
      const answer = await pipeline.handle({
        method: operation.method,
        url: `${BASE_PATH}${operation.path}`,
        headers: { "content-type": "application/json", [API_KEY_HEADER]: "k" },
        body: large,
      });
      whys[operation.operationId] = `${answer.status} ${answer.why}`;
    }
    const only = `(the body is over ${FULL_REPORT_MAX_BYTES} bytes: its first violation only)`;
    expect(whys).toEqual({
      resendWebhooks: `422 Request body property ids.0 must be string ${only}`,
      createQuote: `422 Request body must NOT have additional properties; found 'ids' ${only}`,
      // An operation without a JSON request body: nothing to check the body against; the source answers.
      getFiatRates: "200 undefined",
    });
  });

  it("a JSON string where an object is expected is a JSON body too, and judged", async () => {
    const source = recordingSource(ok);
    const answer = await pipelineOf(source).handle(post({ [API_KEY_HEADER]: "k" }, '"text"'));
    expect(answer.status).toBe(422);
    expect(source.requests).toEqual([]);
  });

  it("a body without a content type, or in one the operation does not take: 415; the source is not asked", async () => {
    const source = recordingSource(ok);
    const pipeline = pipelineOf(source);
    const request = post({ [API_KEY_HEADER]: "k" }, "{}");
    const untyped = await pipeline.handle({ ...request, headers: { [API_KEY_HEADER]: "k" } });
    expect([untyped.status, untyped.why]).toEqual([
      415,
      "the body's content type (none given) is not one of the operation's content types (application/json)",
    ]);
    const xml = await pipeline.handle({ ...request, headers: { ...request.headers, "content-type": "text/xml" } });
    expect(xml.status).toBe(415);
    expect(source.requests).toEqual([]);
    const caseAndCharset = await pipeline.handle({
      ...request,
      headers: { ...request.headers, "content-type": "APPLICATION/JSON; charset=utf-8" },
    });
    expect(caseAndCharset.status).toBe(200);
  });

  it("malformed JSON: 400, and the published error body saying so", async () => {
    const source = recordingSource(ok);
    const answer = await pipelineOf(source).handle(post({ [API_KEY_HEADER]: "k" }, "{"));
    expect(answer.status).toBe(400);
    expect(answer.why).toMatch(/^the body is not valid JSON/);
    expect(JSON.parse(answer.body)).toEqual({ message: answer.why, errors: [{ message: answer.why }] });
    expect(source.requests).toEqual([]);
  });
});

describe("the error body of many findings", () => {
  it("lists the first MAX_VIOLATIONS findings, and its message says how many more there are", async () => {
    const resend = byId("resendWebhooks");
    const example = requestExample<Record<string, unknown>>("resendWebhooks");
    const field = Object.keys(example).find((key) => Array.isArray(example[key]))!;
    const answer = await pipelineOf(recordingSource(ok)).handle({
      method: resend.method,
      url: `${BASE_PATH}${resend.path}`,
      headers: { "content-type": "application/json", [API_KEY_HEADER]: "k" },
      body: JSON.stringify({ ...example, [field]: new Array(MAX_VIOLATIONS + 5).fill(0) }),
    });
    expect(answer.status).toBe(422);
    const body = JSON.parse(answer.body) as { message: string; errors: Array<{ property: string }> };
    expect(body.errors).toHaveLength(MAX_VIOLATIONS);
    expect(body.errors.map((finding) => finding.property)).toEqual(
      Array.from({ length: MAX_VIOLATIONS }, (_, i) => `/${field}/${i}`),
    );
    expect(body.message).toMatch(/; and 5 more$/);
    expect(body.message.split("; ")).toHaveLength(MAX_VIOLATIONS + 1);
    expect(answer.why).toBe(body.message);
  });

  it("of exactly MAX_VIOLATIONS findings: every one in the message, joined by '; ', and no 'more'", async () => {
    const resend = byId("resendWebhooks");
    const answer = await pipelineOf(recordingSource(ok)).handle({
      method: resend.method,
      url: `${BASE_PATH}${resend.path}`,
      headers: { "content-type": "application/json", [API_KEY_HEADER]: "k" },
      body: JSON.stringify({ ids: new Array(MAX_VIOLATIONS).fill(0) }),
    });
    expect(answer.status).toBe(422);
    const body = JSON.parse(answer.body) as { message: string; errors: Array<{ message: string }> };
    expect(body.errors).toHaveLength(MAX_VIOLATIONS);
    expect(body.message).toBe(body.errors.map((finding) => finding.message).join("; "));
  });
});

describe("what the source answers", () => {
  const get = { method: "GET", url: `${BASE_PATH}/currencies/fiat-rates`, headers: {}, body: "" };

  it("a refusal: a 4xx kept, anything else as 400, with the documented error answer and the reason", async () => {
    for (const [status, written] of [
      [404, 404],
      [500, 400],
      [302, 400],
    ] as const) {
      const answer = await pipelineOf(recordingSource({ kind: "refused", status, reason: "because" })).handle(get);
      expect(answer.status, String(status)).toBe(written);
      expect(answer.why).toBe("because");
      expect(findings(answer.headers)).toEqual([{ location: ["request"], severity: "Error", message: "because" }]);
      expect(answer.headers[MOCK_IDENTITY_HEADER]).toBeDefined();
    }
  });

  it("an answer: header names lower-cased, values made safe, text of another media type as is", async () => {
    const source = recordingSource({
      kind: "answer",
      status: 200,
      headers: { "X-Echo": "a\u0000b", "Content-Type": "text/plain", "X-Many": ["1", "2"] },
      body: "plain text",
    });
    const answer = await pipelineOf(source).handle(get);
    expect(answer.headers).toMatchObject({ "x-echo": "a\\u0000b", "content-type": "text/plain", "x-many": ["1", "2"] });
    expect(answer.body).toBe("plain text");
    expect(answer.why).toBeUndefined();
  });

  it("an error answer gets the error body of its findings about the request, else stays as given", async () => {
    const json = { "content-type": "application/json" };
    const documented = { message: "as documented", errors: [] };
    const about = (place: string) => ({ location: [place, "query", "x"], severity: "Error", message: `${place} x` });
    for (const [status, violations, body] of [
      [
        400,
        [about("request"), about("response")],
        { message: "request x", errors: [{ message: "request x", property: "x" }] },
      ],
      [429, [], documented],
      [400, [about("response")], documented],
      [200, [about("request")], documented],
    ] as const) {
      const source = recordingSource({
        kind: "answer",
        status,
        headers: json,
        body: documented,
        violations: [...violations],
      });
      const answer = await pipelineOf(source).handle(get);
      expect(JSON.parse(answer.body), `${status} ${violations.length}`).toEqual(body);
    }
  });
});

describe("the value of a JSON answer", () => {
  const get = { method: "GET", url: `${BASE_PATH}/currencies/fiat-rates`, headers: {}, body: "" };

  it("is the value its text is written from, for a check that reads it unparsed; another body has none", async () => {
    const json = { "content-type": "application/json" };
    const finding = { location: ["request", "query", "x"], severity: "Error", message: "request x" };
    const sources: SourceAnswer[] = [
      { kind: "answer", status: 200, headers: json, body: { ok: true, n: 1.5 } },
      { kind: "answer", status: 400, headers: json, body: { message: "as documented" }, violations: [finding] },
      { kind: "refused", status: 409, reason: "because" },
    ];
    for (const answered of sources) {
      const answer = await pipelineOf(recordingSource(answered)).handle(get);
      expect(answer.value, `${answered.kind} ${answered.status}`).toEqual(JSON.parse(answer.body));
    }
    const unknownPath = await pipelineOf(recordingSource(ok)).handle({ ...get, url: `${BASE_PATH}/nowhere` });
    expect(unknownPath.status).toBe(404);
    expect(unknownPath.value).toEqual(JSON.parse(unknownPath.body));
    const text = { kind: "answer", status: 200, headers: { "content-type": "text/plain" }, body: "plain" } as const;
    expect((await pipelineOf(recordingSource(text)).handle(get)).value).toBeUndefined();
  });
});

describe("answering at once", () => {
  const get = { method: "GET", url: `${BASE_PATH}/currencies/fiat-rates`, headers: {}, body: "" };
  const syncSource: AnswerSource = { answer: () => ok as SourceAnswer };

  it("gives the answer itself, no promise, when the source and the admission step answer at once", async () => {
    const pipeline = createRequestPipeline({ spec, source: syncSource, basePaths: [BASE_PATH], admit: () => ({}) });
    const now = pipeline.answer(get);
    expect(now).not.toBeInstanceOf(Promise);
    expect(now).toEqual(await pipeline.handle(get));
    const refused = pipeline.answer({ ...get, url: `${BASE_PATH}/nowhere` });
    expect(refused).not.toBeInstanceOf(Promise);
    expect((refused as { status: number }).status).toBe(404);
  });

  it("gives a promise of the same answer when the source, the admission step or a multipart body waits", async () => {
    const later = async () => ({});
    const waiting = [
      createRequestPipeline({ spec, source: recordingSource(ok), basePaths: [BASE_PATH] }),
      createRequestPipeline({ spec, source: syncSource, basePaths: [BASE_PATH], admit: later }),
    ];
    const atOncePipeline = createRequestPipeline({ spec, source: syncSource, basePaths: [BASE_PATH] });
    const atOnce = await atOncePipeline.handle(get);
    for (const pipeline of waiting) {
      const answer = pipeline.answer(get);
      expect(answer).toBeInstanceOf(Promise);
      expect(await answer).toEqual(atOnce);
    }
    const upload = byId("uploadInvoiceDocument");
    const form = new FormData();
    form.set("note", "x");
    const request = new Request("http://x", { method: "POST", body: form });
    const body = await request.text();
    const headers = { "content-type": request.headers.get("content-type")!, [API_KEY_HEADER]: "k" };
    const post = { method: "POST", url: `${BASE_PATH}${upload.path}`, headers, body };
    const multipart = atOncePipeline.answer(post);
    expect(multipart).toBeInstanceOf(Promise);
    expect(await multipart).toEqual(await atOncePipeline.handle(post));
  });
});

describe("routing and parameters, under the base path", () => {
  const keyed = { [API_KEY_HEADER]: "k" };

  it("an unknown path: 404; a method the path does not have: 405 with Allow; the source is not asked", async () => {
    const source = recordingSource(ok);
    const pipeline = pipelineOf(source);
    const unknown = await pipeline.handle({
      method: "GET",
      url: `${BASE_PATH}/no-such-path`,
      headers: keyed,
      body: "",
    });
    expect(unknown.status).toBe(404);
    const wrongMethod = { method: "DELETE", url: `${BASE_PATH}/currencies/fiat-rates`, headers: keyed, body: "" };
    const notAllowed = await pipeline.handle(wrongMethod);
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers.allow).toBe("GET");
    expect(source.requests).toEqual([]);
  });

  it("a query parameter of the wrong type: 422 naming it", async () => {
    const source = recordingSource(ok);
    const summary = operations.find((op) => op.parameters.some((p) => p.in === "query" && p.name === "page"))!;
    const url = `${BASE_PATH}${summary.path}?page=abc`;
    const answer = await pipelineOf(source).handle({ method: summary.method, url, headers: keyed, body: "" });
    expect(answer.status).toBe(422);
    expect(findings(answer.headers)).toEqual([expect.objectContaining({ location: ["request", "query", "page"] })]);
    expect(source.requests).toEqual([]);
  });
});

describe("the clock", () => {
  it("a quote expires its expiresIn seconds after now(); the reset is the end of now()'s minute", async () => {
    const createQuote = byId("createQuote");
    const pipeline = createRequestPipeline({ spec, source: createDocumentedSource(spec), now: () => NOW });
    const answer = await pipeline.handle({
      method: "POST",
      url: createQuote.path,
      headers: { [API_KEY_HEADER]: "k", "content-type": "application/json" },
      body: buildSampleRequest(spec, createQuote).body!,
    });
    expect(answer.status, answer.why).toBe(200);
    const { data: quote } = JSON.parse(answer.body) as { data: { expiryDate: string; expiresIn: number } };
    expect(quote.expiryDate).toBe(new Date(NOW + quote.expiresIn * 1000).toISOString());
    expect(answer.headers[RATE_LIMIT_HEADERS.reset]).toBe(String(Date.parse("2030-01-01T00:01:00.000Z") / 1000));
  });

  it("without a clock, the rate-limit reset is the end of the minute Date.now() is in", async () => {
    // Date alone faked (timers and I/O stay real): a moment 1 s before a minute ends, then the next minute.
    const moment = Date.UTC(2030, 0, 1, 12, 0, 59);
    vi.useFakeTimers({ toFake: ["Date"], now: moment });
    try {
      const pipeline = createRequestPipeline({ spec, source: createDocumentedSource(spec), basePaths: [BASE_PATH] });
      const url = `${BASE_PATH}/currencies/fiat-rates`;
      const resetAt = async () =>
        (await pipeline.handle({ method: "GET", url, headers: { [API_KEY_HEADER]: "k" }, body: "" })).headers[
          RATE_LIMIT_HEADERS.reset
        ];
      expect(await resetAt()).toBe(String(Date.UTC(2030, 0, 1, 12, 1, 0) / 1000));
      vi.setSystemTime(moment + 1000);
      expect(await resetAt()).toBe(String(Date.UTC(2030, 0, 1, 12, 2, 0) / 1000));
    } finally {
      vi.useRealTimers();
    }
  });
});
