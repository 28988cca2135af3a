// Where Redoc's search index could run two words of the docs together ("thetrade", "API keyevery request"): the
// seams of the spec's Markdown (list items, table cells, soft line breaks), the words on both sides of each, and
// the vocabulary that tells a word glued from two apart from a word of the docs. Pure text: the browser test
// (test/docs/docs-page.test.ts) searches for each seam and reads the snippets; test/docs/search-seams.test.ts
// checks these alone.

/** Markdown as Redoc's search shows it: no emphasis, code or link syntax, list markers, heading marks, table pipes. */
const searchText = (markdown: string) =>
  markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/gm, "")
    .replace(/^[ \t]*#{1,6}[ \t]+/gm, "")
    .replace(/^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$/gm, "")
    .replace(/\|/g, " ")
    .replace(/\*\*|[*`]/g, "");
export const words = (text: string) => text.split(/\s+/).filter(Boolean);
/** A word without the punctuation around it ("(for" is "for"). */
const core = (word: string) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");

/** Every string of the spec, keys too. */
export function specStrings(node: unknown, out: string[] = []): string[] {
  if (typeof node === "string") out.push(node);
  else if (Array.isArray(node)) for (const item of node) specStrings(item, out);
  else if (node && typeof node === "object")
    for (const [key, value] of Object.entries(node)) {
      out.push(key);
      specStrings(value, out);
    }
  return out;
}

/** Every Markdown description of the spec, with the path that leads to it. */
export function descriptions(node: unknown, at = "", out: { at: string; markdown: string }[] = []) {
  if (Array.isArray(node)) {
    node.forEach((item, index) => {
      descriptions(item, `${at}/${index}`, out);
    });
  } else if (node && typeof node === "object")
    for (const [key, value] of Object.entries(node)) {
      if (key === "description" && typeof value === "string") out.push({ at, markdown: value });
      else if (key !== "example" && key !== "examples") descriptions(value, `${at}/${key}`, out);
    }
  return out;
}

/**
 * Two pieces of text that the page shows apart but a search index could join: the last word of one, the first of
 * the other.
 */
export interface Seam {
  where: string;
  before: string;
  after: string;
  /** Words to search for: the nearest word (letters or digits) on each side. */
  query: string;
}

export function seam(where: string, beforeText: string, afterText: string): Seam | undefined {
  const before = words(searchText(beforeText));
  const after = words(searchText(afterText));
  const left = [...before].reverse().find((word) => core(word) !== "");
  const right = after.find((word) => core(word) !== "");
  if (!before.length || !after.length || !left || !right) return undefined;
  return { where, before: before.at(-1)!, after: after[0]!, query: `${core(left)} ${core(right)}` };
}

/**
 * The seams of a description: between its first two list items of each list, its first two table cells of
 * each table (the first body row) and, when `softBreaks`, the first soft line break of a paragraph.
 */
export function seams(where: string, markdown: string, softBreaks: boolean): Seam[] {
  const out: (Seam | undefined)[] = [];
  const lines = markdown.split("\n");
  const blockStart = /^\s*(?:#|[-*+]\s|\d+[.)]\s|\||>|```|~~~)/;
  const listItem = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/;
  const delimiter = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?\s*$/;
  const cells = (row: string) =>
    row.split(/(?<!\\)\|/).filter((cell, i, all) => cell.trim() !== "" || (i > 0 && i < all.length - 1));
  const textLine = (line: string | undefined) =>
    line !== undefined && line.trim() !== "" && !blockStart.test(line) && !delimiter.test(line);
  /** A list item's text, which runs on over the lines after it that start no block, and the index of the next line. */
  const item = (start: number) => {
    let text = listItem.exec(lines[start]!)![1]!;
    let end = start + 1;
    for (; textLine(lines[end]); end++) text += ` ${lines[end]!.trim()}`;
    return { text, end };
  };
  let fenced = false;
  let inList = false;
  let softBreakSeen = !softBreaks;
  lines.forEach((line, index) => {
    if (/^\s*(?:```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) return;
    const next = lines[index + 1];
    if (listItem.test(line) && !inList) {
      const first = item(index);
      if (first.end < lines.length && listItem.test(lines[first.end]!))
        out.push(seam(`${where}: list items`, first.text, item(first.end).text));
    }
    if (line.trim() === "") inList = false;
    else if (listItem.test(line)) inList = true;
    if (delimiter.test(line) && next?.includes("|")) {
      const row = cells(next);
      if (row.length > 1) out.push(seam(`${where}: table cells`, row[0]!, row[1]!));
    }
    if (!softBreakSeen && textLine(line) && textLine(next)) {
      out.push(seam(`${where}: soft line break`, line, next!));
      softBreakSeen = true;
    }
  });
  return out.filter((s): s is Seam => s !== undefined);
}

/**
 * Whether the word is two or more words of the vocabulary written together ("thetrade", "keyevery",
 * "{}.getWalletBalanceByCode"): not a word of the vocabulary itself, but a sequence of them.
 */
export function gluedWord(word: string, vocabulary: Set<string>): boolean {
  // The word as written ("{}.getWalletBalanceByCode"), then without the punctuation around it ("keyevery,").
  return [word, core(word)].some((written) => {
    const candidate = written.toLowerCase();
    if (candidate === "" || vocabulary.has(candidate)) return false;
    // reachable[i]: candidate.slice(0, i) is a sequence of words of at least two characters each.
    const reachable = [true, ...Array.from({ length: candidate.length }, () => false)];
    for (let end = 2; end <= candidate.length; end++)
      for (let start = 0; start <= end - 2 && !reachable[end]; start++)
        if (reachable[start] && vocabulary.has(candidate.slice(start, end))) reachable[end] = true;
    return reachable[candidate.length] === true;
  });
}

/** Every word of the texts as the search shows it, lower-cased, as written and without the punctuation around it. */
export function vocabularyOf(texts: string[]): Set<string> {
  const vocabulary = new Set<string>();
  for (const text of texts)
    for (const word of words(searchText(text))) {
      vocabulary.add(word.toLowerCase());
      vocabulary.add(core(word).toLowerCase());
    }
  return vocabulary;
}
