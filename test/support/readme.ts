// The README's code blocks, read as written there, for the tests that run or compile them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./spec.js";

/** The README's ```<language> block whose first line is `firstLine`, exactly as written (the first line included). */
export function readmeBlock(language: string, firstLine: string): string {
  const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
  const escaped = firstLine.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const block = new RegExp(`\`\`\`${language}\\n(${escaped}\\n[\\s\\S]*?)\`\`\``).exec(readme)?.[1];
  if (block === undefined) throw new Error(`README.md has no \`\`\`${language} block starting with "${firstLine}"`);
  return block;
}
