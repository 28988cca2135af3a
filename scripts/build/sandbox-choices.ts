// The register of the sandbox's choices (src/sandbox/choices.ts, the one register) as the table users read: the
// build writes it to generated/sandbox-choices.md and into the site's page of the register (docs/guide/register.md,
// scripts/build/guide-tables.ts), and check:generated fails when the page's copy differs from the register.
// Nothing is written by hand.
import { SANDBOX_CHOICES } from "../../src/sandbox/choices.js";
import type { SandboxChoice } from "../../generated/sandbox-control.js";

/**
 * A table cell: pipes escaped, so a choice's text cannot break the table, and `<` written as an entity, so a
 * placeholder (`TRD-<date>`) is shown as text, not read as an HTML tag (VitePress would refuse an unclosed one).
 */
export const cell = (text: string | undefined) => (text ?? "").replace(/\|/g, "\\|").replace(/</g, "&lt;");

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
