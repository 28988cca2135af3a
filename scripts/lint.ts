// `npm run lint`: Redocly on the hand-written source (openapi/) and Spectral (spectral:oas, the OWASP
// ruleset and this project's rules, .spectral.yaml) on a fresh bundle of it (the build's bundle step,
// written to reports/lint/; generated/ is not touched), and the rule `provenance-markers` on the same bundle:
// the build's own check of the provenance markers and `info.x-sources` (scripts/build/provenance.ts; Spectral
// loads plain JavaScript only, so the rule runs here rather than from .spectral.yaml). Any finding fails,
// whatever its severity (warnings and hints included). Spectral reports places in the bundle; each finding
// also names the source file and line under openapi/ it comes from. The sandbox's control API document
// (openapi-sandbox/control.yaml, one file: no bundle needed) gets Redocly and Spectral too, with the same
// configurations (.spectral.yaml turns off, for it alone, the rules about the service's limits and envelope).
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { provenanceProblems } from "./build/provenance.js";
import bundle from "./build/steps/10-bundle.js";
import { binPath, runNodeScript, withoutBanner } from "./lib/node-cli.js";
import { ROOT } from "./lib/paths.js";
import { sourceLocation } from "./lib/source-map.js";
import { type OpenApiDocument, refOf } from "../src/openapi/index.js";

interface SpectralResult {
  code: string;
  message: string;
  path: string[];
  severity: number;
  range: { start: { line: number } };
}

const SEVERITIES = ["error", "warning", "info", "hint"];

interface RedoclyProblem {
  ruleId: string;
  severity: string;
  message: string;
  location: Array<{ source: { ref: string }; pointer: string; start?: { line: number } }>;
}

const CONTROL_DOCUMENT = "openapi-sandbox/control.yaml";

/** Redocly lint on a source document (JSON output; warnings count too), one line per finding. */
async function redocly(document: string): Promise<string[]> {
  const run = await runNodeScript(binPath("@redocly/cli", "redocly"), ["lint", document, "--format=json"], {
    cwd: ROOT,
  });
  const text = run.stdout.slice(run.stdout.indexOf("{"));
  let problems: RedoclyProblem[];
  try {
    problems = (JSON.parse(text) as { problems: RedoclyProblem[] }).problems;
  } catch {
    return [`redocly lint ${document} failed:\n${withoutBanner(`${run.stdout}\n${run.stderr}`)}`];
  }
  const findings = problems.map((problem) => {
    const [where] = problem.location;
    const file = where ? path.relative(ROOT, path.resolve(ROOT, where.source.ref)) : document;
    const line = where?.start?.line ?? 1;
    return `${file}:${line}  ${problem.severity}  ${problem.ruleId}  ${problem.message}  (${where?.pointer ?? "#"})`;
  });
  if (run.code !== 0 && findings.length === 0)
    findings.push(`redocly lint exited with ${run.code}:\n${withoutBanner(run.stderr)}`);
  return findings;
}

const LINT_DIR = path.join(ROOT, "reports", "lint");

/** Spectral's findings on a file (JSON output), or the failure of the run as one finding. */
async function spectralResults(file: string): Promise<SpectralResult[] | string> {
  const run = await runNodeScript(
    binPath("@stoplight/spectral-cli", "spectral"),
    ["lint", file, "-f", "json", "--quiet"],
    { cwd: ROOT },
  );
  const text = run.stdout.slice(run.stdout.indexOf("["));
  try {
    return JSON.parse(text) as SpectralResult[];
  } catch {
    return `spectral lint ${file} failed:\n${run.stdout}\n${run.stderr}`;
  }
}

/** Spectral on the fresh bundle, each finding with its source file and line. */
async function spectral(): Promise<string[]> {
  const file = path.relative(ROOT, path.join(LINT_DIR, "openapi.yaml"));
  const results = await spectralResults(file);
  if (typeof results === "string") return [results];
  return results.map((result) => {
    const where = sourceLocation(result.path);
    const source = where ? `${where.file}:${where.line}` : "openapi/openapi.yaml";
    const severity = SEVERITIES[result.severity] ?? result.severity;
    const inBundle = `bundle ${file}:${result.range.start.line + 1} ${refOf(result.path)}`;
    return `${source}  ${severity}  ${result.code}  ${result.message}  (${inBundle})`;
  });
}

/** The rule `provenance-markers` on the fresh bundle: every marker problem, at its source file and line. */
async function provenanceMarkers(): Promise<string[]> {
  const file = path.join(LINT_DIR, "openapi.json");
  const doc = JSON.parse(await readFile(file, "utf8")) as OpenApiDocument;
  return provenanceProblems(doc).map((problem) => {
    const where = sourceLocation(problem.pointer);
    const source = where ? `${where.file}:${where.line}` : "openapi/openapi.yaml";
    const inBundle = `bundle ${path.relative(ROOT, file)} ${problem.pointer}`;
    return `${source}  error  provenance-markers  ${problem.message}  (${inBundle})`;
  });
}

/** A fresh bundle of openapi/ in reports/lint/ (the build's bundle step), then Spectral and provenance-markers. */
async function onBundle(): Promise<string[]> {
  await mkdir(LINT_DIR, { recursive: true });
  try {
    await bundle({ root: ROOT, outDir: LINT_DIR, log: () => {} });
  } catch (error) {
    return [
      "redocly bundle openapi/openapi.yaml failed, so Spectral and provenance-markers cannot run:\n" +
        (error instanceof Error ? error.message : String(error)),
    ];
  }
  return [...(await spectral()), ...(await provenanceMarkers())];
}

/** Spectral on the control API document (its own source: the places are its lines). */
async function spectralOnControlDocument(): Promise<string[]> {
  const results = await spectralResults(CONTROL_DOCUMENT);
  if (typeof results === "string") return [results];
  return results.map((result) => {
    const severity = SEVERITIES[result.severity] ?? result.severity;
    const where = `${CONTROL_DOCUMENT}:${result.range.start.line + 1}`;
    return `${where}  ${severity}  ${result.code}  ${result.message}  (${refOf(result.path)})`;
  });
}

const findings = [
  ...(await redocly("openapi/openapi.yaml")),
  ...(await onBundle()),
  ...(await redocly(CONTROL_DOCUMENT)),
  ...(await spectralOnControlDocument()),
];
if (findings.length) {
  console.error(`lint: ${findings.length} finding(s); every severity counts:\n${findings.join("\n")}`);
  process.exit(1);
}
console.log(
  "lint: Redocly (openapi/), Spectral and provenance-markers (a fresh bundle of it), " +
    `Redocly and Spectral (${CONTROL_DOCUMENT}) report nothing`,
);
