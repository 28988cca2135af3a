// Writes the provenance register: the sources outside the description (`info.x-sources`) with how many elements
// each supports, and every `x-observed`, `x-published`, `x-not-shown` and `x-convention` marker of the bundled spec,
// with its place (and its sources by title), one section per kind. provenance.md for people, provenance.json for
// tools. A marker of the wrong shape or naming an unknown source fails the build (collectProvenance).
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { OpenApiDocument } from "../../../src/openapi/index.js";
import { GENERATED_NOTICE, headerFor } from "../generated-header.js";
import type { BuildContext } from "../index.js";
import { collectProvenance, PROVENANCE_HEADING, type ProvenanceRegister, sourceTitles } from "../provenance.js";

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? "" : "s"}`;

/** The Markdown of the register. */
function registerMarkdown({ sources, kinds }: ProvenanceRegister): string[] {
  const lines = [
    `# ${PROVENANCE_HEADING}`,
    "",
    "Every element of the contract comes from the service's description unless one of the markers below says",
    `otherwise. ${kinds.map((k) => `${k.entries.length} \`${k.key}\``).join(", ")}.`,
    "",
    "## Sources",
    "",
    "The sources outside the description (`info.x-sources`), each with the number of elements its markers support.",
    "",
    "| Id | Kind | Title | Elements |",
    "|---|---|---|---|",
    ...sources.map((s) => `| \`${s.id}\` | ${s.kind} | ${cell(s.title)} | ${s.elements} |`),
    "",
  ];
  for (const kind of kinds) {
    lines.push(`## ${kind.heading}`, "", kind.lead, `${plural(kind.entries.length, "marker")}.`, "");
    if (kind.entries.length === 0) {
      lines.push("None.", "");
      continue;
    }
    const sourced = kind.sourced ? " Sources |" : "";
    lines.push(`| # | Place | ${kind.column} |${sourced} Pointer |`, `|---|---|---|${kind.sourced ? "---|" : ""}---|`);
    kind.entries.forEach((e, i) => {
      const titles = kind.sourced ? ` ${cell(sourceTitles(e, sources).join("; "))} |` : "";
      lines.push(`| ${i + 1} | ${cell(e.place)} | ${cell(e.text)} |${titles} \`${e.pointer}\` |`);
    });
    lines.push("");
  }
  return lines;
}

export default async function provenanceRegister({ outDir }: BuildContext): Promise<void> {
  const spec = JSON.parse(await readFile(path.join(outDir, "openapi.json"), "utf8")) as OpenApiDocument;
  const register = collectProvenance(spec);
  const lines = registerMarkdown(register);
  await writeFile(path.join(outDir, "provenance.md"), headerFor("provenance.md") + lines.join("\n"));
  const json = {
    "x-generated": GENERATED_NOTICE,
    sources: register.sources,
    kinds: register.kinds.map(({ key, heading, entries }) => ({ key, heading, entries })),
  };
  await writeFile(path.join(outDir, "provenance.json"), `${JSON.stringify(json, null, 2)}\n`);
}
