// Writes MUTATION.md from Stryker's JSON reports, one per group of folders (reports/mutation/<group>.json;
// `npm run test:mutation` runs Stryker for each group, then this). Scores as Stryker counts them:
// detected (killed + timeout) ÷ (detected + survived + no coverage); ignored mutants and compile/runtime errors
// are left out. Every undetected mutant is listed with
// the reason from scripts/mutation-notes.json, the one hand-kept file: a note matches a mutant by file and,
// when given, line, column, mutator and replacement, and `code`: text the mutant's first line contains, which
// keeps the note on its code when lines move (a refactor, a reformat) where a line number would not.
// `tsx scripts/mutation-report.ts [--reports <dir>] [--out <file>] [--previous <file>] [--notes <file>] [name…]`:
// the reports of the groups of scripts/mutation-groups.json by default, or the named ones (`all`: a run without
// MUTATION_GROUP), from reports/mutation/ into MUTATION.md unless told otherwise.
// reports/ is git-ignored and a group takes up to an hour, so a checkout rarely has every group's report: a group
// without one keeps its rows from the previous MUTATION.md (--previous, default the --out file), as that run wrote
// them, with the time its report was written; the report says which groups are carried over that way.
import { readFile, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import MUTATION_GROUPS from "./mutation-groups.json" with { type: "json" };

type Status =
  | "Killed"
  | "Survived"
  | "NoCoverage"
  | "Timeout"
  | "CompileError"
  | "RuntimeError"
  | "Ignored"
  | "Pending";

interface Position {
  line: number;
  column: number;
}

interface Mutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  location: { start: Position; end: Position };
  status: Status;
  statusReason?: string;
  static?: boolean;
}

interface Report {
  files: Record<string, { source: string; mutants: Mutant[] }>;
  performance?: { setup: number; initialRun: number; mutation: number };
  framework?: { name?: string; version?: string };
}

/** scripts/mutation-notes.json: why a mutant that no test detects is left as it is. */
interface Note {
  file: string;
  line?: number;
  /** With line: the column the mutant starts at, where one line holds mutants with different reasons. */
  column?: number;
  mutator?: string;
  /** The replacement as Stryker reports it (whitespace collapsed), or a part of it. */
  replacement?: string;
  /** Text the mutant's first source line contains: the note follows its code when lines move. */
  code?: string;
  reason: string;
}

interface Counts {
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  ignored: number;
  errors: number;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const notesPath = path.join(root, "scripts", "mutation-notes.json");

/** Whether a report's file is one the group mutates (a report may also carry results Stryker reused for others). */
function inGroup(group: string, file: string): boolean {
  const paths = (MUTATION_GROUPS as Record<string, string[]>)[group];
  if (paths === undefined) return true;
  const under = (p: string) => file === p || file.startsWith(`${p}/`);
  // "!folder" leaves a folder (or file) of a group's folder to another group.
  const left = paths.filter((p) => p.startsWith("!")).map((p) => p.slice(1));
  return paths.some((p) => !p.startsWith("!") && under(p)) && !left.some(under);
}

/** The named reports (reports/mutation/<name>.json), merged; the names without a report are returned too. */
async function readReports(names: string[]): Promise<{ report: Report; missing: string[]; written: string[] }> {
  const report: Report = { files: {}, performance: { setup: 0, initialRun: 0, mutation: 0 } };
  const missing: string[] = [];
  const written: string[] = [];
  for (const group of names) {
    let part: Report;
    try {
      const file = path.join(args.values.reports, `${group}.json`);
      part = JSON.parse(await readFile(file, "utf8")) as Report;
      written.push(`${group} ${(await stat(file)).mtime.toISOString().slice(0, 16).replace("T", " ")} UTC`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      missing.push(group);
      continue;
    }
    for (const [file, result] of Object.entries(part.files)) if (inGroup(group, file)) report.files[file] = result;
    for (const key of ["setup", "initialRun", "mutation"] as const)
      report.performance![key] += part.performance?.[key] ?? 0;
  }
  if (missing.length === names.length)
    throw new Error(`no report ${names.join(", ")} in reports/mutation/: run \`npm run test:mutation\``);
  return { report, missing, written };
}

const args = parseArgs({
  options: {
    reports: { type: "string", default: path.join(root, "reports", "mutation") },
    out: { type: "string", default: path.join(root, "MUTATION.md") },
    previous: { type: "string" },
    notes: { type: "string", default: notesPath },
  },
  allowPositionals: true,
});
const reportNames = args.positionals.length > 0 ? args.positionals : Object.keys(MUTATION_GROUPS);
const { report, missing: unreported, written } = await readReports(reportNames);
const notes = JSON.parse(await readFile(args.values.notes, "utf8")) as Note[];

/** A group's rows in a previous MUTATION.md: its files' counts, its undetected mutants, when its report was written. */
interface Carried {
  files: [string, Counts][];
  undetected: Undetected[];
  explained: number;
  written: string | undefined;
}

interface Undetected {
  file: string;
  line: number;
  column: number;
  row: string;
}

/** Whether `file` belongs to a group of scripts/mutation-groups.json (unlike inGroup, false for unknown groups). */
function ownedBy(group: string, file: string): boolean {
  return group in MUTATION_GROUPS && inGroup(group, file);
}

/** The rows of `group` in the previous MUTATION.md's text (its "By file" and "Undetected mutants" tables). */
function carriedRows(previous: string, group: string): Carried {
  const section = (heading: string) => previous.split(`\n## ${heading}\n`)[1]?.split("\n## ")[0] ?? "";
  const files: [string, Counts][] = [];
  for (const line of section("By file").split("\n")) {
    const cells = /^\| (\S+) \| [^|]+ \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$/.exec(line);
    if (!cells || !ownedBy(group, cells[1]!)) continue;
    const [killed, timeout, survived, noCoverage, ignored, errors] = cells.slice(2).map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    files.push([cells[1]!, { killed, timeout, survived, noCoverage, ignored, errors }]);
  }
  const undetected: Undetected[] = [];
  for (const row of section("Undetected mutants").split("\n")) {
    const where = /^\| (\S+):(\d+):(\d+) \| /.exec(row);
    if (where && ownedBy(group, where[1]!))
      undetected.push({ file: where[1]!, line: Number(where[2]), column: Number(where[3]), row });
  }
  const explained = undetected.filter((u) => !u.row.endsWith("| **not explained** |")).length;
  const written = new RegExp(`when they were written: (?:.*, )?${group} (\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC)`).exec(
    previous,
  )?.[1];
  return { files, undetected, explained, written };
}

let previousText = "";
try {
  previousText = await readFile(args.values.previous ?? args.values.out, "utf8");
} catch (error) {
  if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
}
const carried = new Map<string, Carried>();
for (const group of unreported) {
  const rows = carriedRows(previousText, group);
  if (rows.files.length > 0) carried.set(group, rows);
}
const missing = unreported.filter((group) => !carried.has(group));

async function versionOf(pkg: string): Promise<string> {
  try {
    const json = JSON.parse(await readFile(path.join(root, "node_modules", pkg, "package.json"), "utf8")) as {
      version: string;
    };
    return json.version;
  } catch {
    return "?";
  }
}

function emptyCounts(): Counts {
  return { killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, errors: 0 };
}

function add(counts: Counts, status: Status): void {
  if (status === "Killed") counts.killed++;
  else if (status === "Timeout") counts.timeout++;
  else if (status === "Survived") counts.survived++;
  else if (status === "NoCoverage") counts.noCoverage++;
  else if (status === "Ignored") counts.ignored++;
  else if (status === "CompileError" || status === "RuntimeError") counts.errors++;
}

function score(c: Counts): string {
  const valid = c.killed + c.timeout + c.survived + c.noCoverage;
  return valid === 0 ? "–" : `${(((c.killed + c.timeout) / valid) * 100).toFixed(2)}%`;
}

function row(name: string, c: Counts): string {
  const cells = [name, score(c), c.killed, c.timeout, c.survived, c.noCoverage, c.ignored, c.errors];
  return `| ${cells.join(" | ")} |`;
}

const TABLE_HEAD = [
  "| | score | killed | timeout | survived | no coverage | ignored (static) | errors |",
  "|---|---:|---:|---:|---:|---:|---:|---:|",
];

/** Text on one line, shortened, safe inside a Markdown table cell's code span. */
function cell(text: string, max = 70): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const short = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  return `\`${short.replaceAll("|", "\\|").replaceAll("`", "'")}\``;
}

/** The mutated code: the source between the mutant's start and end (lines and columns are 1-based). */
function original(source: string, m: Mutant): string {
  const lines = source.split("\n");
  const { start, end } = m.location;
  if (start.line === end.line) return (lines[start.line - 1] ?? "").slice(start.column - 1, end.column - 1);
  const first = (lines[start.line - 1] ?? "").slice(start.column - 1);
  const last = (lines[end.line - 1] ?? "").slice(0, end.column - 1);
  return [first, ...lines.slice(start.line, end.line - 1), last].join("\n");
}

/** The table row of an undetected mutant: where, why undetected, the mutation, and its note. */
function undetectedRow(where: string, m: Mutant, source: string, note: Note | undefined): string {
  const status = m.status === "NoCoverage" ? "no coverage" : "survived";
  const reason = note ? note.reason.replaceAll("|", "\\|") : "**not explained**";
  const mutation = `${cell(original(source, m))} | ${cell(m.replacement ?? "")}`;
  return `| ${where} | ${status} | ${m.mutatorName} | ${mutation} | ${reason} |`;
}

const used = new Set<Note>();
function noteFor(file: string, m: Mutant, source: string): Note | undefined {
  const replacement = (m.replacement ?? "").replace(/\s+/g, " ").trim();
  const firstLine = source.split("\n")[m.location.start.line - 1] ?? "";
  const note = notes.find(
    (n) =>
      n.file === file &&
      (n.line === undefined || n.line === m.location.start.line) &&
      (n.code === undefined || firstLine.includes(n.code)) &&
      (n.column === undefined || n.column === m.location.start.column) &&
      (n.mutator === undefined || n.mutator === m.mutatorName) &&
      (n.replacement === undefined || replacement.includes(n.replacement)),
  );
  if (note) used.add(note);
  return note;
}

const total = emptyCounts();
const byDir = new Map<string, Counts>();
const byFile: [string, Counts][] = [];
const undetected: Undetected[] = [];
let explained = 0;
let unexplained = 0;

for (const file of Object.keys(report.files).sort()) {
  const { source, mutants } = report.files[file]!;
  const counts = emptyCounts();
  const dir = path.posix.dirname(file);
  const dirCounts = byDir.get(dir) ?? emptyCounts();
  byDir.set(dir, dirCounts);
  const sorted = [...mutants].sort(
    (a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column,
  );
  for (const m of sorted) {
    add(counts, m.status);
    add(dirCounts, m.status);
    add(total, m.status);
    if (m.status !== "Survived" && m.status !== "NoCoverage") continue;
    const note = noteFor(file, m, source);
    if (note) explained++;
    else unexplained++;
    const { line, column } = m.location.start;
    undetected.push({
      file,
      line,
      column,
      row: undetectedRow(`${file}:${line}:${column}`, m, source, note),
    });
  }
  byFile.push([file, counts]);
}
for (const rows of carried.values()) {
  for (const [file, counts] of rows.files) {
    byFile.push([file, counts]);
    const dir = path.posix.dirname(file);
    const dirCounts = byDir.get(dir) ?? emptyCounts();
    byDir.set(dir, dirCounts);
    for (const target of [dirCounts, total])
      for (const key of Object.keys(counts) as (keyof Counts)[]) target[key] += counts[key];
  }
  undetected.push(...rows.undetected);
  explained += rows.explained;
  unexplained += rows.undetected.length - rows.explained;
}
byFile.sort(([a], [b]) => a.localeCompare(b));
undetected.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
const carriedWritten = [...carried].map(
  ([group, rows]) => `${group} ${rows.written ?? "at an unknown time"} (carried over)`,
);

// A note of a carried-over group cannot be judged here: its group's mutants were not read.
const stale = notes.filter((n) => !used.has(n) && ![...carried.keys()].some((group) => ownedBy(group, n.file)));
const cpu = os.cpus()[0]?.model ?? "unknown CPU";
const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
const perf = report.performance;
const [stryker, runner, vitest] = await Promise.all([
  versionOf("@stryker-mutator/core"),
  versionOf("@stryker-mutator/vitest-runner"),
  versionOf("vitest"),
]);

const lines = [
  "# Mutation testing",
  "",
  `Produced by \`npm run test:mutation\` on ${new Date().toISOString().slice(0, 10)}: ` +
    `Stryker ${stryker} (vitest runner ${runner}), ` +
    `Vitest ${vitest}, Node ${process.version}, ${os.cpus().length} × ${cpu}` +
    (perf && perf.setup + perf.initialRun + perf.mutation > 0
      ? `; ${minutes(perf.setup + perf.initialRun + perf.mutation)} ` +
        `(dry run ${minutes(perf.initialRun)}, mutants ${minutes(perf.mutation)}).`
      : "."),
  "",
  "Each group of folders (`scripts/mutation-groups.json`) keeps its own report; when they were written: " +
    `${[...written, ...carriedWritten].join(", ")}.`,
  ...(carried.size > 0
    ? [
        "",
        `Carried over: ${[...carried.keys()].join(", ")} had no report among those read ` +
          "(`reports/` is not committed), so their rows",
        "are those of the previous MUTATION.md, as that run wrote them (their notes included), and count in the score.",
      ]
    : []),
  "",
  "Stryker changes `src/` and the release tooling (`scripts/release/`, `scripts/build/provenance.ts`) one small piece",
  "at a time (a mutant) and runs the tests that cover the piece: a mutant is",
  "detected when a test fails (killed) or hangs (timeout). What is mutated and why some files are not:",
  "`stryker.config.mjs` (not mutated: files with only types or re-exports, and `src/cli.ts` and " +
    "`src/mock/lifetime.ts`,",
  "which tests can run only as child processes, where Stryker neither sees coverage nor switches mutants on); which",
  "tests run and why the others do not: `vitest.mutation.config.ts`.",
  "Score = detected ÷ (detected + survived + no coverage). Static mutants (code run only while a test file loads",
  "or in its `beforeAll`) would need every test per mutant and are ignored, so they are not in the score.",
  "Undetected mutants are explained in `scripts/mutation-notes.json`, merged in below.",
  "",
  ...(missing.length > 0 ? [`**Incomplete: no report for the group(s) ${missing.join(", ")}.**`, ""] : []),
  `**Score: ${score(total)}** (${total.killed + total.timeout} detected of ` +
    `${total.killed + total.timeout + total.survived + total.noCoverage}; ` +
    `${total.ignored} ignored as static). ` +
    `Undetected: ${explained + unexplained}, ${explained} explained, ${unexplained} not.`,
  "",
  "## By folder",
  "",
  ...TABLE_HEAD,
  ...[...byDir.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([dir, c]) => row(dir, c)),
  row("**all**", total),
  "",
  "## By file",
  "",
  ...TABLE_HEAD,
  ...byFile.map(([file, c]) => row(file, c)),
  "",
  "## Undetected mutants",
  "",
  undetected.length ? "| where | status | mutator | original | replacement | why it is left |" : "None.",
  ...(undetected.length ? ["|---|---|---|---|---|---|", ...undetected.map((u) => u.row)] : []),
  "",
];
await writeFile(args.values.out, lines.join("\n"));
if (missing.length > 0) console.warn(`MUTATION.md is incomplete: no report for ${missing.join(", ")}`);
console.log(`MUTATION.md: score ${score(total)}, ${explained + unexplained} undetected (${unexplained} not explained)`);
for (const n of stale) console.warn(`mutation-notes.json: a note matches no undetected mutant: ${JSON.stringify(n)}`);
