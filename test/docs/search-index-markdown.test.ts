// The docs step's Markdown rewrites for Redoc's search index (scripts/build/steps/50-docs.ts): soft line
// breaks joined, and a space entity at the end of list items and table cells. Redoc renders the rewritten
// Markdown as it would the original; only the text its search index gathers changes.
import { describe, expect, it } from "vitest";
import { joinSoftBreaks, withSearchSpaces } from "../../scripts/build/steps/50-docs.js";

const md = (...lines: string[]) => lines.join("\n");

describe("joinSoftBreaks", () => {
  it("joins the lines of a paragraph with one space", () => {
    expect(joinSoftBreaks(md("Creates a quote for", "the trade; it", "is valid until", "  expiryDate."))).toBe(
      "Creates a quote for the trade; it is valid until expiryDate.",
    );
  });

  it("keeps paragraph breaks, and joins each paragraph on its own", () => {
    expect(joinSoftBreaks(md("First", "paragraph.", "", "Second", "paragraph.", "", "", "Third."))).toBe(
      md("First paragraph.", "", "Second paragraph.", "", "", "Third."),
    );
  });

  it("keeps list items on their lines and joins the continuation lines of an item", () => {
    expect(
      joinSoftBreaks(
        md("Kinds:", "- deposit", "  of crypto", "- withdrawal", "* swap", "+ fee", "1. one", "   more", "2) two"),
      ),
    ).toBe(md("Kinds:", "- deposit of crypto", "- withdrawal", "* swap", "+ fee", "1. one more", "2) two"));
  });

  it("keeps nested list items on their lines", () => {
    expect(joinSoftBreaks(md("- outer", "  - inner", "    text", "- next"))).toBe(
      md("- outer", "  - inner text", "- next"),
    );
  });

  it("keeps table rows on their lines, also when a paragraph line comes right before the table", () => {
    const table = md("| Limit | Value |", "|---|---|", "| General | 200 |", "| Quote | 100 |");
    expect(joinSoftBreaks(md("Limits", "by key:", table, "After", "the table."))).toBe(
      md("Limits by key:", table, "After", "the table."),
    );
    expect(joinSoftBreaks(md(table, "", "After", "the table."))).toBe(md(table, "", "After the table."));
  });

  it("keeps the rows of a table without pipes at its edges", () => {
    const table = md("Limit | Value", "--- | ---", "General | 200", "Quote | 100");
    expect(joinSoftBreaks(md("Limits:", "", table))).toBe(md("Limits:", "", table));
    expect(joinSoftBreaks(md("A paragraph", "line", table))).toBe(md("A paragraph line", table));
  });

  it("keeps headings on their lines and does not join the next line to a heading", () => {
    expect(joinSoftBreaks(md("## Errors", "The error body", "is not shown.", "### Codes", "None."))).toBe(
      md("## Errors", "The error body is not shown.", "### Codes", "None."),
    );
  });

  it("keeps setext underlines and thematic breaks on their lines", () => {
    expect(joinSoftBreaks(md("Errors", "and", "limits", "======", "Text", "---", "More", "* * *", "End", "___"))).toBe(
      md("Errors and limits", "======", "Text", "---", "More", "* * *", "End", "___"),
    );
  });

  it("keeps fenced code as it is, with backticks or tildes, and joins the text around it", () => {
    const fence = md("```ts", "const a =", "  1;", "", "const b = 2;", "```");
    expect(joinSoftBreaks(md("Before", "the code:", fence, "After", "it."))).toBe(
      md("Before the code:", fence, "After it."),
    );
    const tildes = md("~~~", "line one", "```", "line two", "~~~");
    expect(joinSoftBreaks(md(tildes, "After", "it."))).toBe(md(tildes, "After it."));
  });

  it("joins the lines of a quoted paragraph inside the quote", () => {
    expect(joinSoftBreaks(md("> The description", "> says so.", ">", "> - a", "> - b", "lazy", "line"))).toBe(
      md("> The description says so.", ">", "> - a", "> - b lazy line"),
    );
  });

  it("leaves text without soft line breaks as it is", () => {
    const text = md("One line.", "", "- item", "", "| a |", "|---|", "| 1 |");
    expect(joinSoftBreaks(text)).toBe(text);
    expect(joinSoftBreaks("")).toBe("");
  });
});

describe("withSearchSpaces", () => {
  it("ends each list item with a space entity", () => {
    expect(withSearchSpaces(md("Kinds:", "- deposit", "  - nested", "1. one", "2) two  ", "> - quoted"))).toBe(
      md("Kinds:", "- deposit&#32;", "  - nested&#32;", "1. one&#32;", "2) two&#32;", "> - quoted&#32;"),
    );
  });

  it("ends each table cell with a space entity, leaving the delimiter row and escaped pipes alone", () => {
    expect(
      withSearchSpaces(
        md("| Limit | Applies to |", "|---|:---:|", "| General | every request |", "| Pipe | `a \\| b` |"),
      ),
    ).toBe(
      md(
        "| Limit&#32; | Applies to&#32; |",
        "|---|:---:|",
        "| General&#32; | every request&#32; |",
        "| Pipe&#32; | `a \\| b`&#32; |",
      ),
    );
    expect(withSearchSpaces(md("Limit | Value", "--- | ---", "General | 200"))).toBe(
      md("Limit&#32; | Value&#32;", "--- | ---", "General&#32; | 200&#32;"),
    );
  });

  it("leaves paragraphs, headings, rules, fenced code and a pipe in a sentence alone", () => {
    const text = md(
      "A paragraph with a | pipe.",
      "",
      "## Heading",
      "",
      "---",
      "",
      "```",
      "- not an item",
      "| not | a row |",
      "```",
    );
    expect(withSearchSpaces(text)).toBe(text);
  });

  it("is idempotent", () => {
    const once = withSearchSpaces(md("- item", "| a | b |", "|---|---|", "| 1 | 2 |"));
    expect(withSearchSpaces(once)).toBe(once);
  });
});
