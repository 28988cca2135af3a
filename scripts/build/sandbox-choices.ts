// The register of the sandbox's choices (src/sandbox/choices.ts, the one register) as the table users read: the
// build writes it to generated/sandbox-choices.md and between the README's markers, and check:generated fails
// when the README's copy differs from the register. Nothing is written by hand.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { SANDBOX_CHOICES } from "../../src/sandbox/choices.js";
import type { SandboxChoice } from "../../generated/sandbox-control.js";

export const README_MARKERS = { start: "<!-- sandbox-choices:start -->", end: "<!-- sandbox-choices:end -->" };

/** A table cell: pipes escaped, so a choice's text cannot break the table. */
const cell = (text: string | undefined) => (text ?? "").replace(/\|/g, "\\|");

/** The register as a Markdown table. */
export function choicesTable(choices: readonly SandboxChoice[] = SANDBOX_CHOICES): string {
  const rows = choices.map(
    (choice) =>
      `| \`${choice.id}\` | ${cell(choice.topic)} | ${cell(choice.choice)} | ${cell(choice.why)} | ` +
      `${cell(choice.override)} |`,
  );
  return [
    "| Choice | Topic | What the sandbox does | Why | To choose otherwise |",
    "|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** `readme` with the table between its markers replaced by `table`; an Error when a marker is missing. */
function withChoicesTable(readme: string, table: string): string {
  const start = readme.indexOf(README_MARKERS.start);
  const end = readme.indexOf(README_MARKERS.end);
  if (start < 0 || end < start) throw new Error(`README.md: the markers ${README_MARKERS.start} … end are missing`);
  return `${readme.slice(0, start + README_MARKERS.start.length)}\n${table}\n${readme.slice(end)}`;
}

const readmeOf = (root: string) => path.join(root, "README.md");

/** Writes the register's table into the README (npm run build). */
export async function writeReadmeChoices(root: string): Promise<void> {
  const text = await readFile(readmeOf(root), "utf8");
  const next = withChoicesTable(text, choicesTable());
  if (next !== text) await writeFile(readmeOf(root), next);
}

/** Why the README's table is not the register's (check:generated), or undefined. */
export async function readmeChoicesProblem(root: string): Promise<string | undefined> {
  const text = await readFile(readmeOf(root), "utf8");
  return withChoicesTable(text, choicesTable()) === text
    ? undefined
    : "README.md: the register of choices differs from src/sandbox/choices.ts (run `npm run build`)";
}
