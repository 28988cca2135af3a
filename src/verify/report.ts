// A verification report as files: JUnit XML (for CI systems), JSON (for machines) and Markdown (for people).
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ContractViolation, ContractWarning } from "../contract/types.js";
import type { CaseResult, FlowResult, VerifyReport } from "./types.js";

/** A violation in one line, with its JSON pointer: `[body-schema] body /data/0/amount: …`. */
export function violationLine(v: ContractViolation | ContractWarning): string {
  const where =
    v.location === "body"
      ? `body ${v.pointer || "(whole body)"}`
      : v.pointer
        ? `${v.location} ${v.pointer}`
        : v.location;
  return `[${v.kind}] ${where}: ${v.message}`;
}

const details = (r: CaseResult): string[] => [
  ...r.violations.map(violationLine),
  ...r.warnings.map((w) => `warning ${violationLine(w)}`),
];

/**
 * The target in words: the package's mock or sandbox (with its version), or a deployment (verify cannot know it is
 * live).
 */
export function targetLabel(report: Pick<VerifyReport, "target" | "mockVersion">): string {
  if (report.target === "deployment") return "a deployment";
  return `the package's ${report.target}${report.mockVersion ? ` ${report.mockVersion}` : ""}`;
}

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

/** The verdict in bold, as the Markdown report opens with it. */
function markdownVerdict(report: VerifyReport): string {
  if (report.ok) return "**Meets the contract.**";
  return report.unchecked ? "**Could not be checked.**" : "**Does not meet the contract.**";
}

/** "3 h 2 min 5 s": a wait of `ms`, to the second (units that are 0 left out; "0 s" for none). */
function spanText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  const parts = [
    [Math.floor(seconds / 3600), "h"],
    [Math.floor(seconds / 60) % 60, "min"],
    [seconds % 60, "s"],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, unit]) => `${n} ${unit}`);
  return said.length > 0 ? said.join(" ") : "0 s";
}

/** What verify waited for spent rate limits to reset, when it waited (said after the run, and in the Markdown). */
export function limitWaitLine(report: Pick<VerifyReport, "limitWaitMs">): string | undefined {
  if (!report.limitWaitMs) return undefined;
  return `Waited ${spanText(report.limitWaitMs)} of the target's time for spent rate limits to reset.`;
}

export function reportMarkdown(report: VerifyReport): string {
  const { counts } = report;
  const when = `${report.startedAt} to ${report.finishedAt}`;
  const tally = `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
  return [
    "# Contract verification",
    "",
    `Target: ${report.baseUrl} (${targetLabel(report)}); ${when}; ${report.requests} requests.`,
    "",
    `${markdownVerdict(report)} ${tally}.`,
    ...(report.unchecked ? ["", `Why: ${report.unchecked}.`] : []),
    ...(report.cause ? ["", `Why: ${report.cause}.`] : []),
    ...(report.sandboxSetup ? ["", `On the sandbox, verify ${report.sandboxSetup}.`] : []),
    ...(report.limitWaitMs ? ["", limitWaitLine(report)!] : []),
    "",
    "| case | request | status | outcome | why / violations (JSON pointers) |",
    "|---|---|---|---|---|",
    ...report.results.map((r) =>
      [
        "",
        cell(r.case),
        r.request ? cell(`${r.request.method} ${r.request.url}`) : "",
        r.status ?? "",
        r.outcome,
        cell([r.reason ?? "", ...details(r)].filter(Boolean).join("; ")),
        "",
      ]
        .join(" | ")
        .trim(),
    ),
    ...flowsMarkdown(report),
    "",
  ].join("\n");
}

/**
 * The flows and the register's verdicts, as a team pastes them into an issue for the service's owners: each
 * contradicted rule with the exchange that shows it.
 */
function flowsMarkdown(report: VerifyReport): string[] {
  if (!report.flows || !report.choices) return [];
  const verdictCell = (verdict: string, allowed?: boolean) => (allowed ? `${verdict} (allowed)` : verdict);
  return [
    "",
    "## Flows",
    "",
    "| flow | outcome | why |",
    "|---|---|---|",
    ...report.flows.map((flow) => `| ${cell(flow.flow)} | ${flow.outcome} | ${cell(flow.reason ?? "")} |`),
    "",
    "## The sandbox's register of choices on this target",
    "",
    "| choice | verdict | evidence / why untested |",
    "|---|---|---|",
    ...report.choices.map(
      (choice) =>
        `| ${choice.id} | ${verdictCell(choice.verdict, choice.allowed)} | ` +
        `${cell(choice.evidence ?? choice.reason ?? "")} |`,
    ),
  ];
}

/**
 * Text as XML 1.0 can hold it: characters XML forbids (most controls, lone surrogates, U+FFFE/U+FFFF) written as
 * `\uXXXX`.
 */
function xmlChars(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const allowed =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      code >= 0x10000;
    out += allowed ? char : `\\u${code.toString(16).padStart(4, "0")}`;
  }
  return out;
}

const XML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
  "\r": "&#13;",
  "\n": "&#10;",
  "\t": "&#9;",
};

/** Escaped for an attribute value (quoted with "): line breaks and tabs as character references, so they survive. */
const attr = (text: string): string => xmlChars(text).replace(/[&<>"'\r\n\t]/g, (c) => XML_ESCAPES[c]!);
/** Escaped for element content. */
const content = (value: string): string => xmlChars(value).replace(/[&<>\r]/g, (c) => XML_ESCAPES[c]!);

const seconds = (ms: number | undefined): string => ((ms ?? 0) / 1000).toFixed(3);

/** The attributes <testsuites> and <testsuite> share: the counts of cases by outcome, and the run's time. */
/** The counts of the cases' suite, or of every suite with `flows` added. */
function junitCounts(report: VerifyReport, flows: FlowResult[] = []): string {
  const errors = report.results.filter((r) => r.outcome === "failed" && r.noAnswer !== undefined).length;
  const failures = report.counts.failed - errors + flows.filter((flow) => flow.outcome === "failed").length;
  const total = Date.parse(report.finishedAt) - Date.parse(report.startedAt);
  const tests = report.results.length + flows.length;
  const skipped = report.counts.skipped + flows.filter((flow) => flow.outcome === "untested").length;
  return `tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(total)}"`;
}

/** The suite's <property> lines: the target, the verdict, and why it could not be checked or failed, if said. */
function junitProperties(report: VerifyReport): string[] {
  const properties = [
    ["baseUrl", report.baseUrl],
    ["target", report.target],
    ...(report.mockVersion ? [["mockVersion", report.mockVersion]] : []),
    ["requests", String(report.requests)],
    ["ok", String(report.ok)],
    ...(report.unchecked ? [["unchecked", report.unchecked]] : []),
    ...(report.cause ? [["cause", report.cause]] : []),
    ...(report.sandboxSetup ? [["sandboxSetup", report.sandboxSetup]] : []),
    ...(report.limitWaitMs ? [["limitWaitMs", String(report.limitWaitMs)]] : []),
  ];
  return properties.map(([name, value]) => `      <property name="${attr(name!)}" value="${attr(value!)}"/>`);
}

/** A case's <testcase>: empty when it passed, else with its <skipped>, <failure> or <error> (no HTTP answer). */
function junitCase(r: CaseResult): string[] {
  const classname = attr(r.operationId ?? "api-contract");
  const open = `    <testcase classname="${classname}" name="${attr(r.case)}" time="${seconds(r.durationMs)}"`;
  if (r.outcome === "passed") return [`${open}/>`];
  const reason = r.reason ?? "";
  if (r.outcome === "skipped") return [`${open}>`, `      <skipped message="${attr(reason)}"/>`, "    </testcase>"];
  const element = r.noAnswer !== undefined ? "error" : "failure";
  const type = r.noAnswer !== undefined ? "no-answer" : (r.violations[0]?.kind ?? "contract");
  const answer = r.status !== undefined ? ` → ${r.status}` : "";
  const body = [...(r.request ? [`${r.request.method} ${r.request.url}${answer}`] : []), reason, ...details(r)];
  const text = content(body.join("\n"));
  return [
    `${open}>`,
    `      <${element} message="${attr(reason)}" type="${attr(type)}">${text}</${element}>`,
    "    </testcase>",
  ];
}

/**
 * JUnit XML: one <testsuite> with a <testcase> per case; a failed case has a <failure> (an <error> when
 * no HTTP answer came) with its reason as message and its violations as text; a skipped one a <skipped>
 * with the reason.
 */
export function reportJunit(report: VerifyReport): string {
  const counts = junitCounts(report);
  const suiteName = attr(`api-contract verify ${report.baseUrl}`);
  const flows = report.flows ?? [];
  const all = flows.length ? junitCounts(report, flows) : counts;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="api-contract verify" ${all}>`,
    `  <testsuite name="${suiteName}" ${counts} timestamp="${attr(report.startedAt)}">`,
    "    <properties>",
    ...junitProperties(report),
    "    </properties>",
    ...report.results.flatMap(junitCase),
    "  </testsuite>",
    ...junitFlows(report.baseUrl, flows),
    "</testsuites>",
    "",
  ].join("\n");
}

/** The flows' <testsuite>: a <testcase> per flow, with its <failure>, or <skipped> and why it was untested. */
function junitFlows(baseUrl: string, flows: FlowResult[]): string[] {
  if (!flows.length) return [];
  const failures = flows.filter((flow) => flow.outcome === "failed").length;
  const skipped = flows.filter((flow) => flow.outcome === "untested").length;
  const counts = `tests="${flows.length}" failures="${failures}" errors="0" skipped="${skipped}"`;
  return [
    `  <testsuite name="${attr(`api-contract verify flows ${baseUrl}`)}" ${counts}>`,
    ...flows.flatMap((flow) => {
      const open = `    <testcase classname="flow" name="${attr(flow.flow)}"`;
      if (flow.outcome === "passed") return [`${open}/>`];
      const why = attr(flow.reason ?? "");
      const element = flow.outcome === "failed" ? `failure message="${why}" type="flow"` : `skipped message="${why}"`;
      return [`${open}>`, `      <${element}/>`, "    </testcase>"];
    }),
    "  </testsuite>",
  ];
}

/** Writes `<dir>/<name>.junit.xml`, `<dir>/<name>.json` and `<dir>/<name>.md`; returns their paths. */
export async function writeReport(
  report: VerifyReport,
  dir: string,
  name = "verify-report",
): Promise<{ junit: string; json: string; markdown: string }> {
  await mkdir(dir, { recursive: true });
  const junit = path.join(dir, `${name}.junit.xml`);
  const json = path.join(dir, `${name}.json`);
  const markdown = path.join(dir, `${name}.md`);
  await writeFile(junit, reportJunit(report));
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(markdown, reportMarkdown(report));
  return { junit, json, markdown };
}
