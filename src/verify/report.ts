// A verification report as files: JSON (for machines) and Markdown (for people).
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { VerifyReport } from "./run.js";

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function reportMarkdown(report: VerifyReport): string {
  const { counts } = report;
  return [
    "# Contract verification",
    "",
    `Target: ${report.baseUrl} (${report.target}); ${report.startedAt} to ${report.finishedAt}; ${report.requests} requests.`,
    "",
    `${report.ok ? "**Meets the contract.**" : "**Does not meet the contract.**"} ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped.`,
    "",
    "| case | request | status | outcome | why / violations |",
    "|---|---|---|---|---|",
    ...report.results.map((r) =>
      [
        "",
        cell(r.case),
        r.request ? cell(`${r.request.method} ${r.request.url}`) : "",
        r.status ?? "",
        r.outcome,
        cell(
          [r.reason ?? "", ...r.violations.map((v) => `[${v.kind}] ${v.message}`), ...r.warnings.map((w) => `warning: ${w.message}`)]
            .filter(Boolean)
            .join("; "),
        ),
        "",
      ]
        .join(" | ")
        .trim(),
    ),
    "",
  ].join("\n");
}

/** Writes `<dir>/<name>.json` and `<dir>/<name>.md`; returns their paths. */
export async function writeReport(report: VerifyReport, dir: string, name = "verify-report"): Promise<{ json: string; markdown: string }> {
  await mkdir(dir, { recursive: true });
  const json = path.join(dir, `${name}.json`);
  const markdown = path.join(dir, `${name}.md`);
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(markdown, reportMarkdown(report));
  return { json, markdown };
}
