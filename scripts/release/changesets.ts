// The pending changesets (.changeset/*.md, written by `npm run changeset`): the bump each one declares for
// this package, read from its YAML frontmatter the way @changesets/cli reads it.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "yaml";
import { type Bump, isBump } from "./versions.js";

export interface PendingChangeset {
  /** Relative to the repository root: `.changeset/brave-owls-sing.md`. */
  file: string;
  bump: Bump;
  summary: string;
}

/** The changesets in `<root>/.changeset/` that name `packageName`; throws naming a file whose frontmatter is broken. */
export async function pendingChangesets(root: string, packageName: string): Promise<PendingChangeset[]> {
  const dir = path.join(root, ".changeset");
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const found: PendingChangeset[] = [];
  for (const name of names.filter((n) => n.endsWith(".md") && n.toLowerCase() !== "readme.md").sort()) {
    const file = path.posix.join(".changeset", name);
    const text = await readFile(path.join(dir, name), "utf8");
    const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)([\s\S]*)$/.exec(text);
    if (!match) throw new Error(`${file}: no frontmatter (--- "${packageName}": major|minor|patch ---)`);
    let releases: unknown;
    try {
      releases = parse(match[1] ?? "") ?? {};
    } catch (error) {
      throw new Error(`${file}: frontmatter is not YAML (${(error as Error).message.split("\n")[0]})`);
    }
    if (typeof releases !== "object" || releases === null || Array.isArray(releases))
      throw new Error(`${file}: frontmatter must map package names to bumps`);
    const bump = (releases as Record<string, unknown>)[packageName];
    if (bump === undefined) continue;
    if (!isBump(bump))
      throw new Error(
        `${file}: "${packageName}" has bump ${JSON.stringify(bump)}; expected major, minor, patch or none`,
      );
    found.push({ file, bump, summary: (match[2] ?? "").trim() });
  }
  return found;
}
