// Writes the not-shown register: every `x-not-shown` marker of the bundled spec, with its place.
// generated/not-shown.md for people, generated/not-shown.json for tools (the docs build reads it).
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { GENERATED_NOTICE, headerFor } from "../lib/generated-header.mjs";
import { collectNotShown, NOT_SHOWN_HEADING } from "../lib/not-shown.mjs";

export default async function notShownRegister({ outDir }) {
  const spec = JSON.parse(await readFile(path.join(outDir, "openapi.json"), "utf8"));
  const entries = collectNotShown(spec);
  const lines = [
    `# ${NOT_SHOWN_HEADING}`,
    "",
    "Every place where the service's description says \"not shown\", and every conventional assumption the",
    "contract makes in its place (marked \"Assumed\"), as marked by `x-not-shown` in the spec.",
    `${entries.length} markers.`,
    "",
    "| # | Place | What is not shown | Pointer |",
    "|---|---|---|---|",
    ...entries.map((e, i) => `| ${i + 1} | ${e.place} | ${e.text.replace(/\|/g, "\\|")} | \`${e.pointer}\` |`),
    "",
  ];
  await writeFile(path.join(outDir, "not-shown.md"), headerFor("not-shown.md") + lines.join("\n"));
  await writeFile(path.join(outDir, "not-shown.json"), JSON.stringify({ "x-generated": GENERATED_NOTICE, entries }, null, 2) + "\n");
}
