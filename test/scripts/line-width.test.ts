// No line of the project's own source is wider than 120 characters (Biome's lineWidth), comments and strings
// included, which Biome's formatter does not wrap. One check over all files (near-identical probes are one check);
// a failure names each file and its wide lines.
// The files: what git tracks (or would add) of code, templates and Markdown under the source folders, and the
// config files at the root; not generated/, not JSON data, not fixtures that reproduce an external sample, not the
// tables `npm run build` writes into a guide between its markers (scripts/build/guide-tables.ts).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/spec.js";

const MAX_WIDTH = 120;
const SOURCE_FOLDERS = ["src/", "scripts/", "test/", "bench/", "spectral-functions/", "docs/"];
const SOURCE_FILE = /\.(ts|mts|mjs|js|hbs|md|css|sh)$/;
/** At the root only code is config (package.json and the other JSON files are data). */
const ROOT_CONFIG_FILE = /^[^/]+\.(ts|mts|mjs|js)$/;
/** Files whose lines reproduce something written elsewhere, kept as it is there. */
const REPRODUCED = [/\/fixtures\//];

const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: repoRoot,
  encoding: "utf8",
})
  .split("\n")
  .filter((file) => file !== "");
const checkedFiles = [...new Set(listed)]
  .filter((file) => ROOT_CONFIG_FILE.test(file) || SOURCE_FOLDERS.some((folder) => file.startsWith(folder)))
  .filter((file) => SOURCE_FILE.test(file) && !REPRODUCED.some((pattern) => pattern.test(file)))
  .filter((file) => existsSync(path.join(repoRoot, file)))
  .sort();

/** A build's markers around what it writes into a page (`<!-- name:start -->` … `<!-- name:end -->`). */
const GENERATED_REGION = /^<!-- ([\w-]+):start -->$[\s\S]*?^<!-- \1:end -->$/gm;

/**
 * `line N (W characters)` for each line of the text wider than `max` characters (code points, not bytes), the lines
 * between a build's markers (a region that is closed) left out.
 */
function wideLines(text: string, max = MAX_WIDTH): string[] {
  // Each generated line is emptied, so the other lines keep their numbers.
  const checked = text.replace(GENERATED_REGION, (region) => region.replace(/[^\r\n]/g, ""));
  return checked.split(/\r?\n/).flatMap((line, index) => {
    const width = [...line].length;
    return width > max ? [`line ${index + 1} (${width} characters)`] : [];
  });
}

describe("the checked files", () => {
  it("are the source folders' code, templates and Markdown and the root's config files", () => {
    for (const file of ["src/index.ts", "scripts/build.ts", "test/support/spec.ts", "vitest.config.ts"])
      expect(checkedFiles, file).toContain(file);
    expect(checkedFiles.some((file) => file.endsWith(".hbs"))).toBe(true);
    expect(checkedFiles.some((file) => file.startsWith("spectral-functions/"))).toBe(true);
    expect(checkedFiles.filter((file) => /^generated\/|\.json$|\/fixtures\/|^[^/]+\.md$/.test(file))).toEqual([]);
  });

  it("count characters, not bytes or UTF-16 units, and name each wide line", () => {
    const atLimit = `${"é".repeat(MAX_WIDTH - 1)}✓`;
    expect(wideLines(atLimit)).toEqual([]);
    expect(wideLines(`${"💡".repeat(MAX_WIDTH)}`)).toEqual([]);
    expect(wideLines(["short", `${atLimit}x`, "", "y".repeat(MAX_WIDTH + 5)].join("\r\n"))).toEqual([
      `line 2 (${MAX_WIDTH + 1} characters)`,
      `line 4 (${MAX_WIDTH + 5} characters)`,
    ]);
  });

  it("leave out the lines a build writes between its markers, and only those", () => {
    const wide = "|".repeat(MAX_WIDTH + 1);
    const page = ["<!-- table:start -->", wide, "<!-- table:end -->", wide].join("\n");
    expect(wideLines(page)).toEqual([`line 4 (${MAX_WIDTH + 1} characters)`]);
    // A region its build did not close is checked.
    expect(wideLines(["<!-- table:start -->", wide, "<!-- other:end -->"].join("\n"))).toEqual([
      `line 2 (${MAX_WIDTH + 1} characters)`,
    ]);
  });
});

it(`no line of a checked file is over ${MAX_WIDTH} characters`, () => {
  const wide = Object.fromEntries(
    checkedFiles
      .map((file) => [file, wideLines(readFileSync(path.join(repoRoot, file), "utf8"))] as const)
      .filter(([, lines]) => lines.length > 0),
  );
  expect(wide).toEqual({});
});
