// Runs every bench/suites/* suite in name order and writes BENCHMARKS.md.
// Each suite exports `title` and `default async function () → markdown string` (tables with ratios
// against a baseline measured in the same run). `npm run bench -- client` runs suites whose file name matches and
// keeps the other sections of BENCHMARKS.md as they were.
import { readdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

interface Suite {
  title: string;
  default: () => Promise<string>;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const filters = process.argv.slice(2);
const suitesDir = path.join(root, "bench", "suites");
const files = (await readdir(suitesDir))
  .filter((f) => /\.(ts|mjs)$/.test(f))
  .sort()
  .filter((f) => !filters.length || filters.some((name) => f.includes(name)));

const date = new Date().toISOString().slice(0, 10);
const command = `npm run bench${filters.length ? ` -- ${filters.join(" ")}` : ""}`;
/** Each suite's section, by title: a filtered run keeps the sections of the suites it did not run. */
const sections = new Map<string, string>();
for (const file of files) {
  const suite = (await import(pathToFileURL(path.join(suitesDir, file)).href)) as Suite;
  console.log(`bench: ${file} …`);
  const markdown = await suite.default();
  console.log(markdown);
  sections.set(suite.title, `_Measured by \`${command}\` on ${date}._\n\n${markdown.trim()}\n`);
}

const cpu = os.cpus()[0]?.model ?? "unknown CPU";
const header = [
  "# Benchmarks",
  "",
  `Produced by \`npm run bench\` (each section says when it was measured; \`npm run bench -- <suite>\` measures ` +
    "again the suites whose file name matches and keeps the other sections): " +
    `Node ${process.version}, ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ` +
    `${os.platform()} ${os.release()}.`,
  "Every figure is compared with a baseline measured in the same run; absolute numbers vary by machine, the ratios " +
    "are the result.",
  "",
];
const target = path.join(root, "BENCHMARKS.md");
const kept = filters.length ? previousSections(await readFile(target, "utf8").catch(() => "")) : new Map();
const order = [...new Set([...kept.keys(), ...sections.keys()])];
const body = order.map((title) => `## ${title}\n\n${(sections.get(title) ?? kept.get(title))!.trim()}\n`);
await writeFile(target, `${header.join("\n")}\n${body.join("\n")}`);

/** The sections of a BENCHMARKS.md by title; one written before sections said when they were measured says so. */
function previousSections(text: string): Map<string, string> {
  const produced = /Produced by `npm run bench` on (\d{4}-\d{2}-\d{2})/.exec(text)?.[1];
  const found = new Map<string, string>();
  for (const part of text.split(/^## /m).slice(1)) {
    const [title = "", ...rest] = part.split("\n");
    const content = rest.join("\n").trim();
    const dated = content.startsWith("_Measured") || !produced;
    found.set(title, dated ? content : `_Measured by \`npm run bench\` on ${produced}._\n\n${content}`);
  }
  return found;
}
