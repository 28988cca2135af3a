// scripts/mutation-report.ts on reports of its own: the groups' reports merged (each keeps only the files its
// group mutates), the score as the docs give it (guide "Working on the package"), survivors with their note or
// marked "not explained", and a run with groups missing reported as incomplete, not as a score of what happened to
// finish.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { binPath, runNodeScript } from "../../scripts/lib/node-cli.js";
import groups from "../../scripts/mutation-groups.json" with { type: "json" };
import notes from "../../scripts/mutation-notes.json" with { type: "json" };
import { repoRoot } from "../support/spec.js";

const mutant = (id: string, status: string, line: number, mutatorName = "BooleanLiteral") => ({
  id,
  status,
  mutatorName,
  replacement: "true",
  location: { start: { line, column: 1 }, end: { line, column: 5 } },
});
const source = Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join("\n");
/** A note of the real notes file: the report must quote its reason for a survivor it matches. */
const note = notes.find(
  (n) =>
    n.file.startsWith(`${groups.client[0]}/`) &&
    n.line !== undefined &&
    n.mutator === undefined &&
    n.replacement === undefined,
)!;

let dir: string;
let markdown: string;
let output: string;
let code: number;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "mutation-report-"));
  const clientFile = `${groups.client[0]}/fixture.ts`;
  await writeFile(
    path.join(dir, "client.json"),
    JSON.stringify({
      files: {
        [clientFile]: {
          source,
          mutants: [
            mutant("1", "Killed", 1),
            mutant("2", "Timeout", 2),
            mutant("3", "Survived", 3),
            mutant("4", "Ignored", 4),
          ],
        },
        [note.file]: { source, mutants: [mutant("5", "Survived", note.line!), mutant("6", "Killed", 6)] },
        // Results Stryker carried over for another group's file: not the client group's to report.
        [`${groups.contract[0]}/stale.ts`]: {
          source,
          mutants: [mutant("7", "Survived", 7), mutant("8", "Survived", 8)],
        },
      },
      performance: { setup: 1000, initialRun: 2000, mutation: 60_000 },
    }),
  );
  const run = await runNodeScript(binPath("tsx"), [
    path.join(repoRoot, "scripts", "mutation-report.ts"),
    "--reports",
    dir,
    "--out",
    path.join(dir, "MUTATION.md"),
  ]);
  ({ code } = run);
  output = run.stdout + run.stderr;
  markdown = await readFile(path.join(dir, "MUTATION.md"), "utf8");
}, 60_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

describe("mutation-report", () => {
  it("scores detected ÷ (detected + survived + no coverage), over the group's own files only", () => {
    expect(code, output).toBe(0);
    // killed 2 + timeout 1 of 5 valid (the ignored one left out; the other group's stale file too)
    expect(markdown).toContain(
      "**Score: 60.00%** (3 detected of 5; 1 ignored as static). Undetected: 2, 1 explained, 1 not.",
    );
    expect(markdown).not.toContain("stale.ts");
  });

  it("lists each survivor with its note's reason, or as not explained", () => {
    const rows = markdown.split("\n").filter((line) => line.startsWith("| src/") && line.includes(" | survived | "));
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.startsWith(`| ${note.file}:${note.line}:1 `))).toContain(
      note.reason.replaceAll("|", "\\|"),
    );
    expect(rows.find((row) => row.startsWith(`| ${groups.client[0]}/fixture.ts:3:1 `))).toContain("**not explained**");
  });

  it("says which groups have no report instead of passing off a part as the whole", () => {
    const missing = Object.keys(groups).filter((group) => group !== "client");
    expect(markdown).toContain(`**Incomplete: no report for the group(s) ${missing.join(", ")}.**`);
    // When each report there is was written (its file's time), so a reader sees which runs are old.
    expect(markdown).toMatch(/when they were written: client \d{4}-\d\d-\d\d \d\d:\d\d UTC\.\n/);
    expect(output).toContain(`MUTATION.md is incomplete: no report for ${missing.join(", ")}`);
  });
});

// reports/ is not committed and a group takes up to an hour: a group without a report keeps its rows from the
// previous MUTATION.md, says so with the time its report was written, and counts in the score.
describe("mutation-report with groups that have no report here", () => {
  const contractFile = `${groups.contract[0]}/kept.ts`;
  const previous = [
    "# Mutation testing",
    "",
    "Each group of folders (`scripts/mutation-groups.json`) keeps its own report; when they were written: " +
      "client 2026-11-20 01:00 UTC, contract 2026-11-21 02:03 UTC.",
    "",
    "## By file",
    "",
    "| | score | killed | timeout | survived | no coverage | ignored (static) | errors |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    `| ${groups.client[0]}/old.ts | 0.00% | 0 | 0 | 9 | 0 | 0 | 0 |`,
    `| ${contractFile} | 60.00% | 2 | 1 | 1 | 1 | 4 | 1 |`,
    "",
    "## Undetected mutants",
    "",
    "| where | status | mutator | original | replacement | why it is left |",
    "|---|---|---|---|---|---|",
    `| ${groups.client[0]}/old.ts:1:1 | survived | BooleanLiteral | \`a\` | \`b\` | an old reason |`,
    `| ${contractFile}:10:5 | survived | BooleanLiteral | \`x\` | \`y\` | kept reason |`,
    `| ${contractFile}:12:1 | no coverage | BlockStatement | \`{}\` | \`{}\` | **not explained** |`,
    "",
  ].join("\n");
  let carriedDir: string;
  let carriedMarkdown: string;
  let carriedOutput: string;

  beforeAll(async () => {
    carriedDir = await mkdtemp(path.join(tmpdir(), "mutation-report-carried-"));
    await writeFile(
      path.join(carriedDir, "client.json"),
      JSON.stringify({
        files: {
          [`${groups.client[0]}/fresh.ts`]: { source, mutants: [mutant("1", "Killed", 1), mutant("2", "Survived", 2)] },
        },
      }),
    );
    await writeFile(path.join(carriedDir, "previous.md"), previous);
    const out = path.join(carriedDir, "MUTATION.md");
    const run = await runNodeScript(binPath("tsx"), [
      path.join(repoRoot, "scripts", "mutation-report.ts"),
      ...["--reports", carriedDir, "--out", out, "--previous", path.join(carriedDir, "previous.md")],
    ]);
    carriedOutput = run.stdout + run.stderr;
    expect(run.code, carriedOutput).toBe(0);
    carriedMarkdown = await readFile(out, "utf8");
  }, 60_000);

  afterAll(() => rm(carriedDir, { recursive: true, force: true }));

  it("keeps other groups' rows of the last MUTATION.md and counts them; a group with a report replaces its own", () => {
    // client now: 1 killed, 1 survived; contract carried: 3 detected, 1 survived, 1 no coverage (4 ignored, 1 error).
    expect(carriedMarkdown).toContain(
      "**Score: 57.14%** (4 detected of 7; 4 ignored as static). Undetected: 3, 1 explained, 2 not.",
    );
    expect(carriedMarkdown).toContain(`| ${contractFile} | 60.00% | 2 | 1 | 1 | 1 | 4 | 1 |`);
    expect(carriedMarkdown).toContain(
      `| ${contractFile}:10:5 | survived | BooleanLiteral | \`x\` | \`y\` | kept reason |`,
    );
    expect(carriedMarkdown).toContain(`| ${contractFile}:12:1 | no coverage |`);
    expect(carriedMarkdown).not.toContain("old.ts");
  });

  it("says which groups are carried over and when their reports were written, and which have none at all", () => {
    expect(carriedMarkdown).toMatch(
      new RegExp(
        String.raw`when they were written: client \d{4}-\d\d-\d\d \d\d:\d\d UTC, ` +
          String.raw`contract 2026-11-21 02:03 UTC \(carried over\)\.\n`,
      ),
    );
    expect(carriedMarkdown).toContain(
      "Carried over: contract had no report among those read (`reports/` is not committed)",
    );
    const none = Object.keys(groups).filter((group) => group !== "client" && group !== "contract");
    expect(carriedMarkdown).toContain(`**Incomplete: no report for the group(s) ${none.join(", ")}.**`);
    // The contract notes match no mutant read here, but that is not a stale note: their group was not run.
    expect(carriedOutput).not.toMatch(/a note matches no undetected mutant: \{"file":"src\/contract\//);
  });
});

// A note anchored to its code (`code`: text of the mutant's first line) stays on that code when lines move; a note
// file of the test's own (--notes).
describe("mutation-report with notes anchored to code", () => {
  const file = `${groups.client[0]}/moved.ts`;
  let anchoredDir: string;
  let anchoredMarkdown: string;

  beforeAll(async () => {
    anchoredDir = await mkdtemp(path.join(tmpdir(), "mutation-report-anchored-"));
    const moved = ["const a = 1;", "", "if (ready && !done) go();", "const b = 2;"].join("\n");
    const mutants = [mutant("1", "Survived", 3), mutant("2", "Survived", 4), mutant("3", "Survived", 1)];
    await writeFile(
      path.join(anchoredDir, "client.json"),
      JSON.stringify({ files: { [file]: { source: moved, mutants } } }),
    );
    const anchored = [
      { file, code: "ready && !done", reason: "anchored reason" },
      { file, code: "no such code", reason: "never used" },
      { file, line: 1, code: "const b", reason: "line and code must both hold" },
    ];
    await writeFile(path.join(anchoredDir, "notes.json"), JSON.stringify(anchored));
    const out = path.join(anchoredDir, "MUTATION.md");
    const run = await runNodeScript(binPath("tsx"), [
      path.join(repoRoot, "scripts", "mutation-report.ts"),
      ...["--reports", anchoredDir, "--out", out, "--notes", path.join(anchoredDir, "notes.json"), "client"],
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    anchoredMarkdown = await readFile(out, "utf8");
  }, 60_000);

  afterAll(() => rm(anchoredDir, { recursive: true, force: true }));

  it("matches a note by the text of the mutant's line, and with a line only where both hold", () => {
    const rows = anchoredMarkdown.split("\n").filter((line) => line.startsWith(`| ${file}:`));
    expect(rows.find((row) => row.startsWith(`| ${file}:3:1 `))).toContain("anchored reason");
    expect(rows.find((row) => row.startsWith(`| ${file}:4:1 `))).toContain("**not explained**");
    expect(rows.find((row) => row.startsWith(`| ${file}:1:1 `))).toContain("**not explained**");
    expect(anchoredMarkdown).not.toContain("never used");
  });
});

// A group may leave a folder of its own to another group ("!src/sandbox/operations"): the sandbox group's report
// counts nothing of that folder, which the sandbox-operations group reports.
describe("mutation-report of a group that leaves a folder to another", () => {
  it("counts the group's own files, not the folder it leaves out", async () => {
    const sandboxDir = await mkdtemp(path.join(tmpdir(), "mutation-report-sandbox-"));
    try {
      const files = {
        "src/sandbox/fixture.ts": { source, mutants: [mutant("1", "Killed", 1)] },
        "src/sandbox/operations/fixture.ts": { source, mutants: [mutant("2", "Survived", 2)] },
      };
      await writeFile(path.join(sandboxDir, "sandbox.json"), JSON.stringify({ files }));
      const out = path.join(sandboxDir, "MUTATION.md");
      const run = await runNodeScript(binPath("tsx"), [
        path.join(repoRoot, "scripts", "mutation-report.ts"),
        "--reports",
        sandboxDir,
        "--out",
        out,
        "sandbox",
      ]);
      const written = await readFile(out, "utf8");
      // 1 killed of 1: the survivor under src/sandbox/operations is sandbox-operations' to report.
      expect(written, run.stdout + run.stderr).toContain("**Score: 100.00%** (1 detected of 1;");
      expect(written).not.toContain("src/sandbox/operations/fixture.ts");
    } finally {
      await rm(sandboxDir, { recursive: true, force: true });
    }
  }, 60_000);
});
