// The shipped verification (src/verify; `api-contract verify`) judged on real local servers: it passes
// the mock, fails a deployment that refuses or breaks everything (a positive case passes only with its
// documented success status; a 404 is never a refusal), says in one line when the key was refused, keeps
// each safety promise on a deployment (no trade, Create Quote once, nothing else that changes state, paced),
// signs its requests, and writes a JUnit report a CI system can read.
// The command exits 0 / 1 / 2 (conforms / a violation / the target could not be checked).
import { createHmac } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/validator.js";
import { MOCK_IDENTITY_HEADER, PACKAGE_VERSION, type StartedMock, startMock } from "../../src/mock/index.js";
import { planVerification, reportJunit, type VerifyReport, verify } from "../../src/verify/index.js";
import {
  API_KEY_HEADER,
  BASE_PATH,
  type JsonObject,
  loadSpec,
  RATE_LIMIT_HEADERS,
  SIGNING_HEADERS,
  sharedValidator,
} from "../support/spec.js";
import { cli } from "../cli/run-cli.js";
import { elementsNamed, parseXml, type XmlElement } from "../verify/support/xml.js";

const spec = loadSpec();
const validator = sharedValidator();

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** A deployment that answers every request with `status` and `body` (and the rate-limit headers). */
async function deployment(
  status: number,
  body: unknown,
): Promise<{ baseUrl: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
      res.writeHead(status, {
        "content-type": "application/json",
        [RATE_LIMIT_HEADERS.limit]: "200",
        [RATE_LIMIT_HEADERS.remaining]: "199",
        [RATE_LIMIT_HEADERS.reset]: String(Math.ceil(Date.now() / 1000) + 60),
      });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Forwarded extends Seen {
  at: number;
  status: number;
}

/**
 * A deployment in front of the mock: every request is forwarded to it, and `rewrite` may change the
 * status, body and headers of its answer. Records each request with its arrival time (by `now`). The mock's
 * X-Api-Contract-Mock header is passed on only in the answers `keepIdentity` names (by their index).
 */
async function proxy(
  rewrite: (
    request: { method: string; url: string; hasKey: boolean },
    answer: { status: number; body: string },
  ) => { status: number; body?: string; headers?: Record<string, string> } | undefined = () => undefined,
  {
    now = () => performance.now(),
    keepIdentity = () => false,
  }: { now?: () => number; keepIdentity?: (index: number) => boolean } = {},
): Promise<{ baseUrl: string; seen: Forwarded[]; close(): Promise<void> }> {
  const seen: Forwarded[] = [];
  let answered = 0;
  const server = http.createServer((req, res) => {
    const at = now();
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => name !== "host" && name !== "connection"),
      ) as Record<string, string>;
      // Under /moved (where a test's redirect points), the mock's own path.
      const answer = await fetch(`${mock.origin}${(req.url ?? "").replace(/^\/moved\//, "/")}`, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      const body = await answer.text();
      const method = req.method ?? "";
      const url = req.url ?? "";
      const changed = rewrite({ method, url, hasKey: API_KEY_HEADER in req.headers }, { status: answer.status, body });
      const status = changed?.status ?? answer.status;
      seen.push({ method, url, headers: req.headers, at, status });
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!["content-length", "transfer-encoding", "connection", "keep-alive", "content-encoding"].includes(name))
          out[name] = value;
      });
      // A deployment: the mock's own header (the answer comes from the package's mock) is dropped unless kept.
      if (!keepIdentity(answered++)) delete out[MOCK_IDENTITY_HEADER];
      res.writeHead(status, { ...out, ...changed?.headers });
      res.end(changed?.body ?? body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port of 127.0.0.1 nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The JUnit report's numbers: its <testcase>s by outcome, and the attributes of its one <testsuite>. */
function junitCounts(xml: string) {
  const root = parseXml(xml);
  const suites = elementsNamed(root, "testsuite");
  expect(suites).toHaveLength(1);
  const suite = suites[0]!;
  const cases = elementsNamed(suite, "testcase");
  const has = (c: XmlElement, name: string) => c.children.some((child) => child.name === name);
  return {
    root: root.name,
    suite: suite.attributes,
    tests: cases.length,
    failures: cases.filter((c) => has(c, "failure")).length,
    errors: cases.filter((c) => has(c, "error")).length,
    skipped: cases.filter((c) => has(c, "skipped")).length,
    cases,
  };
}

/** The JUnit report agrees with the JSON one: a testcase per case, as many failures (+ errors) and skips. */
async function expectReportsAgree(
  dir: string,
): Promise<{ report: VerifyReport; junit: ReturnType<typeof junitCounts> }> {
  const report = JSON.parse(await readFile(path.join(dir, "verify-report.json"), "utf8")) as VerifyReport;
  const junit = junitCounts(await readFile(path.join(dir, "verify-report.junit.xml"), "utf8"));
  expect(junit.root).toBe("testsuites");
  expect(junit.tests).toBe(report.results.length);
  expect(junit.failures + junit.errors).toBe(report.counts.failed);
  expect(junit.skipped).toBe(report.counts.skipped);
  expect(junit.suite).toMatchObject({
    tests: String(report.results.length),
    failures: String(junit.failures),
    errors: String(junit.errors),
    skipped: String(report.counts.skipped),
  });
  expect(junit.cases.map((c) => c.attributes.name)).toEqual(report.results.map((r) => r.case));
  expect(await readFile(path.join(dir, "verify-report.md"), "utf8")).toContain("# Contract verification");
  return { report, junit };
}

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock?.stop());

describe("verify (live rules)", () => {
  it("knows the package's mock by its X-Api-Contract-Mock header and runs every case on it, none skipped, no --param needed", async () => {
    const report = await verify(spec, validator, { baseUrl: mock.baseUrl, apiKey: "k" });
    expect(report.counts, JSON.stringify(report.results.filter((r) => r.outcome !== "passed"))).toEqual({
      passed: planVerification(spec, {}).length,
      failed: 0,
      skipped: 0,
    });
    expect(report).toMatchObject({ ok: true, target: "mock", mockVersion: PACKAGE_VERSION });
    // Accept Quote accepted the quote Create Quote had just made.
    const accepted = report.results.find((r) => r.case === "acceptQuote: POST /trades/quote/{quoteId}");
    expect(accepted).toMatchObject({ outcome: "passed", status: 200 });
  });

  it("on a deployment (no X-Api-Contract-Mock header) skips, saying why in terms of the target; a given value runs the case", async () => {
    const deployed = await proxy();
    try {
      const report = await verify(spec, validator, { baseUrl: deployed.baseUrl, apiKey: "k", minIntervalMs: 0 });
      expect(report).toMatchObject({ ok: true, target: "deployment" });
      expect(report.mockVersion).toBeUndefined();
      const reasons = report.results.filter((r) => r.outcome === "skipped").map((r) => r.reason ?? "");
      expect(reasons.length).toBeGreaterThan(0);
      for (const reason of reasons) expect(reason).not.toMatch(/live/);
      expect(report.results.find((r) => r.operationId === "getCollectionCustomer")?.reason).toBe(
        "needs a real value for {id} (the spec's example need not exist on the target): pass --param id=…",
      );
      expect(report.results.find((r) => r.case === "acceptQuote: POST /trades/quote/{quoteId}")?.reason).toBe(
        "POST changes state on the target (allow side effects to run it)",
      );
      const withParam = await verify(spec, validator, {
        baseUrl: deployed.baseUrl,
        apiKey: "k",
        minIntervalMs: 0,
        params: { id: "cus-1" },
      });
      expect(
        withParam.results.find((r) => r.operationId === "getCollectionCustomer" && r.kind === "positive")?.outcome,
      ).toBe("passed");
    } finally {
      await deployed.close();
    }
  });

  it("runs Get Trade Pair and Get Wallet Balance By Code on a deployment with the currency codes the spec documents (USDT, NGNX)", async () => {
    const deployed = await proxy();
    try {
      const report = await verify(spec, validator, { baseUrl: deployed.baseUrl, apiKey: "k", minIntervalMs: 0 });
      const byId = (id: string) => report.results.find((r) => r.operationId === id && r.kind === "positive");
      expect(byId("getTradePair")).toMatchObject({
        outcome: "passed",
        request: { url: `${deployed.baseUrl}/trades/pairs/USDT/NGNX` },
      });
      expect(byId("getWalletBalanceByCode")).toMatchObject({
        outcome: "passed",
        request: { url: `${deployed.baseUrl}/wallets/NGNX` },
      });
    } finally {
      await deployed.close();
    }
  });

  it("keeps a deployment's rules from the first answer without the mock's header on: Accept Quote is not sent", async () => {
    // The first answer says "mock", no later one does.
    const fickle = await proxy(undefined, { keepIdentity: (index) => index === 0 });
    try {
      const report = await verify(spec, validator, { baseUrl: fickle.baseUrl, apiKey: "k", minIntervalMs: 0 });
      expect(report.target).toBe("deployment");
      expect(fickle.seen.filter((s) => s.url.startsWith(`${BASE_PATH}/trades/quote/`))).toEqual([]);
    } finally {
      await fickle.close();
    }
  });

  it.each([
    [401, "a revoked key", /^the API key was refused: /],
    [
      404,
      "nothing there",
      /^every request was answered 404: is the base URL right \(http:\/\/127\.0\.0\.1:\d+\/v1\)\?$/,
    ],
    [418, "a teapot", undefined],
  ])(
    "fails a deployment that answers every request with %i (%s), naming the one cause if there is one",
    async (status, _, cause) => {
      const broken = await deployment(status, {});
      try {
        const report = await verify(spec, validator, { baseUrl: broken.baseUrl, apiKey: "k", minIntervalMs: 0 });
        expect(report.ok).toBe(false);
        const positives = report.results.filter((r) => r.kind === "positive" && r.outcome !== "skipped");
        expect(positives.length).toBeGreaterThan(0);
        for (const r of positives) expect(r.outcome, r.case).toBe("failed");
        if (cause) expect(report.cause).toMatch(cause);
        else expect(report.cause).toBeUndefined();
      } finally {
        await broken.close();
      }
    },
  );

  it("fails a deployment whose 200 breaks the contract; one that cannot be reached is not checked (one request, the reason in one line)", async () => {
    const broken = await deployment(200, { message: "ok" });
    try {
      expect((await verify(spec, validator, { baseUrl: broken.baseUrl, minIntervalMs: 0 })).ok).toBe(false);
    } finally {
      await broken.close();
    }
    const unreachable = await verify(spec, validator, {
      baseUrl: `http://127.0.0.1:${await closedPort()}${BASE_PATH}`,
      minIntervalMs: 0,
      timeoutMs: 2000,
    });
    expect(unreachable.ok).toBe(false);
    expect(unreachable.unchecked).toMatch(/^cannot connect to 127\.0\.0\.1:\d+: connection refused \(ECONNREFUSED\)/);
    expect(unreachable.unchecked).not.toContain("\n");
    expect(unreachable.requests).toBe(1);
    expect(unreachable.counts.failed).toBe(1);
    expect(unreachable.results.find((r) => r.outcome === "failed")?.reason).toMatch(/^no answer/);
  });

  it("passes a positive case only with its documented success status: a 404 or an undocumented 2xx fails; a refusal answered 404 fails", async () => {
    const rewritten = await proxy((request, answer) => {
      if (request.method === "GET" && request.url === `${BASE_PATH}/wallets/USDT`) return { status: 404 };
      if (request.method === "GET" && request.url === `${BASE_PATH}/trades/summary/me` && request.hasKey)
        return { status: 201 };
      // The mock's conforming 422 refusal, as a 404.
      if (request.url.startsWith(`${BASE_PATH}/invoices/me?`) && request.url.includes("NOT_A_DOCUMENTED_VALUE"))
        return { status: 404 };
      return answer.status === 200 || answer.status >= 400 ? undefined : { status: 500 };
    });
    try {
      const report = await verify(spec, validator, { baseUrl: rewritten.baseUrl, apiKey: "k", minIntervalMs: 0 });
      const failed = report.results.filter((r) => r.outcome === "failed");
      expect(failed.map((r) => r.case).sort()).toEqual(
        [
          "getWalletBalance: GET /wallets/USDT",
          "getTradesSummary: GET /trades/summary/me",
          "listMyInvoices: query status outside its enum",
        ].sort(),
      );
      const byCase = (name: string) => failed.find((r) => r.case === name)!;
      expect(byCase("getWalletBalance: GET /wallets/USDT").reason).toBe(
        "answered 404, not its documented success 200 (not found: is the operation deployed at this base URL?)",
      );
      expect(byCase("getTradesSummary: GET /trades/summary/me").reason).toBe(
        "answered 201, not its documented success 200",
      );
      expect(byCase("getTradesSummary: GET /trades/summary/me").violations.map((v) => v.kind)).toContain(
        "undocumented-status",
      );
      expect(byCase("listMyInvoices: query status outside its enum").reason).toMatch(
        /^answered 404: the operation is not there/,
      );
      expect(report.ok).toBe(false);
      expect(report.cause).toBeUndefined();
    } finally {
      await rewritten.close();
    }
  });

  it("fails a 2xx that the contract reaches only through `default`: the success status must be the documented one", async () => {
    // This contract with a `default` response on getTradesSummary: a 201 with an error body conforms to it.
    const withDefault = structuredClone(spec);
    const operation = (withDefault.paths!["/trades/summary/me"] as JsonObject).get as JsonObject;
    const responses = operation.responses as JsonObject;
    responses.default = responses["4XX"];
    // A body the contract accepts for a 4XX (so for `default`): the mock's answer to a request it refuses.
    const errorBody = await fetch(`${mock.baseUrl}/invoices/me?status=NOT_A_DOCUMENTED_VALUE`, {
      headers: { [API_KEY_HEADER]: "k" },
    }).then((r) => r.text());
    const rewritten = await proxy((request) =>
      request.method === "GET" && request.url === `${BASE_PATH}/trades/summary/me` && request.hasKey
        ? { status: 201, body: errorBody }
        : undefined,
    );
    try {
      const report = await verify(withDefault, createContractValidator(withDefault), {
        baseUrl: rewritten.baseUrl,
        apiKey: "k",
        minIntervalMs: 0,
      });
      const summary = report.results.find((r) => r.case === "getTradesSummary: GET /trades/summary/me")!;
      expect(summary).toMatchObject({
        outcome: "failed",
        status: 201,
        reason: "answered 201, not its documented success 200",
      });
      expect(summary.violations).toEqual([
        {
          kind: "unexpected-status",
          location: "status",
          pointer: "",
          message: "GET /trades/summary/me: expected 200, got 201",
        },
      ]);
    } finally {
      await rewritten.close();
    }
  });

  it("says in one line that the key was refused when every keyed positive case is answered 401 or 403, or that no key was given", async () => {
    const forbidding = await deployment(403, {});
    try {
      const report = await verify(spec, validator, { baseUrl: forbidding.baseUrl, apiKey: "k", minIntervalMs: 0 });
      expect(report.ok).toBe(false);
      expect(report.cause).toMatch(
        /^the API key was refused: all \d+ positive cases that send it were answered 403; check CONTRACT_API_KEY/,
      );
      expect(report.cause).not.toContain("\n");
    } finally {
      await forbidding.close();
    }
    // Without a key, against the mock: the cases that need one get 401.
    const keyless = await verify(spec, validator, { baseUrl: mock.baseUrl, minIntervalMs: 0 });
    expect(keyless.cause).toMatch(
      /^no API key was given, and all \d+ positive cases that need one were answered 401; set CONTRACT_API_KEY/,
    );
    // Not every keyed case refused: no such line (the failure is that case's own).
    const partly = await proxy((request) =>
      request.url === `${BASE_PATH}/trades/summary/me` && request.hasKey ? { status: 401 } : undefined,
    );
    try {
      const report = await verify(spec, validator, { baseUrl: partly.baseUrl, apiKey: "k", minIntervalMs: 0 });
      expect(report.counts.failed).toBe(1);
      expect(report.cause).toBeUndefined();
    } finally {
      await partly.close();
    }
  });

  it("writes JUnit XML that escapes <, &, quotes, line breaks, forbidden characters and non-ASCII text", () => {
    const reason = `answered 200 <b>"bold"</b> & 'quoted' ]]> — ünïcödé → ✓ 😀\nsecond line\tafter a tab`;
    const report: VerifyReport = {
      baseUrl: "http://127.0.0.1:1/v1?a=1&b=<2>",
      target: "deployment",
      startedAt: "2026-01-01T00:00:00.000Z",
      finishedAt: "2026-01-01T00:00:01.500Z",
      requests: 2,
      counts: { passed: 1, failed: 2, skipped: 1 },
      ok: false,
      results: [
        {
          case: "ok: GET /a",
          operationId: "a",
          kind: "positive",
          outcome: "passed",
          status: 200,
          durationMs: 12,
          violations: [],
          warnings: [],
        },
        {
          case: `bad: GET /b?x="<&>"`,
          operationId: "b",
          kind: "positive",
          outcome: "failed",
          reason,
          request: { method: "GET", url: "http://127.0.0.1:1/v1/b?x=1&y=2" },
          status: 200,
          violations: [
            {
              kind: "body-schema",
              location: "body",
              pointer: "/data/0/näme",
              message: `must be <string> & not "null" \u0007 bell`,
            },
          ],
          warnings: [],
        },
        {
          case: "gone: GET /c",
          operationId: "c",
          kind: "positive",
          outcome: "failed",
          reason: "no answer: cannot connect",
          noAnswer: "cannot connect",
          violations: [],
          warnings: [],
        },
        {
          case: "skip: POST /d",
          operationId: "d",
          kind: "positive",
          outcome: "skipped",
          reason: `needs {id} — "--param id=…" & <more>`,
          violations: [],
          warnings: [],
        },
      ],
    };
    const xml = reportJunit(report);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    const counts = junitCounts(xml);
    expect(counts).toMatchObject({ tests: 4, failures: 1, errors: 1, skipped: 1 });
    expect(counts.suite).toMatchObject({ tests: "4", failures: "1", errors: "1", skipped: "1", time: "1.500" });
    const [passed, failed, error, skipped] = counts.cases;
    expect(passed!.children).toEqual([]);
    expect(failed!.attributes.name).toBe(`bad: GET /b?x="<&>"`);
    const failure = failed!.children.find((c) => c.name === "failure")!;
    expect(failure.attributes.message).toBe(reason);
    expect(failure.attributes.type).toBe("body-schema");
    expect(failure.text).toContain("GET http://127.0.0.1:1/v1/b?x=1&y=2 → 200");
    expect(failure.text).toContain(reason);
    // The bell (forbidden in XML 1.0) is written as \u0007; the rest as it was.
    expect(failure.text).toContain(`[body-schema] body /data/0/näme: must be <string> & not "null" \\u0007 bell`);
    expect(error!.children.map((c) => [c.name, c.attributes.type])).toEqual([["error", "no-answer"]]);
    expect(skipped!.children.find((c) => c.name === "skipped")?.attributes.message).toBe(
      `needs {id} — "--param id=…" & <more>`,
    );
    const property = (name: string) =>
      elementsNamed(parseXml(xml), "property").find((p) => p.attributes.name === name)?.attributes.value;
    expect(property("baseUrl")).toBe(report.baseUrl);
  });

  it("reads JUnit with a reader that refuses what is not well-formed", () => {
    for (const bad of [
      "<a>&</a>",
      "<a>&nbsp;</a>",
      "<a b=c/>",
      '<a b="1" b="2"/>',
      '<a b="<"/>',
      "<a><b></a></b>",
      "<a/><b/>",
      "<a>\u0007</a>",
      "<a>&#0;</a>",
      "<a>",
      "text<a/>",
      "<a>]]></a>",
    ]) {
      expect(() => parseXml(bad), bad).toThrow(/^xml: /);
    }
    expect(
      parseXml(`<?xml version="1.0" encoding="UTF-8"?>\n<a x="&quot;&#10;&#x1F600;"><b>&lt;&amp;&gt;</b></a>`),
    ).toEqual({
      name: "a",
      attributes: { x: '"\n😀' },
      children: [{ name: "b", attributes: {}, children: [], text: "<&>" }],
      text: "",
    });
  });
  it("signs every request when given a secret", async () => {
    const server = await deployment(401, {});
    try {
      await verify(spec, validator, {
        baseUrl: server.baseUrl,
        apiKey: "k",
        apiSecret: "verify-secret",
        minIntervalMs: 0,
      });
      expect(server.seen.length).toBeGreaterThan(0);
      for (const seen of server.seen) {
        const timestamp = String(seen.headers[SIGNING_HEADERS.timestamp]);
        expect(seen.headers[SIGNING_HEADERS.signature], seen.url).toBe(
          createHmac("sha256", "verify-secret").update(`${seen.method}${seen.url}${timestamp}`).digest("hex"),
        );
      }
    } finally {
      await server.close();
    }
  });
});

/** A clock for the verifier that moves only when it sleeps: pauses are asked for, not waited. */
function fakeClock() {
  let time = 0;
  const pauses: number[] = [];
  return {
    pauses,
    now: () => time,
    sleep: async (ms: number) => {
      pauses.push(ms);
      time += ms;
    },
  };
}

describe("verify on a deployment keeps each safety promise (side effects not allowed)", () => {
  // A deployment in front of the mock, recording what it is sent at the verifier's (fake) time.
  const clock = fakeClock();
  let recorded: Awaited<ReturnType<typeof proxy>>;
  let report: VerifyReport;
  const sent = () => recorded.seen.map((s) => `${s.method} ${s.url.replace(/\?.*$/, "")}`);
  beforeAll(async () => {
    recorded = await proxy(undefined, { now: clock.now });
    report = await verify(spec, validator, {
      baseUrl: recorded.baseUrl,
      apiKey: "k",
      minIntervalMs: 60,
      params: { quoteId: "q-1" },
      clock,
    });
  });
  afterAll(() => recorded?.close());

  it("the run the promises are about passed, and every request it counted reached the deployment", () => {
    expect(report.ok, JSON.stringify(report.results.filter((r) => r.outcome === "failed"))).toBe(true);
    expect(recorded.seen.length).toBe(report.requests);
  });

  it("executes no trade: Accept Quote is never sent, and its case says why", () => {
    expect(sent()).not.toContain(`POST ${BASE_PATH}/trades/quote/q-1`);
    expect(recorded.seen.filter((s) => s.url.startsWith(`${BASE_PATH}/trades/quote/`))).toEqual([]);
    expect(report.results.find((r) => r.case === "acceptQuote: POST /trades/quote/{quoteId}")?.reason).toMatch(
      /changes state/,
    );
  });

  it("calls Create Quote once (its own quota): its invalid bodies are not sent", () => {
    expect(sent().filter((s) => s === `POST ${BASE_PATH}/trades/quote`)).toHaveLength(1);
  });

  it("sends nothing else that changes state: every request but those to Create and Accept Quote is a GET", () => {
    const quote = new RegExp(`^${BASE_PATH}/trades/quote(/|$)`);
    expect(
      recorded.seen.filter((s) => s.method !== "GET" && !quote.test(s.url)).map((s) => `${s.method} ${s.url}`),
    ).toEqual([]);
  });

  it("paces its requests: minIntervalMs from one answer to the next request, a pause asked for before each but the first", () => {
    const gaps = recorded.seen.slice(1).map((s, i) => s.at - recorded.seen[i]!.at);
    expect(gaps.length).toBeGreaterThan(10);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(60);
    expect(clock.pauses).toEqual(gaps.map(() => 60));
  });
});

async function withTempDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "api-contract-verify-"));
  try {
    return await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const linesMatching = (output: string, pattern: RegExp): string[] =>
  output.split("\n").filter((line) => pattern.test(line));

describe("api-contract verify (the command)", () => {
  it("exits 0 against the mock, every case run (no flag needed), with a progress line per case, and writes JUnit XML, JSON and Markdown that agree", async () => {
    await withTempDir(async (dir) => {
      const good = await cli(["verify", "--base-url", mock.baseUrl, "--report-dir", dir], { CONTRACT_API_KEY: "k" });
      expect(good.code, good.output).toBe(0);
      const total = planVerification(spec, {}).length;
      expect(linesMatching(good.output, /^Meets the contract/)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^Meets the contract \\(the package's mock ${PACKAGE_VERSION}\\): ${total} passed, 0 failed, 0 skipped \\(`,
          ),
        ),
      ]);
      expect(linesMatching(good.output, /the target is/)).toEqual([
        `  the target is the package's mock ${PACKAGE_VERSION} (X-Api-Contract-Mock): every case runs, unpaced`,
      ]);
      expect(good.output).not.toMatch(/live/);
      const { report, junit } = await expectReportsAgree(dir);
      expect(report.ok).toBe(true);
      expect(junit.failures + junit.errors).toBe(0);
      expect(linesMatching(good.output, /^\[\s*\d+\/\d+\] [✓✗–] /)).toHaveLength(report.results.length);
      expect(good.output).toContain(`Reports: ${path.join(dir, "verify-report.junit.xml")}`);
    });
  }, 120_000);

  it("exits 1 with a one-line reason against a server that answers 401 everywhere (the key was refused); the reports list the failures", async () => {
    const broken = await deployment(401, {});
    try {
      await withTempDir(async (dir) => {
        const bad = await cli(["verify", "--base-url", broken.baseUrl, "--min-interval-ms", "0", "--report-dir", dir], {
          CONTRACT_API_KEY: "k",
        });
        expect(bad.code, bad.output).toBe(1);
        expect(linesMatching(bad.output, /the target is|^Does NOT meet/)).toEqual([
          "  the target is a deployment (its answers do not carry X-Api-Contract-Mock)",
          expect.stringMatching(/^Does NOT meet the contract \(a deployment\): \d+ passed, \d+ failed, \d+ skipped/),
        ]);
        expect(linesMatching(bad.output, /key was refused/)).toEqual([
          expect.stringMatching(
            /^api-contract: the API key was refused: all \d+ positive cases that send it were answered 401; check CONTRACT_API_KEY/,
          ),
        ]);
        const { report, junit } = await expectReportsAgree(dir);
        expect(junit.failures).toBe(report.counts.failed);
        expect(junit.failures).toBeGreaterThan(0);
        expect(report.cause).toMatch(/^the API key was refused/);
      });
    } finally {
      await broken.close();
    }
  }, 120_000);

  it("exits 1 when every GET is redirected (301) to where the mock answers: no redirect is followed, each is named", async () => {
    const moved = await proxy((request) =>
      request.method === "GET" && !request.url.startsWith("/moved/")
        ? { status: 301, body: "", headers: { location: `/moved${request.url}` } }
        : undefined,
    );
    try {
      const result = await cli(["verify", "--base-url", moved.baseUrl, "--min-interval-ms", "0"], {
        CONTRACT_API_KEY: "k",
      });
      expect(result.code, result.output).toBe(1);
      expect(result.output).toContain("Does NOT meet the contract");
      expect(linesMatching(result.output, /✓ getFiatRates/)).toEqual([]);
      expect(result.output).toContain(
        `answered 301, not its documented success 200 (a redirect to /moved${BASE_PATH}/currencies/fiat-rates: verify does not follow redirects)`,
      );
      expect(moved.seen.filter((s) => s.url.startsWith("/moved/"))).toEqual([]);
    } finally {
      await moved.close();
    }
  }, 120_000);

  it("exits 2 with a one-line reason when the target is unreachable (connection refused), still writing the reports", async () => {
    const port = await closedPort();
    await withTempDir(async (dir) => {
      const result = await cli(["verify", "--base-url", `http://127.0.0.1:${port}${BASE_PATH}`, "--report-dir", dir]);
      expect(result.code, result.output).toBe(2);
      expect(linesMatching(result.output, /could not check/)).toEqual([
        `api-contract: could not check http://127.0.0.1:${port}${BASE_PATH}: cannot connect to 127.0.0.1:${port}: connection refused (ECONNREFUSED); is the service running there?`,
      ]);
      expect(result.output).toContain("(1 requests in");
      const { report, junit } = await expectReportsAgree(dir);
      expect(report.unchecked).toMatch(/connection refused/);
      expect(junit.errors).toBe(1);
    });
  });

  it("exits 2 with a one-line reason when TLS fails (https to a plain-http server)", async () => {
    const plain = await deployment(200, {});
    try {
      const url = plain.baseUrl.replace(/^http:/, "https:");
      const result = await cli(["verify", "--base-url", url]);
      expect(result.code, result.output).toBe(2);
      expect(linesMatching(result.output, /could not check/)).toEqual([
        expect.stringMatching(
          /^api-contract: could not check https:\/\/127\.0\.0\.1:\d+\/v1: TLS with 127\.0\.0\.1:\d+ failed: .*\(ERR_SSL_\w+\)/,
        ),
      ]);
      expect(plain.seen).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it("--api-key and --api-secret override CONTRACT_API_KEY and CONTRACT_API_SECRET", async () => {
    const server = await deployment(401, {});
    const env = { CONTRACT_API_KEY: "env-key", CONTRACT_API_SECRET: "env-secret" };
    const signedWith = (secret: string, seen: Seen) =>
      seen.headers[SIGNING_HEADERS.signature] ===
      createHmac("sha256", secret)
        .update(`${seen.method}${seen.url}${String(seen.headers[SIGNING_HEADERS.timestamp])}`)
        .digest("hex");
    try {
      const fromFlags = await cli(
        [
          "verify",
          "--base-url",
          server.baseUrl,
          "--min-interval-ms",
          "0",
          "--api-key",
          "flag-key",
          "--api-secret",
          "flag-secret",
        ],
        env,
      );
      expect(fromFlags.code).toBe(1);
      expect(fromFlags.output).toContain("key from --api-key, requests signed (secret from --api-secret)");
      const keyed = server.seen.filter((s) => s.headers[API_KEY_HEADER] !== undefined);
      expect(keyed.length).toBeGreaterThan(0);
      expect(new Set(keyed.map((s) => s.headers[API_KEY_HEADER]))).toEqual(new Set(["flag-key"]));
      for (const seen of server.seen) expect(signedWith("flag-secret", seen), seen.url).toBe(true);
      server.seen.length = 0;
      const fromEnv = await cli(["verify", "--base-url", server.baseUrl, "--min-interval-ms", "0"], env);
      expect(fromEnv.output).toContain("key from CONTRACT_API_KEY, requests signed (secret from CONTRACT_API_SECRET)");
      expect(
        new Set(
          server.seen.filter((s) => s.headers[API_KEY_HEADER] !== undefined).map((s) => s.headers[API_KEY_HEADER]),
        ),
      ).toEqual(new Set(["env-key"]));
      for (const seen of server.seen) expect(signedWith("env-secret", seen), seen.url).toBe(true);
      // Neither the key nor the secret is printed.
      for (const output of [fromFlags.output, fromEnv.output])
        expect(output).not.toMatch(/flag-key|flag-secret|env-key|env-secret/);
    } finally {
      await server.close();
    }
  }, 120_000);

  it("refuses bad arguments with exit 2: a base URL without the base path, unknown options, an empty --api-key, --report and --report-dir apart", async () => {
    const noBase = await cli(["verify", "--base-url", "http://127.0.0.1:9"]);
    expect(noBase.code).toBe(2);
    expect(noBase.output).toContain(`ending in ${BASE_PATH}`);
    const unknown = await cli(["verify", "--nope"]);
    expect(unknown.code).toBe(2);
    const emptyKey = await cli(["verify", "--base-url", `http://127.0.0.1:9${BASE_PATH}`, "--api-key", ""], {
      CONTRACT_API_KEY: "k",
    });
    expect(emptyKey.code).toBe(2);
    expect(emptyKey.output).toContain("--api-key is empty");
    const both = await cli([
      "verify",
      "--base-url",
      `http://127.0.0.1:9${BASE_PATH}`,
      "--report",
      "a",
      "--report-dir",
      "b",
    ]);
    expect(both.code).toBe(2);
    expect(both.output).toContain("--report is the old name of --report-dir");
  });
});
