// The register's page (docs/guide/register.md) shows the register of choices as the sandbox holds it: the table
// between its markers is the table of `sandbox.choices` (the one register, src/sandbox/choices.ts), row for row.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { markersOf } from "../../scripts/build/guide-tables.js";
import { choicesTable } from "../../scripts/build/sandbox-choices.js";
import { createSandbox } from "../../src/sandbox/index.js";
import { repoRoot } from "../support/tsc.js";

describe("the register's page", () => {
  it("shows the register of choices as sandbox.choices holds it (between its markers)", async () => {
    const text = await readFile(path.join(repoRoot, "docs", "guide", "register.md"), "utf8");
    const { start, end } = markersOf("sandbox-choices");
    const between = text.slice(text.indexOf(start) + start.length, text.indexOf(end)).trim();
    expect(text.indexOf(start)).toBeGreaterThan(-1);
    // On a difference, the expected text is the table `npm run build` writes between the markers.
    expect(between).toBe(choicesTable(createSandbox().choices));
  });
});
