// Build step: the docs page, <outDir>/docs/index.html, from <outDir>/openapi.yaml.
// Redocly renders a docs-only derived copy of the bundle (in a temporary folder) that adds, without
// touching the contract: a TypeScript code sample per operation (x-codeSamples) and, at the end of
// the introduction, the not-shown register. `--inlineBundle` embeds Redoc: the page works from file://.
// Theme and Redoc options: the `openapi:` section of redocly.yaml (template: scripts/lib/docs-template.hbs).
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { withCodeSamples } from "../lib/code-samples.mjs";
import { headerFor } from "../lib/generated-header.mjs";
import { collectNotShown, NOT_SHOWN_HEADING } from "../lib/not-shown.mjs";
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
  return String(text).replace(/\s*\r?\n\s*/g, " ").trim();
}

/** The register as Markdown (entries of scripts/lib/not-shown.mjs): a lead-in and a numbered list. */
export function notShownRegister(entries) {
  const count = `${entries.length} marker${entries.length === 1 ? "" : "s"}`;
  const lines = [
    `The register, in document order (${count}; an entry marked "Assumed" is a conventional assumption ` +
      "that the description does not state):",
    "",
  ];
  if (entries.length === 0) return [...lines, "The description leaves nothing open."].join("\n");
  entries.forEach((entry, index) => lines.push(`${index + 1}. **${oneLine(entry.place)}**: ${oneLine(entry.text)}`));
  return lines.join("\n");
}

/**
 * The introduction with the register in its "What the description leaves open" section: at the end
 * of that section when the spec's introduction has one, else as a new last section.
 */
export function withNotShownRegister(description, entries) {
  const text = (description ?? "").trimEnd();
  const register = notShownRegister(entries);
  const heading = new RegExp(`^## ${NOT_SHOWN_HEADING}[ \\t]*$`, "m").exec(text);
  if (!heading) return `${text}\n\n## ${NOT_SHOWN_HEADING}\n\n${register}\n`;
  const afterHeading = heading.index + heading[0].length;
  const next = /^## /m.exec(text.slice(afterHeading));
  const end = next ? afterHeading + next.index : text.length;
  return `${text.slice(0, end).trimEnd()}\n\n${register}\n${next ? `\n${text.slice(end)}\n` : ""}`;
}

/** The docs-only derived document: code samples on every operation, the register in the introduction. */
export function docsDocument(bundle) {
  const doc = withCodeSamples(bundle);
  doc.info = { ...doc.info, description: withNotShownRegister(doc.info?.description, collectNotShown(bundle)) };
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
