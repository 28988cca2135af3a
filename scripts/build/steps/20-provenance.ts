// Writes the provenance register: every `x-observed`, `x-not-shown` and `x-convention` marker of the
// bundled spec, with its place, one section per kind. provenance.md for people, provenance.json for tools.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { OpenApiDocument } from "../../../src/openapi/index.js";
import { GENERATED_NOTICE, headerFor } from "../generated-header.js";
import type { BuildContext } from "../index.js";
import { collectProvenance } from "../provenance.js";

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");

export default async function provenanceRegister({ outDir }: BuildContext): Promise<void> {
  const spec = JSON.parse(await readFile(path.join(outDir, "openapi.json"), "utf8")) as OpenApiDocument;
  const kinds = collectProvenance(spec);
  const lines = [
    "# Where the contract comes from",
    "",
    "Every element of the contract comes from the service's description unless one of the markers below says",
    `otherwise. ${kinds.map((k) => `${k.entries.length} \`${k.key}\``).join(", ")}.`,
    "",
  ];
  for (const kind of kinds) {
    lines.push(
      `## ${kind.heading}`,
      "",
      kind.lead,
      `${kind.entries.length} marker${kind.entries.length === 1 ? "" : "s"}.`,
      "",
    );
    if (kind.entries.length === 0) {
      lines.push("None.", "");
      continue;
    }
    lines.push(`| # | Place | ${kind.column} | Pointer |`, "|---|---|---|---|");
    kind.entries.forEach((e, i) => {
      lines.push(`| ${i + 1} | ${cell(e.place)} | ${cell(e.text)} | \`${e.pointer}\` |`);
    });
    lines.push("");
  }
  await writeFile(path.join(outDir, "provenance.md"), headerFor("provenance.md") + lines.join("\n"));
  const json = {
    "x-generated": GENERATED_NOTICE,
    kinds: kinds.map(({ key, heading, entries }) => ({ key, heading, entries })),
  };
  await writeFile(path.join(outDir, "provenance.json"), `${JSON.stringify(json, null, 2)}\n`);
}
