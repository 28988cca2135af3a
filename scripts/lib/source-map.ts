// Maps a place in the bundle (generated/openapi.*) back to the hand-written file under openapi/ it came
// from, with a line: every component and every path item is its own file, referenced from openapi.yaml.
import { readFileSync } from "node:fs";
import path from "node:path";
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import { isObject, pointerTokens } from "../../src/openapi/index.js";
import { ROOT } from "./paths.js";

interface SourceLocation {
  /** Relative to the repository root, e.g. `openapi/components/examples/Quote.yaml`. */
  file: string;
  /** 1-based line of the deepest node of the pointer found in that file. */
  line: number;
}

function lineOf(file: string, tokens: readonly string[]): number {
  const lineCounter = new LineCounter();
  const doc = parseDocument(readFileSync(file, "utf8"), { lineCounter });
  let node: unknown = doc.contents;
  let offset = (doc.contents as Node | null)?.range?.[0] ?? 0;
  for (const token of tokens) {
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === token);
      if (pair && isScalar(pair.key) && pair.key.range) offset = pair.key.range[0];
      next = pair?.value;
    } else if (isSeq(node)) next = node.items[Number(token)];
    if (!next) break;
    node = next;
    const range = (next as Node).range;
    if (range && !isMap(next) && !isSeq(next)) offset = range[0];
  }
  return lineCounter.linePos(offset).line;
}

/**
 * The source file and line of a bundle pointer (`#/components/examples/Quote/value/data`, or its
 * tokens), or undefined when the pointer leads nowhere known.
 */
export function sourceLocation(pointer: string | readonly string[], root = ROOT): SourceLocation | undefined {
  const tokens =
    typeof pointer === "string" ? pointerTokens(pointer.startsWith("#") ? pointer : `#${pointer}`) : [...pointer];
  const entry = path.join(root, "openapi", "openapi.yaml");
  const top = parseDocument(readFileSync(entry, "utf8")).toJS() as Record<string, unknown>;
  const [first, second, third] = tokens;
  let file = entry;
  let rest = tokens;
  const refAt = (value: unknown): string | undefined =>
    isObject(value) && typeof value.$ref === "string" ? value.$ref : undefined;
  if (first === "components" && second && third) {
    const ref = refAt((top.components as Record<string, Record<string, unknown>> | undefined)?.[second]?.[third]);
    if (ref) {
      file = path.resolve(path.dirname(entry), ref);
      rest = tokens.slice(3);
    }
  } else if (first === "paths" && second) {
    const ref = refAt((top.paths as Record<string, unknown> | undefined)?.[second]);
    if (ref) {
      file = path.resolve(path.dirname(entry), ref);
      rest = tokens.slice(2);
    }
  }
  try {
    return { file: path.relative(root, file).split(path.sep).join("/"), line: lineOf(file, rest) };
  } catch {
    return undefined;
  }
}

/** `text` with every bundle pointer (`#/…`) followed by its source file and line, when known. */
export function withSourceLocations(text: string, root?: string): string {
  return text.replace(/#\/[^\s'"`,;)]+/g, (pointer) => {
    const location = sourceLocation(pointer, root);
    return location ? `${pointer} (${location.file}:${location.line})` : pointer;
  });
}
