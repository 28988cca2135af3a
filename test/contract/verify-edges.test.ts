// Edges of src/verify that the end-to-end tests (verify.test.ts) reach only through the command's child process
// or not at all: why a request got no answer (from the errors fetch really raises against local servers),
// the Markdown and JUnit reports byte for byte, violation lines, and the files writeReport writes.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CaseResult,
  noAnswerReason,
  reportJunit,
  reportMarkdown,
  type VerifyReport,
  violationLine,
  writeReport,
} from "../../src/verify/index.js";

/** The error fetch rejects with for `url` (it must reject). */
async function fetchError(url: string, init?: RequestInit): Promise<unknown> {
  try {
    await fetch(url, init);
  } catch (error) {
    return error;
  }
  throw new Error(`${url} answered`);
}

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as net.AddressInfo).port;
}

const servers: net.Server[] = [];
async function tcp(onData: (socket: net.Socket) => void): Promise<string> {
  const server = net.createServer((socket) => {
    socket.on("error", () => {});
    socket.once("data", () => onData(socket));
  });
  servers.push(server);
  return `127.0.0.1:${await listen(server)}`;
}

afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

describe("noAnswerReason: one line per way a request gets no HTTP answer", () => {
  let plainHost: string;
  beforeAll(async () => {
    const plain = http.createServer((_req, res) => res.end("plain http"));
    servers.push(plain);
    plainHost = `127.0.0.1:${await listen(plain)}`;
  });

  it("a timeout names the host and the limit in seconds", async () => {
    const host = await tcp(() => {}); // reads the request, never answers
    const url = `http://${host}/v1/x`;
    const error = await fetchError(url, { signal: AbortSignal.timeout(50) });
    expect(noAnswerReason(error, url, 50)).toBe(`${host} did not answer within 0.05 s`);
    expect(noAnswerReason(error, url, 15_000)).toBe(`${host} did not answer within 15 s`);
  });

  it("a refused connection says so and asks whether the service runs", async () => {
    const closed = net.createServer();
    const port = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    const url = `http://127.0.0.1:${port}/v1/x`;
    expect(noAnswerReason(await fetchError(url), url, 1000)).toBe(
      `cannot connect to 127.0.0.1:${port}: connection refused (ECONNREFUSED); is the service running there?`,
    );
  });

  it("an unresolvable host (ENOTFOUND, EAI_AGAIN), whether fetch wraps the system error or not", () => {
    const url = "https://api.example.invalid/v1/x";
    const system = (code: string) => Object.assign(new Error(`getaddrinfo ${code} api.example.invalid`), { code });
    expect(noAnswerReason(new TypeError("fetch failed", { cause: system("ENOTFOUND") }), url, 1000)).toBe(
      "cannot resolve the host of api.example.invalid (ENOTFOUND)",
    );
    expect(noAnswerReason(system("EAI_AGAIN"), url, 1000)).toBe(
      "cannot resolve the host of api.example.invalid (EAI_AGAIN)",
    );
  });

  it("https to a plain-http server: TLS failed, OpenSSL's reason, and the hint that it speaks plain http", async () => {
    const url = `https://${plainHost}/v1/x`;
    expect(noAnswerReason(await fetchError(url), url, 1000)).toBe(
      `TLS with ${plainHost} failed: wrong version number (ERR_SSL_WRONG_VERSION_NUMBER); does it speak plain http rather than https?`,
    );
  });

  it("certificate problems hint at NODE_EXTRA_CA_CERTS; an OpenSSL error without a code or a reason says TLS and its message", () => {
    const url = "https://api.example.com/v1/x";
    const tls = (fields: Record<string, unknown>, message = "certificate has expired\nat TLSSocket") =>
      new TypeError("fetch failed", { cause: Object.assign(new Error(message), fields) });
    for (const code of [
      "CERT_HAS_EXPIRED",
      "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
      "SELF_SIGNED_CERT_IN_CHAIN",
      "ERR_TLS_CERT_ALTNAME_INVALID",
    ]) {
      expect(noAnswerReason(tls({ code }), url, 1000)).toBe(
        `TLS with api.example.com failed: certificate has expired (${code}); for a private CA, set NODE_EXTRA_CA_CERTS to its PEM file`,
      );
    }
    for (const code of ["DEPTH_ZERO_SELF_SIGNED_CERT", "HOSTNAME_MISMATCH"]) {
      expect(noAnswerReason(tls({ code }), url, 1000)).toMatch(
        /; for a private CA, set NODE_EXTRA_CA_CERTS to its PEM file$/,
      );
    }
    expect(
      noAnswerReason(
        tls({ code: "ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE", reason: "sslv3 alert handshake failure" }),
        url,
        1000,
      ),
    ).toBe("TLS with api.example.com failed: sslv3 alert handshake failure (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE)");
    expect(noAnswerReason(tls({ code: "ERR_OSSL_EVP_BAD_DECRYPT" }, "bad decrypt"), url, 1000)).toBe(
      "TLS with api.example.com failed: bad decrypt (ERR_OSSL_EVP_BAD_DECRYPT)",
    );
    expect(noAnswerReason(tls({ library: "SSL routines", reason: 42 }, "  handshake failed  \nmore"), url, 1000)).toBe(
      "TLS with api.example.com failed: handshake failed (TLS)",
    );
  });

  it("an answer that is not HTTP/1.1, a dropped connection, and anything else (its first line, its code if any)", async () => {
    const garbage = await tcp((socket) => socket.end("garbage\r\n\r\n"));
    const parserUrl = `http://${garbage}/v1/x`;
    expect(noAnswerReason(await fetchError(parserUrl), parserUrl, 1000)).toBe(
      `${garbage} did not answer in HTTP/1.1 (Response does not match the HTTP/1.1 protocol (Expected HTTP/, RTSP/ or ICE/)); an https server behind an http URL?`,
    );
    const dropped = await tcp((socket) => socket.destroy());
    const droppedUrl = `http://${dropped}/v1/x`;
    expect(noAnswerReason(await fetchError(droppedUrl), droppedUrl, 1000)).toBe(
      `${dropped} closed the connection without an answer (UND_ERR_SOCKET)`,
    );
    const reset = await tcp((socket) => socket.resetAndDestroy());
    const resetUrl = `http://${reset}/v1/x`;
    expect(noAnswerReason(await fetchError(resetUrl), resetUrl, 1000)).toBe(
      `${reset} closed the connection without an answer (ECONNRESET)`,
    );

    const url = "http://api.example.com/v1/x";
    expect(noAnswerReason(Object.assign(new Error(" broken pipe \nstack"), { code: "EPIPE" }), url, 1000)).toBe(
      "no answer from api.example.com: broken pipe (EPIPE)",
    );
    expect(noAnswerReason(new Error("something odd"), url, 1000)).toBe("no answer from api.example.com: something odd");
    expect(noAnswerReason(Object.assign(new Error("odd code"), { code: 7 }), url, 1000)).toBe(
      "no answer from api.example.com: odd code",
    );
    expect(noAnswerReason("a thrown string", url, 1000)).toBe("no answer from api.example.com: a thrown string");
    expect(noAnswerReason(new Error("no URL"), "not a url", 1000)).toBe("no answer from not a url: no URL");
  });
});

const passed: CaseResult = {
  case: "getThing: GET /things/{id}",
  operationId: "getThing",
  kind: "positive",
  outcome: "passed",
  request: { method: "GET", url: "http://127.0.0.1:1/v1/things/1" },
  status: 200,
  durationMs: 1234,
  violations: [],
  warnings: [
    {
      kind: "undocumented-field",
      location: "body",
      pointer: "/data/extra",
      message: "/data/extra is not documented by the spec",
    },
  ],
};
const failed: CaseResult = {
  case: "listThings: GET /things",
  operationId: "listThings",
  kind: "positive",
  outcome: "failed",
  reason: "answered 200, breaking the contract: 3 violations",
  request: { method: "GET", url: "http://127.0.0.1:1/v1/things?a=1|2" },
  status: 200,
  durationMs: 5,
  violations: [
    { kind: "body-schema", location: "body", pointer: "", message: "body is empty" },
    {
      kind: "missing-header",
      location: "headers",
      pointer: "/x-ratelimit-limit",
      message: "required header x-ratelimit-limit is missing",
    },
    { kind: "unknown-operation", location: "operation", pointer: "", message: "not an operation" },
  ],
  warnings: [],
};
const unanswered: CaseResult = {
  case: "createThing: POST /things",
  operationId: undefined,
  kind: "negative",
  outcome: "failed",
  reason: "no answer: cannot connect",
  request: { method: "POST", url: "http://127.0.0.1:1/v1/things" },
  noAnswer: "cannot connect",
  violations: [],
  warnings: [],
};
const skipped: CaseResult = {
  case: "deleteThing: DELETE /things/{id}",
  operationId: "deleteThing",
  kind: "positive",
  outcome: "skipped",
  reason: "DELETE changes state on the target\n(allow side effects to run it)",
  violations: [],
  warnings: [],
};
const bare: CaseResult = {
  case: "bare",
  operationId: "bare",
  kind: "negative",
  outcome: "failed",
  violations: [],
  warnings: [],
};

function report(fields: Partial<VerifyReport> = {}): VerifyReport {
  return {
    baseUrl: "http://127.0.0.1:1/v1",
    target: "deployment",
    startedAt: "2026-01-01T00:00:00.000Z",
    finishedAt: "2026-01-01T00:00:02.250Z",
    requests: 3,
    counts: { passed: 1, failed: 3, skipped: 1 },
    ok: false,
    results: [passed, failed, unanswered, skipped, bare],
    ...fields,
  };
}

describe("violationLine", () => {
  it("names the kind, where (a body pointer, '(whole body)', a header pointer, or the location alone) and the message", () => {
    expect(violationLine(failed.violations[0]!)).toBe("[body-schema] body (whole body): body is empty");
    expect(violationLine({ kind: "body-schema", location: "body", pointer: "/data/0", message: "m" })).toBe(
      "[body-schema] body /data/0: m",
    );
    expect(violationLine(failed.violations[1]!)).toBe(
      "[missing-header] headers /x-ratelimit-limit: required header x-ratelimit-limit is missing",
    );
    expect(violationLine(failed.violations[2]!)).toBe("[unknown-operation] operation: not an operation");
    expect(violationLine(passed.warnings[0]!)).toBe(
      "[undocumented-field] body /data/extra: /data/extra is not documented by the spec",
    );
  });
});

describe("reportMarkdown", () => {
  it("writes the target, the verdict, the counts and one escaped table row per case", () => {
    expect(reportMarkdown(report({ cause: "every request was answered 404" }))).toBe(
      [
        "# Contract verification",
        "",
        "Target: http://127.0.0.1:1/v1 (a deployment); 2026-01-01T00:00:00.000Z to 2026-01-01T00:00:02.250Z; 3 requests.",
        "",
        "**Does not meet the contract.** 1 passed, 3 failed, 1 skipped.",
        "",
        "Why: every request was answered 404.",
        "",
        "| case | request | status | outcome | why / violations (JSON pointers) |",
        "|---|---|---|---|---|",
        "| getThing: GET /things/{id} | GET http://127.0.0.1:1/v1/things/1 | 200 | passed | warning [undocumented-field] body /data/extra: /data/extra is not documented by the spec |",
        "| listThings: GET /things | GET http://127.0.0.1:1/v1/things?a=1\\|2 | 200 | failed | answered 200, breaking the contract: 3 violations; " +
          "[body-schema] body (whole body): body is empty; [missing-header] headers /x-ratelimit-limit: required header x-ratelimit-limit is missing; " +
          "[unknown-operation] operation: not an operation |",
        "| createThing: POST /things | POST http://127.0.0.1:1/v1/things |  | failed | no answer: cannot connect |",
        "| deleteThing: DELETE /things/{id} |  |  | skipped | DELETE changes state on the target (allow side effects to run it) |",
        "| bare |  |  | failed |  |",
        "",
      ].join("\n"),
    );
  });

  it("says when the target meets the contract, or could not be checked and why", () => {
    const ok = reportMarkdown(
      report({
        ok: true,
        counts: { passed: 1, failed: 0, skipped: 0 },
        results: [passed],
        target: "mock",
        mockVersion: "1.2.3",
      }),
    );
    expect(ok.split("\n").slice(2, 6)).toEqual([
      "Target: http://127.0.0.1:1/v1 (the package's mock 1.2.3); 2026-01-01T00:00:00.000Z to 2026-01-01T00:00:02.250Z; 3 requests.",
      "",
      "**Meets the contract.** 1 passed, 0 failed, 0 skipped.",
      "",
    ]);
    const unchecked = reportMarkdown(report({ unchecked: "cannot connect", results: [] }));
    expect(unchecked.split("\n").slice(4, 9)).toEqual([
      "**Could not be checked.** 1 passed, 3 failed, 1 skipped.",
      "",
      "Why: cannot connect.",
      "",
      "| case | request | status | outcome | why / violations (JSON pointers) |",
    ]);
  });
});

describe("reportJunit", () => {
  it("writes the suite's counts and properties, and per case its class, time, element, type and text", () => {
    expect(reportJunit(report({ cause: "the key was refused", unchecked: "no & answer" }))).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="api-contract verify" tests="5" failures="2" errors="1" skipped="1" time="2.250">',
        '  <testsuite name="api-contract verify http://127.0.0.1:1/v1" tests="5" failures="2" errors="1" skipped="1" time="2.250" timestamp="2026-01-01T00:00:00.000Z">',
        "    <properties>",
        '      <property name="baseUrl" value="http://127.0.0.1:1/v1"/>',
        '      <property name="target" value="deployment"/>',
        '      <property name="requests" value="3"/>',
        '      <property name="ok" value="false"/>',
        '      <property name="unchecked" value="no &amp; answer"/>',
        '      <property name="cause" value="the key was refused"/>',
        "    </properties>",
        '    <testcase classname="getThing" name="getThing: GET /things/{id}" time="1.234"/>',
        '    <testcase classname="listThings" name="listThings: GET /things" time="0.005">',
        '      <failure message="answered 200, breaking the contract: 3 violations" type="body-schema">GET http://127.0.0.1:1/v1/things?a=1|2 → 200',
        "answered 200, breaking the contract: 3 violations",
        "[body-schema] body (whole body): body is empty",
        "[missing-header] headers /x-ratelimit-limit: required header x-ratelimit-limit is missing",
        "[unknown-operation] operation: not an operation</failure>",
        "    </testcase>",
        '    <testcase classname="api-contract" name="createThing: POST /things" time="0.000">',
        '      <error message="no answer: cannot connect" type="no-answer">POST http://127.0.0.1:1/v1/things',
        "no answer: cannot connect</error>",
        "    </testcase>",
        '    <testcase classname="deleteThing" name="deleteThing: DELETE /things/{id}" time="0.000">',
        '      <skipped message="DELETE changes state on the target&#10;(allow side effects to run it)"/>',
        "    </testcase>",
        '    <testcase classname="bare" name="bare" time="0.000">',
        '      <failure message="" type="contract"></failure>',
        "    </testcase>",
        "  </testsuite>",
        "</testsuites>",
        "",
      ].join("\n"),
    );
  });

  it("names the package's mock and its version as properties when that is the target", () => {
    const properties = reportJunit(report({ target: "mock", mockVersion: "1.2.3" }))
      .split("\n")
      .slice(4, 7);
    expect(properties).toEqual([
      '      <property name="baseUrl" value="http://127.0.0.1:1/v1"/>',
      '      <property name="target" value="mock"/>',
      '      <property name="mockVersion" value="1.2.3"/>',
    ]);
  });

  it("leaves out the unchecked and cause properties when there are none; escapes > and \\r in content, and '\\t in attributes", () => {
    const odd: CaseResult = {
      ...bare,
      case: "a'b\tc",
      reason: "x > y\r\nz",
      request: { method: "GET", url: "http://h/v1/'q'" },
    };
    const xml = reportJunit(report({ ok: true, counts: { passed: 0, failed: 1, skipped: 0 }, results: [odd] }));
    expect(xml).not.toMatch(/name="unchecked"|name="cause"/);
    const properties = xml.slice(xml.indexOf("<properties>"), xml.indexOf("</properties>"));
    expect(properties.match(/<property name="[^"]*"/g)).toEqual(
      ["baseUrl", "target", "requests", "ok"].map((name) => `<property name="${name}"`),
    );
    expect(xml).toContain('<property name="ok" value="true"/>');
    expect(xml).toContain(`<testcase classname="bare" name="a&apos;b&#9;c" time="0.000">`);
    expect(xml).toContain(
      `<failure message="x &gt; y&#13;&#10;z" type="contract">GET http://h/v1/'q'\nx &gt; y&#13;\nz</failure>`,
    );
  });

  it("writes characters XML 1.0 forbids as \\uXXXX, and keeps tabs, line breaks, the BMP's edges and astral characters", () => {
    const text = "\u0000\u0008\u000b\u001f\u0009|\u0020\ud7ff\ud800\ue000\ufffd\ufffe\uffff\u{10000}😀";
    const xml = reportJunit(report({ results: [{ ...bare, reason: text }] }));
    expect(xml).toContain(
      `message="\\u0000\\u0008\\u000b\\u001f&#9;| \ud7ff\\ud800\ue000\ufffd\\ufffe\\uffff\u{10000}😀"`,
    );
    expect(xml).toContain(
      `>\\u0000\\u0008\\u000b\\u001f\t| \ud7ff\\ud800\ue000\ufffd\\ufffe\\uffff\u{10000}😀</failure>`,
    );
  });
});

describe("writeReport", () => {
  it("writes <name>.junit.xml, <name>.json and <name>.md into a directory it creates, and returns their paths", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "verify-edges-"));
    try {
      const target = path.join(dir, "nested", "reports");
      const r = report();
      const files = await writeReport(r, target, "run");
      expect(files).toEqual({
        junit: path.join(target, "run.junit.xml"),
        json: path.join(target, "run.json"),
        markdown: path.join(target, "run.md"),
      });
      expect(await readFile(files.junit, "utf8")).toBe(reportJunit(r));
      expect(await readFile(files.json, "utf8")).toBe(`${JSON.stringify(r, null, 2)}\n`);
      expect(await readFile(files.markdown, "utf8")).toBe(reportMarkdown(r));
      const defaults = await writeReport(r, target);
      expect(path.basename(defaults.junit)).toBe("verify-report.junit.xml");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
