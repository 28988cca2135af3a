// Build step: the docs page, <outDir>/docs/index.html, from <outDir>/openapi.yaml.
// Redocly renders a docs-only derived copy of the bundle (in a temporary folder) that adds, without
// touching the contract: a TypeScript code sample per operation (x-codeSamples) and, in the
// introduction, the provenance register (observed, not shown, conventions), each kind in its own
// section. `--inlineBundle` embeds Redoc: the page works from file://.
// Theme and Redoc options: the `openapi:` section of redocly.yaml (template: scripts/lib/docs-template.hbs).
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { withCodeSamples } from "../lib/code-samples.mjs";
import { headerFor } from "../lib/generated-header.mjs";
import { collectProvenance } from "../lib/provenance.mjs";
import { binPath, runNode } from "../lib/run.mjs";

// Redoc's attribution badge loads its logo from a CDN, which fails (and logs a console error)
// offline. The step swaps it for an inline image; the link to Redoc stays. (The browser test
// fails on any request that leaves 127.0.0.1, so a new CDN asset in a Redoc update is noticed.)
const CDN_LOGOS = ["https://cdn.redoc.ly/redoc/logo-mini-full.svg", "https://cdn.redoc.ly/redoc/logo-mini.svg"];
const INLINE_LOGO = `data:image/svg+xml;base64,${Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="44" height="14" viewBox="0 0 44 14">' +
    '<text x="0" y="11" font-family="sans-serif" font-size="11" font-weight="600" fill="#5c5f66">Redoc</text></svg>',
).toString("base64")}`;

function oneLine(text) {
  return String(text)
    .replace(/\s*\r?\n\s*/g, " ")
    .trim();
}

/** One kind of the register as Markdown (scripts/lib/provenance.mjs): a lead-in and a numbered list. */
export function registerList(kind) {
  const { entries } = kind;
  const count = `${entries.length} marker${entries.length === 1 ? "" : "s"}`;
  const lines = [`The register of \`${kind.key}\`, in document order (${count}):`, ""];
  if (entries.length === 0) return [...lines, "None."].join("\n");
  entries.forEach((entry, index) => lines.push(`${index + 1}. **${oneLine(entry.place)}**: ${oneLine(entry.text)}`));
  return lines.join("\n");
}

/**
 * The introduction with each kind's register at the end of the section headed by the kind's heading
 * (a new last section when the introduction has none).
 */
export function withRegisters(description, kinds) {
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

/** The docs-only derived document: code samples on every operation, the registers in the introduction. */
export function docsDocument(bundle) {
  const doc = withCodeSamples(bundle);
  doc.info = { ...doc.info, description: withRegisters(doc.info?.description, collectProvenance(bundle)) };
  return doc;
}

/** Makes the page self-contained (no CDN logo) and marks it as generated. */
export function finishHtml(html) {
  let out = html;
  for (const url of CDN_LOGOS) out = out.split(url).join(INLINE_LOGO);
  const doctype = "<!DOCTYPE html>\n";
  if (!out.startsWith(doctype)) throw new Error("docs: unexpected page start (did the template change?)");
  return `${doctype}${headerFor("index.html")}${out.slice(doctype.length)}`;
}

export default async function buildDocs({ root, outDir, log }) {
  const bundlePath = path.join(outDir, "openapi.yaml");
  let bundleText;
  try {
    bundleText = await readFile(bundlePath, "utf8");
  } catch {
    throw new Error(`docs: ${bundlePath} is missing; run \`npm run build\` (it bundles the spec first)`);
  }
  const doc = docsDocument(parse(bundleText));
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
