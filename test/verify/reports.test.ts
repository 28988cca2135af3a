// The reports verify writes (src/verify/report.ts): violation lines, the Markdown and JUnit reports byte for byte,
// JUnit text as a strict XML reader sees it (escapes, characters XML forbids, non-ASCII), and the files
// writeReport writes.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  type CaseResult,
  reportJunit,
  reportMarkdown,
  type VerifyReport,
  violationLine,
  writeReport,
} from "../../src/verify/index.js";
import { junitCounts } from "../support/junit.js";
import { elementsNamed, parseXml } from "../support/xml.js";

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
  it("names the kind, where (body pointer, '(whole body)', header pointer, location) and the message", () => {
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
        "Target: http://127.0.0.1:1/v1 (a deployment); 2026-01-01T00:00:00.000Z to 2026-01-01T00:00:02.250Z; 3 " +
          "requests.",
        "",
        "**Does not meet the contract.** 1 passed, 3 failed, 1 skipped.",
        "",
        "Why: every request was answered 404.",
        "",
        "| case | request | status | outcome | why / violations (JSON pointers) |",
        "|---|---|---|---|---|",
        "| getThing: GET /things/{id} | GET http://127.0.0.1:1/v1/things/1 | 200 | passed | warning " +
          "[undocumented-field] body /data/extra: /data/extra is not documented by the spec |",
        "| listThings: GET /things | GET http://127.0.0.1:1/v1/things?a=1\\|2 | 200 | failed | answered 200, " +
          "breaking the contract: 3 violations; " +
          "[body-schema] body (whole body): body is empty; [missing-header] headers /x-ratelimit-limit: required " +
          "header x-ratelimit-limit is missing; " +
          "[unknown-operation] operation: not an operation |",
        "| createThing: POST /things | POST http://127.0.0.1:1/v1/things |  | failed | no answer: cannot connect |",
        "| deleteThing: DELETE /things/{id} |  |  | skipped | DELETE changes state on the target (allow side " +
          "effects to run it) |",
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
      "Target: http://127.0.0.1:1/v1 (the package's mock 1.2.3); 2026-01-01T00:00:00.000Z to " +
        "2026-01-01T00:00:02.250Z; 3 requests.",
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

describe("the time waited for rate limits", () => {
  it("is said in the Markdown and as a JUnit property when verify waited, to the second, and not otherwise", () => {
    // 3 h 2 min 5 s = 10,800 + 120 + 5 = 10,925 s.
    const waited = report({ limitWaitMs: 10_925_000, results: [] });
    const line = "\n\nWaited 3 h 2 min 5 s of the target's time for spent rate limits to reset.\n\n| case |";
    expect(reportMarkdown(waited)).toContain(line);
    expect(reportJunit(waited)).toContain('<property name="limitWaitMs" value="10925000"/>');
    // 60,400 ms is 1 min (60.4 s to the second); 1 h exactly leaves out the units that are 0.
    expect(reportMarkdown(report({ limitWaitMs: 60_400, results: [] }))).toContain("\nWaited 1 min of ");
    expect(reportMarkdown(report({ limitWaitMs: 3_600_000, results: [] }))).toContain("\nWaited 1 h of ");
    const none = report({ results: [] });
    expect([reportMarkdown(none).includes("Waited"), reportJunit(none).includes("limitWaitMs")]).toEqual([
      false,
      false,
    ]);
  });
});

describe("reportJunit", () => {
  it("writes the suite's counts and properties, and per case its class, time, element, type and text", () => {
    expect(reportJunit(report({ cause: "the key was refused", unchecked: "no & answer" }))).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="api-contract verify" tests="5" failures="2" errors="1" skipped="1" time="2.250">',
        '  <testsuite name="api-contract verify http://127.0.0.1:1/v1" tests="5" failures="2" errors="1" ' +
          'skipped="1" time="2.250" timestamp="2026-01-01T00:00:00.000Z">',
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
        '      <failure message="answered 200, breaking the contract: 3 violations" type="body-schema">GET ' +
          "http://127.0.0.1:1/v1/things?a=1|2 → 200",
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

  it("names the package's sandbox with its version in the Markdown report when that is the target", () => {
    const text = reportMarkdown(report({ target: "sandbox", mockVersion: "1.2.3", results: [] }));
    expect(text).toContain("Target: http://127.0.0.1:1/v1 (the package's sandbox 1.2.3); ");
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

  it("leaves out unchecked and cause when unset; escapes > and \\r in content, ' and \\t in attributes", () => {
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

  it("writes characters XML 1.0 forbids as \\uXXXX; keeps tabs, line breaks, the BMP's edges, astral", () => {
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

describe("reportJunit, read back", () => {
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
});

describe("writeReport", () => {
  it("writes <name>.junit.xml, .json and .md into a directory it creates; returns their paths", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "verify-reports-"));
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
