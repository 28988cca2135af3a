// The README is one screen or two, and nothing it said before the docs site was lost: every heading of the README
// of 2026-11-29 (1,429 lines, commit bb2d75a) is a heading of today's README or of a page of the site.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/spec.js";

/** The README's headings before its sections moved to the site, as they were written. */
const FORMER_HEADINGS = [
  "Trading, Wallet and Settlement Service API — contract package",
  "Using it from another repo",
  "Scripts",
  "Where things are",
  "The tests",
  "The mock (`npm start`, `api-contract mock`, `./mock`, `./msw`)",
  "The sandbox (`./sandbox`, `./msw`, `api-contract sandbox`)",
  "The control API",
  "One sandbox for a parallel CI",
  "The worked flow",
  "The register of choices",
  "Webhooks in the sandbox",
  "A receiver",
  "Configuring delivery",
  "The outbox",
  "Resend",
  "The worked example: money in, money out",
  "The client",
  "The package",
  "Receiving webhooks",
  "Contract tests and the contract validator",
  "Checking a deployment (`api-contract verify`)",
  "The validator",
  "API docs",
  "Benchmarks and mutation testing",
  "Where the contract comes from",
  "Supported versions",
  "Versions and releases",
  "Lint rules turned off",
  "Toolchain notes",
];

/** A Markdown text's headings (outside fenced code), without their `#`s. */
function headingsOf(markdown: string): string[] {
  let fenced = false;
  const headings: string[] = [];
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced && /^#{1,6} /.test(line)) headings.push(line.replace(/^#+ /, "").trim());
  }
  return headings;
}

/** The site's hand-written pages (not TypeDoc's reference, not the copied Redoc pages), by path under docs/. */
async function sitePages(): Promise<string[]> {
  const docs = path.join(repoRoot, "docs");
  const entries = await readdir(docs, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
    .map((entry) => path.relative(docs, path.join(entry.parentPath, entry.name)))
    .filter((page) => !page.startsWith(`typescript${path.sep}`) && !page.startsWith("public"));
}

const readme = () => readFile(path.join(repoRoot, "README.md"), "utf8");

describe("the README", () => {
  it("is under 200 lines", async () => {
    expect((await readme()).split("\n").length).toBeLessThan(200);
  });

  it("lost no section: each former heading is a heading of the README or of a page of the site", async () => {
    const homes = new Map<string, string[]>();
    const add = (heading: string, where: string) => homes.set(heading, [...(homes.get(heading) ?? []), where]);
    for (const heading of headingsOf(await readme())) add(heading, "README.md");
    for (const page of await sitePages()) {
      const markdown = await readFile(path.join(repoRoot, "docs", page), "utf8");
      for (const heading of headingsOf(markdown)) add(heading, page);
    }
    const homeless = FORMER_HEADINGS.filter((heading) => !homes.has(heading));
    expect(homeless).toEqual([]);
  });

  it("finds headings outside fenced code only", () => {
    const markdown = "# Title\n```sh\n# a shell comment\n```\n## Section\n";
    expect(headingsOf(markdown)).toEqual(["Title", "Section"]);
  });
});
