// The provenance register as the docs page's introduction has it (scripts/build/steps/50-docs.ts), on a small
// register: the table of sources at the end of "Where the contract comes from", each kind's list at the end of its
// own section (a new last section when the introduction has none), each sourced entry with its sources by title.
// The page itself, in a browser, is test/docs/docs-page.test.ts.
import { describe, expect, it } from "vitest";
import { PROVENANCE_KINDS, type ProvenanceRegister } from "../../scripts/build/provenance.js";
import { withRegisters } from "../../scripts/build/steps/50-docs.js";

const kind = (key: string) => PROVENANCE_KINDS.find((k) => k.key === key)!;
const REGISTER: ProvenanceRegister = {
  sources: [
    { id: "c1", kind: "client", title: "Client one", elements: 1 },
    { id: "p1", kind: "page", title: "Page | one", elements: 1 },
    { id: "never", kind: "page", title: "Page never named", elements: 0 },
  ],
  kinds: [
    {
      ...kind("x-observed"),
      entries: [
        { pointer: "#/a", place: "op A", text: "Both send it.", sources: ["c1", "p1"] },
        { pointer: "#/b", place: "schema B", text: "The client reads it.", sources: ["c1"] },
      ],
    },
    { ...kind("x-published"), entries: [] },
    { ...kind("x-not-shown"), entries: [{ pointer: "#/c", place: "op C", text: "Limits: not shown." }] },
  ],
};

/** The text of the section headed `## heading` (up to the next `## `). */
const section = (text: string, heading: string) => text.split(`## ${heading}\n`)[1]?.split("\n## ")[0] ?? "";

describe("the docs page's provenance sections", () => {
  const intro = [
    "Intro.",
    "## Where the contract comes from",
    "The kinds.",
    "## Observed in a real client",
    "Observed prose.",
    "## Published on the service's reference pages",
    "Published prose.",
    "## Other",
    "Other prose.",
  ].join("\n\n");
  const text = withRegisters(intro, REGISTER);

  it("ends 'Where the contract comes from' with the table of sources: id, kind, title, elements", () => {
    const where = section(text, "Where the contract comes from");
    expect(where.indexOf("The kinds.")).toBeLessThan(where.indexOf("| Id | Kind | Title | Elements |"));
    expect(where).toContain("| `c1` | client | Client one | 1 |");
    expect(where).toContain("| `p1` | page | Page \\| one | 1 |");
    expect(where).toContain("| `never` | page | Page never named | 0 |");
  });

  it("lists each sourced entry with its sources by title, in its kind's section after the prose", () => {
    const observed = section(text, "Observed in a real client");
    expect(observed).toMatch(/^\nObserved prose\.\n\nThe register of `x-observed`, in document order \(2 markers\):\n/);
    expect(observed).toContain("1. **op A**: Both send it. (sources: Client one; Page | one)");
    expect(observed).toContain("2. **schema B**: The client reads it. (source: Client one)");
  });

  it("says None for a kind without markers, and names no sources for a kind that has none", () => {
    expect(section(text, "Published on the service's reference pages")).toContain("(0 markers):\n\nNone.");
    const open = section(text, "What the description leaves open");
    expect(open).toContain("1. **op C**: Limits: not shown.\n");
    expect(open).not.toContain("source");
    // A kind whose heading the introduction lacks becomes a new last section, after the others.
    expect(text.indexOf("## Other")).toBeLessThan(text.indexOf("## What the description leaves open"));
  });
});
