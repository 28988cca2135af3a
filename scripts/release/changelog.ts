// The gate's classified list in CHANGELOG.md: `changeset version` writes each release's entry from the
// changesets' notes; the release step adds, under it, every contract change since the last release as
// the gate classifies it (grouped: a change to a shared schema is one line with its places).
import { type Change, type ChangeKind, groupChanges } from "./compare.js";

const HEADINGS: Record<ChangeKind, string> = {
  breaking: "Breaking",
  "non-breaking": "Non-breaking",
  annotation: "Annotations",
};

/**
 * A message as Markdown: its JSON values (`"^[0-9]{4}…$"`) as code, the rest with markup characters escaped
 * (`response \\* body`).
 */
function markdown(text: string): string {
  const code = (value: string) => (value.includes("`") ? `\`\` ${value} \`\`` : `\`${value}\``);
  const escapeMarkup = (prose: string) => prose.replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`);
  let out = "";
  let last = 0;
  for (const match of text.matchAll(/"(?:[^"\\]|\\.)*"/g)) {
    out += escapeMarkup(text.slice(last, match.index)) + code(match[0]);
    last = match.index + match[0].length;
  }
  return out + escapeMarkup(text.slice(last));
}

/** The section for a release: its contract changes since `fromVersion`, by kind, one bullet per group. */
export function contractChangesSection(changes: readonly Change[], fromVersion: string): string {
  const lines = [
    `### Contract changes since ${fromVersion}`,
    "",
    "Classified by `npm run check:breaking` (released bundle → this release's bundle).",
  ];
  if (changes.length === 0) lines.push("", "None: the contract is unchanged.");
  for (const kind of ["breaking", "non-breaking", "annotation"] as const) {
    const groups = groupChanges(changes.filter((c) => c.kind === kind));
    if (!groups.length) continue;
    lines.push("", `#### ${HEADINGS[kind]}`, "");
    for (const g of groups) {
      const places =
        g.count > 1
          ? ` (${g.count} places: ${g.operations.slice(0, 5).join(", ")}${g.operations.length > 5 ? ", …" : ""})`
          : "";
      lines.push(`- \`${g.rule}\` ${markdown(g.where ? `${g.where}: ${g.text}` : g.text)}${places}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** CHANGELOG.md's text with `section` at the end of the entry of `version` (`## 1.1.0`), which must exist. */
export function addToEntry(changelog: string, version: string, section: string): string {
  const heading = new RegExp(`^## ${version.replace(/[.+]/g, "\\$&")}[ \\t]*$`, "m").exec(changelog);
  if (!heading) throw new Error(`CHANGELOG.md has no entry "## ${version}"`);
  const after = heading.index + heading[0].length;
  const next = /^## /m.exec(changelog.slice(after));
  const end = next ? after + next.index : changelog.length;
  const entry = changelog.slice(0, end).replace(/\s*$/, "");
  return `${entry}\n\n${section.trim()}\n${next ? `\n${changelog.slice(end)}` : ""}`;
}
