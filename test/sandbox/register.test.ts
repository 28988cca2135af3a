// pins: quotes.expired, quotes.rounding, lists.pagination, limits.headers, accounts.replace
// The register of choices as data: where a rule has a form, the register holds it as values the code reads
// (GET /_sandbox/choices shows them), and every choice is pinned by at least one test file, which names it in a
// `// pins:` line at its top. A choice no test pins, or a pin of no choice, fails here.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/spec.js";
import { control, newSandbox } from "./support/sandbox.js";

/** Every test file under test/, as a path from the repository's root. */
function testFiles(dir = path.join(repoRoot, "test")): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(full);
    return /\.test(-d)?\.ts$/.test(entry.name) ? [path.relative(repoRoot, full)] : [];
  });
}

/** The choice ids each test file pins (its `// pins:` lines). */
function pinsByFile(): Map<string, string[]> {
  const pins = new Map<string, string[]>();
  for (const file of testFiles()) {
    const lines = readFileSync(path.join(repoRoot, file), "utf8").split("\n");
    const ids = lines
      .filter((line) => line.startsWith("// pins: "))
      .flatMap((line) =>
        line
          .slice("// pins: ".length)
          .split(",")
          .map((id) => id.trim())
          .filter(Boolean),
      );
    if (ids.length) pins.set(file, ids);
  }
  return pins;
}

describe("the register of choices", () => {
  it("shows the forms of its rules as GET /_sandbox/choices answers them", async () => {
    const answer = await control(newSandbox(), "GET", "/_sandbox/choices");
    const forms = Object.fromEntries(
      (answer.body as Array<{ id: string; form?: unknown }>).filter((c) => c.form).map((c) => [c.id, c.form]),
    );
    expect(forms).toEqual({
      "accounts.replace": { put: "replaces the key's whole store", delete: "removes the key's whole store" },
      "quotes.rounding": { amountReceivedRounding: "down" },
      "quotes.expired": { quoteExpiry: "at-expiry" },
      "lists.pagination": { listOrder: "newest-first", page: 1, pageSize: 30 },
      "limits.headers": { resetRounding: "up" },
    });
  });

  it("has every choice pinned by a test file, and no pin of a choice it lacks", () => {
    const ids = newSandbox().choices.map((choice) => choice.id);
    const pinned = new Set([...pinsByFile().values()].flat());
    expect({ unpinned: ids.filter((id) => !pinned.has(id)) }).toEqual({ unpinned: [] });
    expect({ unknown: [...pinned].filter((id) => !ids.includes(id)) }).toEqual({ unknown: [] });
  });
});
