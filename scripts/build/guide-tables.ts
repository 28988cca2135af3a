// The tables of the site's guides that are data, not prose: `npm run build` writes each between its page's markers
// (`<!-- name:start -->` … `<!-- name:end -->`), and check:generated fails when a page's copy differs from what the
// build would write. Nothing between the markers is written by hand.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { cell, choicesTable } from "./sandbox-choices.js";

interface ControlDocument {
  paths: Record<string, Record<string, unknown>>;
}

const METHODS = ["get", "put", "post", "delete", "patch"];

/** The control API's routes as a Markdown table, in the document's order: method and path, and the summary. */
function controlRoutesTable(document: ControlDocument): string {
  const rows = Object.entries(document.paths).flatMap(([route, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => {
        const summary = (operation as { summary?: string }).summary;
        if (!summary) throw new Error(`the control document: ${method.toUpperCase()} ${route} has no summary`);
        return `| \`${method.toUpperCase()} ${route}\` | ${cell(summary)} |`;
      }),
  );
  return ["| Route | Does |", "|---|---|", ...rows].join("\n");
}

interface GuideTable {
  /** The page, relative to the repository. */
  page: string;
  /** The markers' name. */
  name: string;
  /** What the table shows and where it comes from, for check:generated's message. */
  what: string;
  /** The table, from `generatedDir` (generated/, or check:generated's fresh build). */
  table: (generatedDir: string) => Promise<string>;
}

const GUIDE_TABLES: readonly GuideTable[] = [
  {
    page: "docs/guide/register.md",
    name: "sandbox-choices",
    what: "the register of choices differs from src/sandbox/choices.ts",
    table: async () => choicesTable(),
  },
  {
    page: "docs/guide/sandbox.md",
    name: "control-routes",
    what: "the control API's routes differ from generated/sandbox-control.json",
    table: async (generatedDir) =>
      controlRoutesTable(JSON.parse(await readFile(path.join(generatedDir, "sandbox-control.json"), "utf8"))),
  },
];

/** The markers a table is written between. */
export const markersOf = (name: string) => ({ start: `<!-- ${name}:start -->`, end: `<!-- ${name}:end -->` });

/** `text` with the table between its markers replaced by `table`; an Error when a marker is missing. */
function withTable(text: string, { page, name }: GuideTable, table: string): string {
  const { start, end } = markersOf(name);
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${page}: the markers ${start} … ${end} are missing`);
  return `${text.slice(0, from + start.length)}\n${table}\n${text.slice(to)}`;
}

/** Writes every table into its page (npm run build). */
export async function writeGuideTables(root: string, generatedDir: string): Promise<void> {
  for (const guide of GUIDE_TABLES) {
    const file = path.join(root, guide.page);
    const text = await readFile(file, "utf8");
    const next = withTable(text, guide, await guide.table(generatedDir));
    if (next !== text) await writeFile(file, next);
  }
}

/** Why each page's table is not what the build writes (check:generated); empty when every one is. */
export async function guideTableProblems(root: string, generatedDir: string): Promise<string[]> {
  const problems: string[] = [];
  for (const guide of GUIDE_TABLES) {
    try {
      const text = await readFile(path.join(root, guide.page), "utf8");
      if (withTable(text, guide, await guide.table(generatedDir)) !== text)
        problems.push(`${guide.page}: ${guide.what} (run \`npm run build\`)`);
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  return problems;
}
