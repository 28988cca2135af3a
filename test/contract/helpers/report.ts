// The contract run's report: JSON (for machines) and Markdown (for people), under reports/contract/.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ContractViolation, ContractWarning } from "../../../src/contract/index.js";
import { repoRoot } from "../../support/spec.js";

export interface ReportEntry {
  case: string;
  operationId: string;
  kind: "positive" | "negative";
  request?: { method: string; url: string; headers: Record<string, string>; body?: string };
  status?: number;
  durationMs?: number;
  outcome: "passed" | "failed" | "skipped";
  skippedBecause?: string;
  violations: ContractViolation[];
  warnings: ContractWarning[];
  notes: string[];
}

export const reportDir = path.join(repoRoot, "reports", "contract");

export function writeReport(
  meta: { target: string; targetKind: string; startedAt: string; requests: number },
  entries: ReportEntry[],
): { json: string; markdown: string } {
  mkdirSync(reportDir, { recursive: true });
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const entry of entries) counts[entry.outcome]++;
  const json = path.join(reportDir, "contract-report.json");
  writeFileSync(json, `${JSON.stringify({ ...meta, finishedAt: new Date().toISOString(), counts, entries }, null, 2)}\n`);
  const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const lines = [
    "# Contract run",
    "",
    `Target: ${meta.target} (${meta.targetKind}); started ${meta.startedAt}; ${meta.requests} requests.`,
    "",
    `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped.`,
    "",
    "| case | request | status | outcome | violations / notes |",
    "|---|---|---|---|---|",
    ...entries.map((e) =>
      [
        "",
        cell(e.case),
        e.request ? cell(`${e.request.method} ${e.request.url}`) : "",
        e.status ?? "",
        e.outcome === "skipped" ? `skipped: ${cell(e.skippedBecause ?? "")}` : e.outcome,
        cell([...e.violations.map((v) => `[${v.kind}] ${v.message}`), ...e.warnings.map((w) => `warning: ${w.message}`), ...e.notes].join("; ")),
        "",
      ]
        .join(" | ")
        .trim(),
    ),
    "",
  ];
  const markdown = path.join(reportDir, "contract-report.md");
  writeFileSync(markdown, lines.join("\n"));
  return { json, markdown };
}
