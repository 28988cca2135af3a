// Build step: the docs page, <outDir>/docs/index.html, from <outDir>/openapi.yaml.
// Redocly renders a docs-only derived copy of the bundle (in a temporary folder) that adds, without
// touching the contract: a TypeScript code sample per operation (x-codeSamples), the provenance
// register in the introduction (the table of sources; observed, published, not shown, conventions, each kind in its
// own section, each sourced entry with its sources by title), and
// descriptions with their soft line breaks joined and a space entity at the end of each list item and table
// cell (Redoc's search index would run "the\ntrade", and the cells "API key" and "every request", together).
// `--inlineBundle` embeds Redoc: the page works from file://.
// Theme and Redoc options: the `openapi:` section of redocly.yaml (template: scripts/build/docs-template.hbs).
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import type { OpenApiDocument } from "../../../src/openapi/index.js";
import { binPath, runNode } from "../../lib/node-cli.js";
import { withCodeSamples } from "../code-samples.js";
import { headerFor } from "../generated-header.js";
import type { BuildContext } from "../index.js";
import {
  collectProvenance,
  PROVENANCE_HEADING,
  type ProvenanceEntry,
  type ProvenanceKind,
  type ProvenanceRegister,
  type ProvenanceSource,
  SOURCES_KEY,
  type SourceUse,
  sourceTitles,
} from "../provenance.js";

// Redoc's attribution badge loads its logo from a CDN, which fails (and logs a console error)
// offline. The step swaps it for an inline image; the link to Redoc stays. (The browser test
// fails on any request that leaves 127.0.0.1, so a new CDN asset in a Redoc update is noticed.)
const CDN_LOGOS = ["https://cdn.redoc.ly/redoc/logo-mini-full.svg", "https://cdn.redoc.ly/redoc/logo-mini.svg"];
const INLINE_LOGO = `data:image/svg+xml;base64,${Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="44" height="14" viewBox="0 0 44 14">' +
    '<text x="0" y="11" font-family="sans-serif" font-size="11" font-weight="600" fill="#5c5f66">Redoc</text></svg>',
).toString("base64")}`;

function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, " ").trim();
}

/** One kind of the register as Markdown: a lead-in and a numbered list (each entry with its sources by title). */
export function registerList(
  kind: Pick<ProvenanceKind, "key" | "sourced"> & { entries: ProvenanceEntry[] },
  sources: readonly ProvenanceSource[],
): string {
  const { entries } = kind;
  const count = `${entries.length} marker${entries.length === 1 ? "" : "s"}`;
  const lines = [`The register of \`${kind.key}\`, in document order (${count}):`, ""];
  if (entries.length === 0) return [...lines, "None."].join("\n");
  entries.forEach((entry, index) => {
    const titles = sourceTitles(entry, sources);
    const named = kind.sourced ? ` (${titles.length === 1 ? "source" : "sources"}: ${titles.join("; ")})` : "";
    lines.push(`${index + 1}. **${oneLine(entry.place)}**: ${oneLine(entry.text)}${named}`);
  });
  return lines.join("\n");
}

/** The sources outside the description as a Markdown table: id, kind, title and the elements each supports. */
export function sourcesTable(sources: readonly SourceUse[]): string {
  const cell = (text: string) => oneLine(text).replace(/\|/g, "\\|");
  return [
    `The sources outside the description (\`info.${SOURCES_KEY}\`), each with the number of elements its markers ` +
      "support:",
    "",
    "| Id | Kind | Title | Elements |",
    "|---|---|---|---|",
    ...sources.map((source) => `| \`${source.id}\` | ${source.kind} | ${cell(source.title)} | ${source.elements} |`),
  ].join("\n");
}

/** The text with `block` at the end of the section headed `## heading` (a new last section when there is none). */
function appendToSection(text: string, heading: string, block: string): string {
  const found = new RegExp(`^## ${heading.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[ \\t]*$`, "m").exec(text);
  if (!found) return `${text}\n\n## ${heading}\n\n${block}`;
  const afterHeading = found.index + found[0].length;
  const next = /^## /m.exec(text.slice(afterHeading));
  const end = next ? afterHeading + next.index : text.length;
  return `${text.slice(0, end).trimEnd()}\n\n${block}${next ? `\n\n${text.slice(end)}` : ""}`;
}

/**
 * The introduction with the table of sources at the end of its section "Where the contract comes from", and each
 * kind's register at the end of the section headed by the kind's heading (a new last section when there is none).
 */
export function withRegisters(description: string | undefined, register: ProvenanceRegister): string {
  let text = appendToSection((description ?? "").trimEnd(), PROVENANCE_HEADING, sourcesTable(register.sources));
  for (const kind of register.kinds) text = appendToSection(text, kind.heading, registerList(kind, register.sources));
  return `${text}\n`;
}

/** A line that starts a Markdown block (heading, list item, table row, quote, fence): never joined to the previous. */
const BLOCK_START = /^\s*(?:#|[-*+]\s|\d+[.)]\s|\||>|```|~~~)/;
const FENCE = /^\s*(`{3,}|~{3,})/;
/** A setext heading's underline or a thematic break (`===`, `---`, `* * *`): a line of its own. */
const RULE_LINE = /^\s*(?:=+|-+|(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,})\s*$/;
/** A table's delimiter row (`|---|:--:|`, `--- | ---`): at least one pipe, every cell dashes with optional colons. */
const TABLE_DELIMITER = /^\s*(?:\|\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?|:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?)\s*$/;
const QUOTE = /^(\s*>\s?)(.*)$/;

/** Whether the line closes the fence opened by `fence`: at least as many of the same character, nothing else. */
function closesFence(line: string, fence: string): boolean {
  const close = FENCE.exec(line)?.[1];
  return close !== undefined && close[0] === fence[0] && close.length >= fence.length && line.trim() === close;
}

/** Whether the line is a table's delimiter row. */
function isDelimiterRow(line: string | undefined): boolean {
  return line?.includes("|") === true && TABLE_DELIMITER.test(line);
}

/**
 * Markdown with soft line breaks (a newline inside a paragraph) replaced by spaces. Paragraph breaks,
 * headings, list items, table rows, rules and fenced code keep their lines; the lines of a quoted
 * paragraph are joined inside the quote.
 */
export function joinSoftBreaks(markdown: string): string {
  const lines = markdown.split("\n");
  const out: string[] = [];
  let fence: string | undefined;
  let table = false;
  let joinable = false;
  lines.forEach((line, index) => {
    const blank = line.trim() === "";
    if (fence !== undefined) {
      out.push(line);
      if (closesFence(line, fence)) fence = undefined;
      return;
    }
    const open = FENCE.exec(line)?.[1];
    if (open) {
      out.push(line);
      fence = open;
      joinable = false;
      return;
    }
    // A table starts with its header row, the line before the delimiter row, and ends at a blank line.
    if (isDelimiterRow(line)) table = true;
    else if (blank) table = false;
    if (table || isDelimiterRow(lines[index + 1])) {
      out.push(line);
      table = true;
      joinable = false;
      return;
    }
    const quote = QUOTE.exec(line);
    const previousQuote = QUOTE.exec(out[out.length - 1] ?? "");
    if (
      joinable &&
      quote &&
      previousQuote &&
      quote[2]!.trim() !== "" &&
      !BLOCK_START.test(quote[2]!) &&
      !RULE_LINE.test(quote[2]!)
    ) {
      out[out.length - 1] = `${out[out.length - 1]!.trimEnd()} ${quote[2]!.trim()}`;
      return;
    }
    if (joinable && !blank && !BLOCK_START.test(line) && !RULE_LINE.test(line)) {
      out[out.length - 1] = `${out[out.length - 1]!.trimEnd()} ${line.trim()}`;
      return;
    }
    out.push(line);
    // A heading or a rule ends where it is; any other text line (a quote's too) may continue on the next.
    const content = quote ? quote[2]! : line;
    joinable = !blank && content.trim() !== "" && !/^\s*#/.test(content) && !RULE_LINE.test(content);
  });
  return out.join("\n");
}

/** A space as a character reference: Markdown keeps it at the end of a list item or a table cell (it trims spaces). */
const SEARCH_SPACE = "&#32;";
const LIST_ITEM = /^(\s*(?:>\s?)*\s*(?:[-*+]|\d+[.)])\s+)(.*\S)\s*$/;

/**
 * Markdown whose list items and table cells end with a space entity, so that Redoc's search index, which
 * joins their texts with nothing between ("API keyevery request"), keeps the words apart. The page
 * shows nothing of it: HTML drops a space at the end of a list item or a table cell. Fenced code is left alone.
 */
export function withSearchSpaces(markdown: string): string {
  const lines = markdown.split("\n");
  let fence: string | undefined;
  return lines
    .map((line, index) => {
      if (fence !== undefined) {
        if (closesFence(line, fence)) fence = undefined;
        return line;
      }
      const open = FENCE.exec(line)?.[1];
      if (open) {
        fence = open;
        return line;
      }
      if (line.includes("|") && !isDelimiterRow(line) && (isDelimiterRow(lines[index + 1]) || isTableRow(lines, index)))
        return spaceCells(line);
      const item = LIST_ITEM.exec(line);
      if (item && !RULE_LINE.test(line) && !item[2]!.endsWith(SEARCH_SPACE))
        return `${item[1]}${item[2]}${SEARCH_SPACE}`;
      return line;
    })
    .join("\n");
}

/** Whether the line is a row of a table (after its delimiter row, before the next blank line). */
function isTableRow(lines: string[], index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (line.trim() === "" || !line.includes("|")) return false;
    if (isDelimiterRow(line)) return true;
  }
  return false;
}

/** A table row with each non-empty cell ending with the space entity (backslash-escaped pipes stay in their cell). */
function spaceCells(row: string): string {
  return row
    .split(/(?<!\\)\|/)
    .map((cell) =>
      cell.trim() === "" || cell.trimEnd().endsWith(SEARCH_SPACE)
        ? cell
        : cell.replace(/\S(?=\s*$)/, `$&${SEARCH_SPACE}`),
    )
    .join("|");
}

function joinDescriptions(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) joinDescriptions(item);
    return;
  }
  if (!node || typeof node !== "object") return;
  const record = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    if (key === "description" && typeof value === "string") record[key] = withSearchSpaces(joinSoftBreaks(value));
    else if (key !== "example" && key !== "examples" && key !== "x-codeSamples") joinDescriptions(value);
  }
}

/**
 * The docs-only derived document: code samples on every operation, the registers in the introduction, descriptions
 * for the search index.
 */
export function docsDocument(bundle: OpenApiDocument): OpenApiDocument {
  const doc = withCodeSamples(bundle);
  doc.info = {
    ...doc.info,
    description: withRegisters(doc.info?.description as string | undefined, collectProvenance(bundle)),
  };
  joinDescriptions(doc);
  return doc;
}

/** Makes the page self-contained (no CDN logo) and marks it as generated from `source`. */
export function finishHtml(html: string, source = "openapi/"): string {
  let out = html;
  for (const url of CDN_LOGOS) out = out.split(url).join(INLINE_LOGO);
  const doctype = "<!DOCTYPE html>\n";
  if (!out.startsWith(doctype)) throw new Error("docs: unexpected page start (did the template change?)");
  return `${doctype}${headerFor("index.html", source)}${out.slice(doctype.length)}`;
}

/**
 * Renders an OpenAPI document as one self-contained Redoc page (`--inlineBundle`, the CDN logo inlined; the page
 * template and theme of redocly.yaml); the docs site renders the control API's document with it too.
 */
export async function renderRedoc(root: string, doc: unknown, source = "openapi/"): Promise<string> {
  const work = await mkdtemp(path.join(tmpdir(), "docs-build-"));
  try {
    const input = path.join(work, "openapi.json");
    const output = path.join(work, "index.html");
    await writeFile(input, `${JSON.stringify(doc, null, 2)}\n`);
    const config = path.join(root, "redocly.yaml");
    await runNode(
      binPath("@redocly/cli", "redocly"),
      ["build-docs", input, "--inlineBundle", "--output", output, "--config", config],
      { cwd: root },
    );
    return finishHtml(await readFile(output, "utf8"), source);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export default async function buildDocs({ root, outDir, log }: BuildContext): Promise<void> {
  const bundlePath = path.join(outDir, "openapi.yaml");
  let bundleText: string;
  try {
    bundleText = await readFile(bundlePath, "utf8");
  } catch {
    throw new Error(`docs: ${bundlePath} is missing; run \`npm run build\` (it bundles the spec first)`);
  }
  const html = await renderRedoc(root, docsDocument(parse(bundleText) as OpenApiDocument));
  await mkdir(path.join(outDir, "docs"), { recursive: true });
  await writeFile(path.join(outDir, "docs", "index.html"), html);
  log(`docs: docs/index.html (${Math.round(Buffer.byteLength(html) / 1024)} KiB)`);
}
