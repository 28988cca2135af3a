// Runs every bench/suites/* suite in name order and writes BENCHMARKS.md.
// Each suite exports `title` and `default async function () → markdown string` (tables with ratios
// against a baseline measured in the same run). `npm run bench -- client` runs suites whose file name matches.
import { readdir, writeFile } from "node:fs/promises";
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

const sections: string[] = [];
for (const file of files) {
  const suite = (await import(pathToFileURL(path.join(suitesDir, file)).href)) as Suite;
  console.log(`bench: ${file} …`);
  const markdown = await suite.default();
  console.log(markdown);
  sections.push(`## ${suite.title}\n\n${markdown.trim()}\n`);
}

const cpu = os.cpus()[0]?.model ?? "unknown CPU";
const header = [
  "# Benchmarks",
  "",
  `Produced by \`npm run bench${filters.length ? ` -- ${filters.join(" ")}` : ""}\` on ` +
    `${new Date().toISOString().slice(0, 10)}: ` +
    `Node ${process.version}, ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ` +
    `${os.platform()} ${os.release()}.`,
  "Every figure is compared with a baseline measured in the same run; absolute numbers vary by machine, the ratios " +
    "are the result.",
  "",
];
if (!filters.length) await writeFile(path.join(root, "BENCHMARKS.md"), `${header.join("\n")}\n${sections.join("\n")}`);
else console.log("(filtered run: BENCHMARKS.md not rewritten)");
