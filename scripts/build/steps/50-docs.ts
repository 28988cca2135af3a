// Build step: the docs page, <outDir>/docs/index.html, from <outDir>/openapi.yaml.
// Redocly renders a docs-only derived copy of the bundle (in a temporary folder) that adds, without
// touching the contract: a TypeScript code sample per operation (x-codeSamples), the provenance
// register (observed, not shown, conventions) in the introduction, each kind in its own section, and
// descriptions with their soft line breaks joined (Redoc's search index would run "the\ntrade" together).
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
import { collectProvenance, type ProvenanceEntry, type ProvenanceKind } from "../provenance.js";

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

/** One kind of the register as Markdown: a lead-in and a numbered list. */
export function registerList(kind: Pick<ProvenanceKind, "key"> & { entries: ProvenanceEntry[] }): string {
  const { entries } = kind;
  const count = `${entries.length} marker${entries.length === 1 ? "" : "s"}`;
  const lines = [`The register of \`${kind.key}\`, in document order (${count}):`, ""];
  if (entries.length === 0) return [...lines, "None."].join("\n");
  entries.forEach((entry, index) => {
    lines.push(`${index + 1}. **${oneLine(entry.place)}**: ${oneLine(entry.text)}`);
  });
  return lines.join("\n");
}

/**
 * The introduction with each kind's register at the end of the section headed by the kind's heading
 * (a new last section when the introduction has none).
 */
export function withRegisters(description: string | undefined, kinds: Array<ProvenanceKind & { entries: ProvenanceEntry[] }>): string {
  let text = (description ?? "").trimEnd();
  for (const kind of kinds) {
    const register = registerList(kind);
    const heading = new RegExp(`^## ${kind.heading.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[ \\t]*$`, "m").exec(text);
    if (!heading) {
      text = `${text}\n\n## ${kind.heading}\n\n${register}`;
      continue;
    }
    const afterHeading = heading.index + heading[0].length;
    const next = /^## /m.exec(text.slice(afterHeading));
    const end = next ? afterHeading + next.index : text.length;
    text = `${text.slice(0, end).trimEnd()}\n\n${register}${next ? `\n\n${text.slice(end)}` : ""}`;
  }
  return `${text}\n`;
}

/** A line that starts a Markdown block (heading, list item, table row, quote, fence): never joined to the previous one. */
const BLOCK_START = /^\s*(?:#|[-*+]\s|\d+\.\s|\||>|```)/;

/**
 * Markdown with soft line breaks (a newline inside a paragraph) replaced by spaces. Paragraph breaks,
 * headings, list items, table rows and fenced code keep their lines.
 */
export function joinSoftBreaks(markdown: string): string {
  const out: string[] = [];
  let fenced = false;
  let joinable = false;
  for (const line of markdown.split("\n")) {
    const fence = /^\s*```/.test(line);
    if (!fenced && joinable && line.trim() !== "" && !BLOCK_START.test(line)) {
      out[out.length - 1] = `${out[out.length - 1]!.trimEnd()} ${line.trim()}`;
      continue;
    }
    out.push(line);
    if (fence) fenced = !fenced;
    // A table row or a heading ends where it is; any other text line may continue on the next.
    joinable = !fenced && !fence && line.trim() !== "" && !/^\s*(?:#|\|)/.test(line);
  }
  return out.join("\n");
}

function joinDescriptions(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) joinDescriptions(item);
    return;
  }
  if (!node || typeof node !== "object") return;
  const record = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    if (key === "description" && typeof value === "string") record[key] = joinSoftBreaks(value);
    else if (key !== "example" && key !== "examples" && key !== "x-codeSamples") joinDescriptions(value);
  }
}

/** The docs-only derived document: code samples on every operation, the registers in the introduction, joined lines. */
export function docsDocument(bundle: OpenApiDocument): OpenApiDocument {
  const doc = withCodeSamples(bundle);
  doc.info = { ...doc.info, description: withRegisters(doc.info?.description as string | undefined, collectProvenance(bundle)) };
  joinDescriptions(doc);
  return doc;
}

/** Makes the page self-contained (no CDN logo) and marks it as generated. */
export function finishHtml(html: string): string {
  let out = html;
  for (const url of CDN_LOGOS) out = out.split(url).join(INLINE_LOGO);
  const doctype = "<!DOCTYPE html>\n";
  if (!out.startsWith(doctype)) throw new Error("docs: unexpected page start (did the template change?)");
  return `${doctype}${headerFor("index.html")}${out.slice(doctype.length)}`;
}

export default async function buildDocs({ root, outDir, log }: BuildContext): Promise<void> {
  const bundlePath = path.join(outDir, "openapi.yaml");
  let bundleText: string;
  try {
    bundleText = await readFile(bundlePath, "utf8");
  } catch {
    throw new Error(`docs: ${bundlePath} is missing; run \`npm run build\` (it bundles the spec first)`);
  }
  const doc = docsDocument(parse(bundleText) as OpenApiDocument);
  const work = await mkdtemp(path.join(tmpdir(), "docs-build-"));
  try {
    const input = path.join(work, "openapi.json");
    const output = path.join(work, "index.html");
    await writeFile(input, `${JSON.stringify(doc, null, 2)}\n`);
    const config = path.join(root, "redocly.yaml");
    await runNode(binPath("@redocly/cli", "redocly"), ["build-docs", input, "--inlineBundle", "--output", output, "--config", config], { cwd: root });
    const html = finishHtml(await readFile(output, "utf8"));
    await mkdir(path.join(outDir, "docs"), { recursive: true });
    await writeFile(path.join(outDir, "docs", "index.html"), html);
    log(`docs: docs/index.html (${Math.round(Buffer.byteLength(html) / 1024)} KiB)`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
